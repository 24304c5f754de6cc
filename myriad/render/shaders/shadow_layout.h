// Layout of the directional light's shadow parameters (render::ShadowMap), shared by C++ and GLSL:
// one uniform block that receiving passes bind beside the depth map (see shadow.glsl).
#ifndef MYRIAD_SHADOW_LAYOUT_H
#define MYRIAD_SHADOW_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
struct ShadowParamsGpu {
  mat4 light_view_proj;  // world -> light clip space (orthographic, reverse-Z: towards the light = 1)
  vec4 to_light;         // xyz unit direction towards the light, w: 1 = shadows on, 0 = fully lit
  // x: world size of one map texel, y: depth units per metre along the light,
  // z: 1 / map size (texel in uv), w: unused
  vec4 texel;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(ShadowParamsGpu, 96, light_view_proj, 0, to_light, 64, texel, 80);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
