#version 460
// Evaluates the shading model (lighting_model.h, the source every receiving fragment shader shades with)
// for a list of probes, so tests can compare the GPU's arithmetic with the CPU reference.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "lighting_probe_layout.h"
#include "lighting_model.h"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Light { LightParamsGpu light; };
layout(binding = 1, scalar) readonly buffer Probes { LightingProbe probes[]; };
layout(binding = 2, scalar) writeonly buffer Out { vec4 results[]; };  // surface, then sky

layout(push_constant, scalar) uniform Push { LightingProbePush pc; };

void main() {
  uint id = gl_GlobalInvocationID.x;
  if (id >= pc.count) return;
  LightingProbe p = probes[id];
  results[id * 2u] = vec4(shade_surface(light, pc.mode, p.albedo_depth.rgb, p.normal_sun.xyz,
                                        light.to_light.xyz, p.normal_sun.w,
                                        p.lamp_sky.w, p.lamp_sky.rgb, p.albedo_depth.w),
                          1.0);
  results[id * 2u + 1u] = vec4(sky_color(light, pc.mode, p.sky_dir.xyz), 1.0);
}
