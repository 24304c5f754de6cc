#version 460
// The sky behind everything: the shading model's sky along the pixel's view ray (lighting_model.h's
// sky_color: gradient, sun disc, the fog's colour at the horizon, so far geometry fades into it).
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "sky_layout.h"
#define SHADOW_BINDING 0
#include "lighting.glsl"

layout(push_constant, scalar) uniform Push { SkyPush pc; };
layout(location = 0) in vec2 in_ndc;
layout(location = 0) out vec4 out_color;

void main() {
  // A point on the near plane (reverse-Z: depth 1) under this pixel, seen from the eye.
  vec4 p = pc.inverse_view_proj * vec4(in_ndc, 1.0, 1.0);
  vec3 d = normalize(p.xyz / p.w - pc.eye.xyz);
  out_color = vec4(sky_color(frame_light, kShadingMode, d), 1.0);
}
