// The shading model, written once for GLSL (lighting.glsl) and C++ (render/frame/lighting.hpp, the CPU
// reference the GPU tests compare against): the same source compiles in both, with glm standing in for
// GLSL's built-ins on the C++ side. Colours named *_srgb are sRGB-encoded (textures and colours as
// authored); everything else is linear light.
//
// Full shading (the default): albedo decoded to linear, lit by the sun (times its shadow visibility) and
// the sky hemisphere (the sky's colour from above, ground bounce from below, times the surface's sky
// visibility: ambient occlusion, voxel sky light) plus lamps; fogged with distance towards the horizon's
// colour, complete at the fog distance; exposed, tone-mapped by a filmic curve and encoded to sRGB.
// Flat shading (`--shading flat`, the look before the model and the cost baseline): sRGB albedo times
// (lamps + a constant ambient + the rest of the light as a Lambert sun), no fog, no tone map: a surface's
// colour scaled by one light factor of at most 1 under a white sun.
#ifndef MYRIAD_LIGHTING_MODEL_H
#define MYRIAD_LIGHTING_MODEL_H

#include "light_layout.h"

#ifdef __cplusplus
#define MYRIAD_SHADER_FN inline
MYRIAD_SHADER_NAMESPACE_BEGIN
using glm::clamp;
using glm::dot;
using glm::exp;
using glm::max;
using glm::min;
using glm::mix;
using glm::pow;
using glm::smoothstep;
using glm::sqrt;
MYRIAD_SHADER_NAMESPACE_END
#else
#define MYRIAD_SHADER_FN
#endif

#define MYRIAD_SHADING_FULL 0u
#define MYRIAD_SHADING_FLAT 1u

MYRIAD_SHADER_NAMESPACE_BEGIN

MYRIAD_SHADER_FN float srgb_channel_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f);
}
MYRIAD_SHADER_FN vec3 srgb_to_linear(vec3 c) {
  return vec3(srgb_channel_to_linear(c.x), srgb_channel_to_linear(c.y), srgb_channel_to_linear(c.z));
}
MYRIAD_SHADER_FN float linear_channel_to_srgb(float c) {
  c = clamp(c, 0.0f, 1.0f);
  return c <= 0.0031308f ? c * 12.92f : 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
}
MYRIAD_SHADER_FN vec3 linear_to_srgb(vec3 c) {
  return vec3(linear_channel_to_srgb(c.x), linear_channel_to_srgb(c.y), linear_channel_to_srgb(c.z));
}

// The fitted ACES filmic curve: a toe that keeps shadows dense and a shoulder that rolls highlights
// (the sun disc, a lit white wall) off towards white instead of clipping them.
MYRIAD_SHADER_FN vec3 filmic_tone_map(vec3 x) {
  x = max(x, vec3(0.0f));
  return clamp((x * (2.51f * x + 0.03f)) / (x * (2.43f * x + 0.59f) + 0.14f), vec3(0.0f), vec3(1.0f));
}

// Light arriving at a surface with unit normal `n` (linear irradiance): the sun from unit direction
// `to_light` (the view's, as each pass pushes it), the sky hemisphere and lamps. `sun_visibility` is the
// shadow map's answer (times whatever else blocks the sun), `sky_visibility` the share of the sky the
// surface sees (1 in the open).
MYRIAD_SHADER_FN vec3 surface_irradiance(LightParamsGpu l, vec3 n, vec3 to_light, float sun_visibility,
                                         float sky_visibility, vec3 lamp) {
  float facing = max(dot(n, to_light), 0.0f);
  vec3 hemisphere = mix(vec3(l.ground), vec3(l.sky_ambient), n.y * 0.5f + 0.5f);
  return vec3(l.sun) * (facing * sun_visibility) + hemisphere * sky_visibility + lamp;
}

// Share of the fog colour at view depth `depth` (metres): clear near the eye (a tenth at 30 % of the fog
// distance), thickening with distance, exactly 1 at the fog distance and beyond; 0 everywhere without fog.
MYRIAD_SHADER_FN float fog_amount(LightParamsGpu l, float depth) {
  float fog_distance = l.zenith.w;
  float t = fog_distance > 0.0f ? min(depth / max(fog_distance, 1e-3f), 1.0f) : 0.0f;
  return (1.0f - exp(-4.0f * t * t * t)) / (1.0f - exp(-4.0f));
}

// The displayed colour of linear radiance (sRGB-encoded, 0..1): exposure, filmic curve, encoding.
MYRIAD_SHADER_FN vec3 display_color(LightParamsGpu l, vec3 radiance) {
  return linear_to_srgb(filmic_tone_map(radiance * l.sun.w));
}

// What a surface of sRGB albedo shows at view depth `depth`, in `mode` (MYRIAD_SHADING_*).
MYRIAD_SHADER_FN vec3 shade_surface(LightParamsGpu l, uint mode, vec3 albedo_srgb, vec3 n, vec3 to_light,
                                    float sun_visibility, float sky_visibility, vec3 lamp, float depth) {
  if (mode == MYRIAD_SHADING_FLAT) {
    float facing = max(dot(n, to_light), 0.0f);
    float ambient = l.sky_ambient.w;
    return albedo_srgb * (lamp + vec3(ambient * sky_visibility) +
                          vec3(l.flat_sun) * ((1.0f - ambient) * facing * sun_visibility));
  }
  vec3 radiance =
      srgb_to_linear(albedo_srgb) * surface_irradiance(l, n, to_light, sun_visibility, sky_visibility, lamp);
  return display_color(l, mix(radiance, vec3(l.horizon), fog_amount(l, depth)));
}

// Sky radiance seen along unit direction `d` (linear): the horizon's colour below and at the horizon,
// rising to the zenith's colour, with the sun's disc and a glow around it.
MYRIAD_SHADER_FN vec3 sky_radiance(LightParamsGpu l, vec3 d) {
  float up = clamp(d.y, 0.0f, 1.0f);
  vec3 sky = mix(vec3(l.horizon), vec3(l.zenith), sqrt(up));
  float toward_sun = max(dot(d, vec3(l.to_light)), 0.0f);
  float disc = smoothstep(l.horizon.w - 2e-4f, l.horizon.w, toward_sun);
  float glow = pow(toward_sun, 48.0f) * 0.35f + pow(toward_sun, 6.0f) * 0.08f;
  return sky + vec3(l.sun) * (disc * 8.0f + glow);
}

// The sky's displayed colour along `d` in `mode`; flat shading keeps one colour (the horizon's, encoded).
MYRIAD_SHADER_FN vec3 sky_color(LightParamsGpu l, uint mode, vec3 d) {
  if (mode == MYRIAD_SHADING_FLAT) return linear_to_srgb(vec3(l.horizon));
  return display_color(l, sky_radiance(l, d));
}

MYRIAD_SHADER_NAMESPACE_END

#endif
