#version 460
// VAT crowd vertex shader (SPEC C1): the instance is a visible entity id written by crowd_cull.comp
// (gl_InstanceIndex counts from the slot's first_instance); the vertex's VAT column is sampled at the
// entity's clock, interpolated between two frame rows, then yawed, scaled and placed in the world.
// LOD2's attached vertices are ordinary columns: nothing here tells them apart. The list entry's fade
// bits (q, incoming) go to the fragment shader's dither. The shadow pass runs this shader alone (no
// fragment stage) with the light's view-projection; there an entry of a band's other LOD
// (CROWD_ENTRY_SECONDARY) casts nothing, so each entity casts with its own level only.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "crowd_layout.h"

layout(binding = 0, scalar) readonly buffer Entities { CrowdEntity entities[]; };
layout(binding = 1, scalar) readonly buffer Visible { uint visible[]; };
layout(binding = 2, scalar) readonly buffer Types { CrowdTypeDrawGpu types[]; };
layout(binding = 3, scalar) readonly buffer Clips { VatClipRuntime clips[]; };
layout(binding = 4, scalar) readonly buffer Texels { uint vat_texels[]; };
layout(binding = 5, scalar) readonly buffer Vertices { CrowdVertexGpu vertices[]; };

layout(push_constant, scalar) uniform Push { CrowdDrawPush pc; };

#include "crowd_vat.glsl"

layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec3 out_normal;
layout(location = 2) flat out uint out_tint;
layout(location = 3) out vec3 out_world;      // shadow lookups
layout(location = 4) flat out uint out_fade;  // bits 0..7: q, bit 8: incoming

void main() {
  uint entry = visible[gl_InstanceIndex];
  CrowdEntity e = entities[entry & CROWD_ENTRY_ID_MASK];
  CrowdTypeDrawGpu type = types[pc.type];
  CrowdVertexGpu v = vertices[gl_VertexIndex];
  uint clip_index = type.clip_offset + min(e.type_clip >> 16, type.clip_count - 1u);
  VatClipRuntime clip = clips[clip_index];
  VatFrame frame = vat_frame(clip, pc.time * e.speed + e.time_offset);
  uint column = type.texel_offset + v.column;
  vec3 p = vat_sample_position(clip, frame, column, type.columns);
  vec3 n = vat_sample_normal(frame, column, type.columns);

  vec2 yaw_scale = unpackHalf2x16(e.yaw_scale);
  float c = cos(yaw_scale.x), s = sin(yaw_scale.x);
  vec3 world = e.position + yaw_scale.y * vec3(c * p.x + s * p.z, p.y, -s * p.x + c * p.z);
  gl_Position = pc.view_proj * vec4(world, 1.0);
  out_uv = v.uv;
  out_normal = vec3(c * n.x + s * n.z, n.y, -s * n.x + c * n.z);
  out_tint = e.tint;
  out_world = world;
  out_fade = (entry >> CROWD_ENTRY_Q_SHIFT) & 0x1ffu;
  if (pc.shadow != 0u && (entry & CROWD_ENTRY_SECONDARY) != 0u) gl_Position = vec4(-2.0, -2.0, -2.0, 1.0);
}
