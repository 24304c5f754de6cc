#version 460
// Voxel trees: crown or trunk colour shaded by the frame's light (lighting.glsl) with the probes' lamp and
// sky light, the sun darkened where the shadow map says occluded. Back faces are drawn only while a slice cuts the trees (V14): seen through the
// cut, a tree's inside is its cross-section, so they are shaded as a flat cap facing up (heartwood for a
// trunk, a darker green for a crown) and a sliced tree reads solid, not as a hollow tube.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#define SHADOW_BINDING 5
#include "lighting.glsl"

layout(push_constant, scalar) uniform Push { VoxelVegetationDrawPush pc; };
layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec4 in_light;
layout(location = 2) flat in uint in_kind;
layout(location = 3) in vec3 in_world;
layout(location = 0) out vec4 out_color;

const vec3 kCrowns[3] = vec3[](vec3(0.16, 0.42, 0.14), vec3(0.10, 0.32, 0.16), vec3(0.45, 0.55, 0.15));

void main() {
  bool crown = (in_kind & 1u) != 0u;
  vec3 base = crown ? kCrowns[min(in_kind >> 1, 2u)] : vec3(0.36, 0.25, 0.15);
  vec3 n = normalize(in_normal);
  if (!gl_FrontFacing) {
    base = crown ? 0.7 * base : vec3(0.62, 0.47, 0.3);
    n = vec3(0.0, 1.0, 0.0);
  }
  float sun = in_light.w * shadow_visibility(in_world, n);
  out_color = shade(base, n, pc.to_light.xyz, sun, in_light.w, in_light.rgb);
}
