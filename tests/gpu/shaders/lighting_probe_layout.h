// One evaluation of the shading model for tests/gpu/lighting_test.cpp (lighting_probe.comp).
#ifndef MYRIAD_LIGHTING_PROBE_LAYOUT_H
#define MYRIAD_LIGHTING_PROBE_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
struct LightingProbe {
  vec4 albedo_depth;  // rgb: sRGB albedo, w: view depth (m)
  vec4 normal_sun;    // xyz: unit normal, w: sun visibility
  vec4 lamp_sky;      // rgb: lamp light, w: sky visibility
  vec4 sky_dir;       // xyz: a unit view direction for the sky, w: unused
};
struct LightingProbePush {
  uint count;
  uint mode;  // MYRIAD_SHADING_*
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(LightingProbe, 64, albedo_depth, 0, normal_sun, 16, lamp_sky, 32, sky_dir, 48);
MYRIAD_CHECK_LAYOUT(LightingProbePush, 8, count, 0, mode, 4);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
