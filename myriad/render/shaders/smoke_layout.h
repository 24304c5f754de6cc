// Layouts of the GPU smoke scene (a field of culled, indirectly drawn boxes), shared by C++ and GLSL.
#ifndef MYRIAD_SMOKE_LAYOUT_H
#define MYRIAD_SMOKE_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
struct SmokeInstance {
  vec4 center_half;  // xyz centre, w half size of the cube
  uint color;        // RGBA8
};
struct SmokePush {
  mat4 view_proj;
  vec4 to_light;  // xyz: unit vector towards the light
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(SmokeInstance, 20, center_half, 0, color, 16);
MYRIAD_CHECK_LAYOUT(SmokePush, 80, view_proj, 0, to_light, 64);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
