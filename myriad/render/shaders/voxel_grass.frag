#version 460
// Grass blades by alpha cutout (no blending): a few tapered blades per quad, shaded like the ground
// (lighting.glsl) with the cell's lamp and sky light.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#define SHADOW_BINDING 3
#include "lighting.glsl"

layout(push_constant, scalar) uniform Push { VoxelVegetationDrawPush pc; };
layout(location = 0) in vec2 in_uv;
layout(location = 1) flat in uint in_template_light;
layout(location = 2) in vec3 in_world;
layout(location = 0) out vec4 out_color;

void main() {
  float blade = abs(fract(in_uv.x * 4.0) - 0.5) * 2.0;  // 0 at a blade's centre, 1 between blades
  if (blade > (1.0 - in_uv.y) * 0.9 + 0.05) discard;   // tapered towards the tip
  uint light = in_template_light >> 16;
  vec3 lamp = vec3(float(light & 0xFu), float((light >> 4) & 0xFu), float((light >> 8) & 0xFu)) / 15.0;
  // Blades take the ground's up normal: lit and shadowed like the ground they stand on.
  const vec3 up = vec3(0.0, 1.0, 0.0);
  float sky = float((light >> 12) & 0xFu) / 15.0;
  float sun = sky * shadow_visibility(in_world, up);
  bool flower = (in_template_light & 0xFu) == 4u;
  vec3 base = flower && in_uv.y > 0.75 ? vec3(0.95, 0.85, 0.3) : mix(vec3(0.18, 0.42, 0.12), vec3(0.45, 0.75, 0.25), in_uv.y);
  out_color = shade(base, up, pc.to_light.xyz, sun, sky, lamp);
}
