#version 460
// Vertex-shader skinning (SPEC B4): the palette of every character lives in one global buffer; the
// instance's palette_offset selects its character, so equal meshes of all characters draw in one
// instanced draw. gl_InstanceIndex (which includes firstInstance) indexes the draw's slot list.
// Arithmetic is `precise` and ordered like anim::skin_position so the CPU reference matches exactly.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_draw_parameters : require
#include "skin_layout.h"

layout(binding = 0, scalar) readonly buffer Vertices { SkinVertex vertices[]; };
layout(binding = 1, scalar) readonly buffer Palette { vec4 palette_rows[]; };  // 3 rows per matrix
layout(binding = 2, scalar) readonly buffer Instances { SkinInstance instances[]; };
layout(binding = 3, scalar) readonly buffer Slots { uint slots[]; };
layout(binding = 4, scalar) readonly buffer Properties { float properties[]; };
layout(push_constant, scalar) uniform Push { SkinPush pc; };

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec4 out_color;
layout(location = 2) flat out vec3 out_capture;
layout(location = 3) flat out uint out_palette_offset;  // skin_id.frag: which avatar
layout(location = 4) flat out vec2 out_pattern;         // skin.frag: pattern id (0 = plain), 1 = UV cells
layout(location = 5) out vec3 out_pattern_cell;         // skin.frag: where in the pattern's cell grid
layout(location = 6) out vec2 out_uv;                   // skin.frag: the base-colour texture's coordinate
layout(location = 7) out vec4 out_vertex_color;         // skin.frag: COLOR_0 (linear)
layout(location = 8) flat out uvec2 out_material;       // skin.frag: material entry, tintable (0/1)
layout(location = 9) out vec3 out_world;                // skin.frag: shadow lookup
layout(location = 10) flat out uint out_fade;           // skin.frag: LOD cross-fade (dither.glsl)

// Pattern cells: the mesh's UV (procedural parts map 0..1 around and along each tube segment, so 8
// cells go round a limb and 5 along a bone), else the bind-pose position in 8 cm cells. Both are taken
// before skinning, so the pattern sticks to the cloth as it moves.
const vec2 kCellsPerUv = vec2(8.0, 5.0);
const float kCellsPerMetre = 12.5;

float row_dot(vec4 r, vec3 p) {
  precise float d = r.x * p.x + r.y * p.y + r.z * p.z + r.w;
  return d;
}

void main() {
  const SkinVertex v = vertices[gl_VertexIndex];
  const SkinInstance inst = instances[slots[gl_InstanceIndex]];
  const uint joints[4] =
      uint[](v.joints01 & 0xFFFFu, v.joints01 >> 16, v.joints23 & 0xFFFFu, v.joints23 >> 16);
  precise vec3 skinned = vec3(0.0);
  vec3 normal = vec3(0.0);
  for (int i = 0; i < 4; ++i) {
    const uint m = 3u * (inst.palette_offset + joints[i]);
    const vec4 r0 = palette_rows[m], r1 = palette_rows[m + 1u], r2 = palette_rows[m + 2u];
    precise vec3 q = vec3(row_dot(r0, v.position), row_dot(r1, v.position), row_dot(r2, v.position));
    skinned = skinned + q * v.weights[i];
    normal += v.weights[i] * vec3(dot(r0.xyz, v.normal), dot(r1.xyz, v.normal), dot(r2.xyz, v.normal));
  }
  precise vec3 world =
      vec3(row_dot(inst.rows[0], skinned), row_dot(inst.rows[1], skinned), row_dot(inst.rows[2], skinned));
  out_normal =
      vec3(dot(inst.rows[0].xyz, normal), dot(inst.rows[1].xyz, normal), dot(inst.rows[2].xyz, normal));
  const uint p = inst.property_offset;
  out_color = vec4(properties[p], properties[p + 1u], properties[p + 2u], 1.0);
  out_capture = world;
  out_world = world;
  out_fade = inst.fade;
  out_palette_offset = inst.palette_offset;
  const bool has_uv = (v.flags & SKIN_HAS_UV) != 0u;
  out_pattern =
      vec2(pc.pattern_float != 0u ? properties[p + pc.pattern_float - 1u] : 0.0, has_uv ? 1.0 : 0.0);
  // z = 0.5 for UVs: the cell centre, so skin.frag's 3D checks and dots become 2D ones.
  out_pattern_cell = has_uv ? vec3(v.uv * kCellsPerUv, 0.5) : v.position * kCellsPerMetre;
  out_uv = v.uv;
  out_vertex_color = unpackUnorm4x8(v.color);
  out_material = uvec2(v.flags >> SKIN_MATERIAL_SHIFT, (v.flags & SKIN_TINTABLE) != 0u ? 1u : 0u);
  // The capture position is selected, not branched to, on the push constant (see shadow.glsl); the
  // width is clamped to 1 so the unused side never divides by zero.
  const uint width = max(pc.capture_width, 1u);
  const uint k = pc.capture_base + uint(gl_InstanceIndex - gl_BaseInstanceARB) * pc.capture_vertex_count +
                 uint(gl_VertexIndex - gl_BaseVertexARB);
  const vec2 pixel = vec2(float(k % width), float(k / width)) + 0.5;
  const vec4 capture =
      vec4(pixel / vec2(float(width), float(max(pc.capture_height, 1u))) * 2.0 - 1.0, 0.5, 1.0);
  gl_Position = mix(pc.view_proj * vec4(world, 1.0), capture, bvec4(pc.capture_width != 0u));
  gl_PointSize = 1.0;
}
