#version 460
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "smoke_layout.h"

layout(push_constant, scalar) uniform Push { SmokePush pc; };
layout(location = 0) in vec3 in_normal;
layout(location = 1) flat in uint in_color;
layout(location = 0) out vec4 out_color;

void main() {
  vec3 albedo = unpackUnorm4x8(in_color).rgb;
  float sun = max(dot(normalize(in_normal), pc.to_light.xyz), 0.0);
  vec3 sky = mix(vec3(0.25, 0.22, 0.2), vec3(0.35, 0.45, 0.6), in_normal.y * 0.5 + 0.5);
  out_color = vec4(albedo * (sky + vec3(1.0, 0.95, 0.85) * sun * 0.8), 1.0);
}
