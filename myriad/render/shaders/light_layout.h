// Layout of the frame's light, shared by C++ and GLSL: one uniform block that every receiving pass
// binds beside the shadow map (shadow.glsl, lighting.glsl). It holds the sun's shadow map parameters and
// the shading model's parameters (render/frame/lighting.hpp fills both from the FrameView).
#ifndef MYRIAD_LIGHT_LAYOUT_H
#define MYRIAD_LIGHT_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
struct LightParamsGpu {
  mat4 light_view_proj;  // world -> light clip space (orthographic, reverse-Z: towards the light = 1)
  vec4 to_light;         // xyz unit direction towards the sun, w: 1 = shadow map on, 0 = fully lit
  // x: world size of one map texel, y: depth units per metre along the light,
  // z: 1 / map size (texel in uv), w: unused
  vec4 texel;
  vec4 sun;          // rgb: the sun's irradiance on a surface facing it (linear), w: exposure
  vec4 sky_ambient;  // rgb: the sky's irradiance on an up-facing surface (linear), w: flat-mode ambient
  vec4 ground;       // rgb: light bounced from the ground onto a down-facing surface (linear), w: unused
  vec4 zenith;       // rgb: sky radiance straight up (linear), w: fog distance in metres (0: no fog)
  vec4 horizon;      // rgb: sky radiance at the horizon and the fog's colour (linear), w: cos of the sun
                     // disc's angular radius
  vec4 flat_sun;     // rgb: flat shading's sun colour (the view's, unscaled), w: unused
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(LightParamsGpu, 192, light_view_proj, 0, to_light, 64, texel, 80, sun, 96, sky_ambient,
                    112, ground, 128, zenith, 144, horizon, 160, flat_sun, 176);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
