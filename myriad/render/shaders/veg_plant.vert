#version 460
// Vegetation plants (G6): one instanced indexed draw per LOD from the culling pass's lists. The
// instance is lists[gl_InstanceIndex] (first_instance = lod * capacity) and its fade word sits at
// fade_offset + gl_InstanceIndex; the 3x4 camera-relative matrix is expanded here, the tint read from
// the spare row (RGBA8 bits in a float slot). The shadow pass (VEG_DRAW_SHADOW) runs it alone with the
// light's view-projection.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "veg_plant_layout.h"
#include "veg_cull_layout.h"

layout(binding = 0, scalar) readonly buffer Vertices { VegPlantVertex vertices[]; };
layout(binding = 1, scalar) readonly buffer Instances { RuntimeInstance instances[]; };
layout(binding = 2, scalar) readonly buffer Lists { uint lists[]; };
layout(push_constant, scalar) uniform Push { VegPlantPush pc; };

layout(location = 0) out vec3 out_normal;
layout(location = 1) flat out vec3 out_tint;
layout(location = 2) flat out uint out_fade;
layout(location = 3) flat out uint out_id;
layout(location = 4) out vec3 out_world;  // shadow lookups

void main() {
  uint slot = uint(gl_InstanceIndex);
  // Selects on the push constant, not a branch (see shadow.glsl). With VEG_DRAW_DIRECT the list
  // binding holds the instances themselves: both reads stay inside it and their values are unused.
  bool direct = (pc.flags & VEG_DRAW_DIRECT) != 0u;
  uint listed = lists[slot];
  uint listed_fade = lists[direct ? slot : pc.fade_offset + slot];
  uint id = direct ? slot : listed;
  uint fade = direct ? 0u : listed_fade;
  RuntimeInstance inst = instances[id];
  VegPlantVertex v = vertices[gl_VertexIndex];
  vec4 p = vec4(v.position, 1.0);
  vec3 world = vec3(dot(inst.row0, p), dot(inst.row1, p), dot(inst.row2, p));
  vec4 n = vec4(v.normal, 0.0);  // rotation and uniform scale: the matrix itself maps normals
  out_normal = vec3(dot(inst.row0, n), dot(inst.row1, n), dot(inst.row2, n));
  out_tint = unpackUnorm4x8(floatBitsToUint(inst.spare.x)).rgb;
  out_fade = fade;
  out_id = pc.id_base + id;
  out_world = world;
  gl_Position = pc.view_proj * vec4(world, 1.0);
  // The incoming LOD's entry of a fading instance does not cast: the outgoing one already does whole.
  if ((pc.flags & VEG_DRAW_SHADOW) != 0u && (fade & VEG_FADE_IN) != 0u) gl_Position = vec4(-2.0, -2.0, -2.0, 1.0);
}
