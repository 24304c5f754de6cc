// The one shading model for every receiving fragment shader (lighting_model.h holds the formulas, shared
// with the CPU reference). Define SHADOW_BINDING before the include: the frame's light block sits at that
// binding and the shadow map at the next (shadow.glsl). The mode is specialisation constant 0, so a flat
// pipeline carries none of the full model's instructions (ShadedPipeline builds each mode on demand).
#include "shadow.glsl"
#include "lighting_model.h"

layout(constant_id = 0) const uint kShadingMode = MYRIAD_SHADING_FULL;

// View depth of this fragment in metres (the clip w of a perspective camera).
float fragment_depth() { return 1.0 / gl_FragCoord.w; }

// The displayed colour of a surface of sRGB albedo with unit normal `n` at this fragment, lit by the sun
// from `to_light` (the view's, from the pass's push constants: right even where no frame filled the light
// block). `sun_visibility` multiplies the sun (callers pass shadow_visibility(), evaluated in uniform
// control flow, times their own occlusion), `sky_visibility` the sky hemisphere; `lamp` is linear lamp light.
vec4 shade(vec3 albedo_srgb, vec3 n, vec3 to_light, float sun_visibility, float sky_visibility, vec3 lamp) {
  return vec4(shade_surface(frame_light, kShadingMode, albedo_srgb, n, to_light, sun_visibility, sky_visibility,
                            lamp, fragment_depth()),
              1.0);
}
