// The shading model's CPU-side parameters (carried by every FrameView) and its CPU reference: the
// formulas are shaders/lighting_model.h, compiled here as C++ and in every receiving fragment shader as
// GLSL (shaders/lighting.glsl), so a GPU pixel can be checked against the same function on the CPU.
#pragma once

#include <cstdint>

#include "myriad/core/math/math.hpp"
#include "myriad/render/shaders/lighting_model.h"

namespace myriad::render {

// Full: the shading model (hemisphere sky, fog, filmic tone map, sRGB). Flat: sRGB albedo times a
// constant ambient and a Lambert sun, no fog, no tone map, a one-colour sky: the look before the model,
// and the baseline its cost is measured against (`--shading flat`).
enum class Shading : std::uint32_t { kFull = MYRIAD_SHADING_FULL, kFlat = MYRIAD_SHADING_FLAT };

// Colours are linear light; the sun's direction and colour are the FrameView's (to_light, sun_color).
struct Lighting {
  float sun_intensity = 1.15f;                 // the sun's irradiance is sun_color times this
  glm::vec3 sky_ambient{0.24f, 0.29f, 0.38f};  // the sky's irradiance on an up-facing surface
  glm::vec3 ground{0.10f, 0.095f, 0.07f};      // bounce light on a down-facing surface
  glm::vec3 zenith{0.085f, 0.18f, 0.80f};      // sky radiance straight up
  glm::vec3 horizon{0.38f, 0.60f, 1.60f};      // sky radiance at the horizon: the fog's colour
  float exposure = 1.0f;
  float flat_ambient = 0.35f;     // flat shading's ambient (sRGB albedo multiplier)
  float fog_distance = 0.0f;      // metres of view depth at which fog is complete; 0: no fog
  float sun_disc_degrees = 0.8f;  // angular radius of the sun's disc in the sky
  Shading shading = Shading::kFull;

  // Throws myriad::Error naming the first field that is negative, not finite or out of range.
  void validate() const;
};

struct FrameView;

// The frame light block's shading fields (sun, sky, fog, exposure, the sun's direction) from a camera
// view's `to_light`, `sun_color` and `lighting`; the shadow fields (matrix, texel, to_light.w) are left as
// they are. A view's draw distance brings the fog in: complete where the view ends, never farther than
// the lighting's own fog distance.
void fill_lighting(shader::LightParamsGpu& params, const FrameView& view);

// The CPU reference of a shaded pixel (lighting_model.h's shade_surface) lit from the block's sun
// direction: sRGB albedo, unit normal, the sun's and sky's visibility, linear lamp light, view depth in
// metres. Returns the sRGB display colour.
glm::vec3 shade_reference(const shader::LightParamsGpu& params, Shading shading, glm::vec3 albedo_srgb,
                          glm::vec3 normal, float sun_visibility, float sky_visibility, glm::vec3 lamp,
                          float depth);
// The CPU reference of the sky along unit direction `d` (lighting_model.h's sky_color).
glm::vec3 sky_reference(const shader::LightParamsGpu& params, Shading shading, glm::vec3 d);

}  // namespace myriad::render
