#version 460
// The flat ground plane, shaded by the frame's light (lighting.glsl) with the shadows cast onto it.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "ground_plane_layout.h"
#define SHADOW_BINDING 0
#include "lighting.glsl"

layout(push_constant, scalar) uniform Push { GroundPlanePush pc; };

layout(location = 0) in vec3 in_world;
layout(location = 0) out vec4 out_color;

void main() {
  const vec3 up = vec3(0.0, 1.0, 0.0);
  vec3 albedo = ground_plane_albedo(pc.albedo_scale.rgb, in_world.xz, pc.albedo_scale.w);
  out_color = shade(albedo, up, pc.to_light.xyz, shadow_visibility(in_world, up), 1.0, vec3(0.0));
}
