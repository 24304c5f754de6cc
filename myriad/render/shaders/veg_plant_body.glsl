// Body of the vegetation vertex shaders: veg_plant.vert draws pooled plants from the culling pass's
// lists (the instance is the slot in lists[gl_InstanceIndex], first_instance being its list's start),
// expanding the record with its page (veg_expand.glsl, bit for bit the culling pass's matrix);
// veg_plant_direct.vert (VEG_DIRECT) draws RuntimeInstances as they are (ground, occluders), instance =
// gl_InstanceIndex. The shadow pass (VEG_DRAW_SHADOW) runs either alone with the light's view-projection.
// Both use one pipeline layout: vertices, instances, lists, records, pages, decode table, then the
// shadow receiver's bindings (5 and 6). Pooled plants sway and are trampled (plant_motion.glsl), the
// shadow pass's exactly as the camera's; direct draws stay put.
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "veg_plant_layout.h"
#include "veg_cull_layout.h"
#include "plant_motion.glsl"

layout(binding = 0, scalar) readonly buffer Vertices { VegPlantVertex vertices[]; };
#ifdef VEG_DIRECT
layout(binding = 1, scalar) readonly buffer Instances { RuntimeInstance instances[]; };
#else
layout(binding = 1, scalar) readonly buffer Lists { uint lists[]; };
layout(binding = 2, scalar) readonly buffer Records { PlantRecord records[]; };
layout(binding = 3, scalar) readonly buffer Pages { PlantPage pages[]; };
layout(binding = 4, scalar) readonly buffer Decode { float decode[]; };
#include "veg_expand.glsl"
#endif
layout(push_constant, scalar) uniform Push { VegPlantPush pc; };

layout(location = 0) out vec3 out_normal;
layout(location = 1) flat out vec3 out_tint;
layout(location = 2) flat out uint out_fade;
layout(location = 3) flat out uint out_id;
layout(location = 4) out vec3 out_world;  // shadow lookups
layout(location = 5) out vec2 out_uv;
layout(location = 6) flat out vec4 out_surface;  // base colour, alpha cutoff
layout(location = 7) flat out uint out_layer;

void main() {
#ifdef VEG_DIRECT
  uint id = uint(gl_InstanceIndex);
  uint fade = 0u;
  RuntimeInstance inst = instances[id];
  vec4 row0 = inst.row0, row1 = inst.row1, row2 = inst.row2;
  uint tint = floatBitsToUint(inst.spare.x);
#else
  uint entry = lists[uint(gl_InstanceIndex)];
  uint id = entry & VEG_SLOT_MASK;
  uint fade = entry >> VEG_SLOT_BITS;  // bit 0: fading in; bits 1..8: the threshold
  PlantMatrix m = expand_plant_matrix(records[id], pages[id / VEG_PAGE_SLOTS]);
  vec4 row0 = m.row0, row1 = m.row1, row2 = m.row2;
  uint tint = m.tint;
#endif
  VegPlantVertex v = vertices[gl_VertexIndex];
  vec4 p = vec4(v.position, 1.0);
  vec3 world = vec3(dot(row0, p), dot(row1, p), dot(row2, p));
#ifndef VEG_DIRECT
  // The plant bends about its root (the matrix's translation) by its height: uniform scale = row length.
  vec3 root = vec3(row0.w, row1.w, row2.w);
  float h01 = clamp(v.position.y / max(pc.plant_height, 1e-4), 0.0, 1.0);
  vec2 bend = plant_bend(PlantMotion(pc.motion), root.xz, pc.time, pc.sway, pc.trample);
  world = root + bend_vertex(world - root, h01, pc.plant_height * length(row0.xyz), bend);
#endif
  vec4 n = vec4(v.normal, 0.0);  // rotation and uniform scale: the matrix itself maps normals
  out_normal = vec3(dot(row0, n), dot(row1, n), dot(row2, n));
  out_tint = unpackUnorm4x8(tint).rgb;
  out_fade = fade;
  out_id = pc.id_base + id;
  out_world = world;
  out_uv = unpackHalf2x16(v.uv);
  out_surface = unpackUnorm4x8(v.color);
  out_layer = v.layer;
  gl_Position = pc.view_proj * vec4(world, 1.0);
  // The incoming LOD's entry of a fading instance does not cast: the outgoing one already does whole.
  if ((pc.flags & VEG_DRAW_SHADOW) != 0u && (fade & 1u) != 0u) gl_Position = vec4(-2.0, -2.0, -2.0, 1.0);
}
