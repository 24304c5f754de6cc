// Directional-light shadow lookup for receiving fragment shaders (included by lighting.glsl). Define
// SHADOW_BINDING before the include: the frame's light block (LightParamsGpu) sits at that binding and
// the depth map (with a reverse-Z GREATER_OR_EQUAL compare sampler) at the next. A frame without a shadow
// map has to_light.w = 0, and then the lookup returns exactly 1.0.
#include "light_layout.h"

layout(binding = SHADOW_BINDING, std140) uniform FrameLight { LightParamsGpu frame_light; };
layout(binding = SHADOW_BINDING + 1) uniform sampler2DShadow shadow_map;

// 1 where the light reaches `world` (surface normal `normal`, unit length or zero), 0 in full shadow.
// No branch here depends on uniform values alone (the stand-in's w = 0 is selected at the end): Mesa
// 22.3's lavapipe compiles a fresh shader variant for every draw of a shader with such branches once
// its descriptors were pushed, and never frees it (megabytes per frame; tests/driver_repro).
// Acne is kept off by two biases: the lookup point moves along the normal by up to two texels (more at
// grazing light), and the compared depth moves towards the light by one texel plus what the surface's
// tilt to the light covers over the PCF footprint (two texels each side). Casters also carry a
// slope-scaled hardware bias (the caster pipelines' settings).
float shadow_visibility(vec3 world, vec3 normal) {
  float texel = frame_light.texel.x;
  float facing = clamp(dot(normal, frame_light.to_light.xyz), 0.0, 1.0);
  vec3 p = world + normal * (texel * (0.5 + 1.5 * (1.0 - facing)));
  vec4 clip = frame_light.light_view_proj * vec4(p, 1.0);
  vec2 uv = clip.xy * 0.5 + 0.5;
  float tilt = min(sqrt(max(1.0 - facing * facing, 0.0)) / max(facing, 1e-3), 4.0);  // tan of the angle
  float depth = clip.z + texel * frame_light.texel.y * (1.0 + 2.0 * tilt);
  // Outside the map's box nothing was rendered: lit.
  bool outside = any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0))) || depth < 0.0 || depth > 1.0;
  // 3x3 taps, each a bilinear 2x2 hardware compare: a soft edge about three texels wide.
  float step_uv = frame_light.texel.z;
  float sum = 0.0;
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x) sum += texture(shadow_map, vec3(uv + vec2(x, y) * step_uv, depth));
  return mix(sum / 9.0, 1.0, outside || frame_light.to_light.w == 0.0);
}
