// Push constants of the sky pass (render::SkyPass, shaders/sky.vert, sky.frag).
#ifndef MYRIAD_SKY_LAYOUT_H
#define MYRIAD_SKY_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
struct SkyPush {
  mat4 inverse_view_proj;  // clip -> render space, of the camera
  vec4 eye;                // xyz: the camera in render space
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(SkyPush, 80, inverse_view_proj, 0, eye, 64);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
