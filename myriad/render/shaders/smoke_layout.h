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
  vec4 sun_direction;  // xyz towards the sun
};
MYRIAD_SHADER_NAMESPACE_END

#ifdef __cplusplus
static_assert(sizeof(myriad::render::shader::SmokeInstance) == 20);
static_assert(sizeof(myriad::render::shader::SmokePush) == 80);
#endif

#endif
