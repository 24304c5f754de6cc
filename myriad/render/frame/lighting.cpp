#include "myriad/render/frame/lighting.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/render/frame/frame_view.hpp"

namespace myriad::render {
namespace {

void check_colour(glm::vec3 c, const char* field) {
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(c[i]) || c[i] < 0.0f)
      throw Error("each channel must be a finite number >= 0", std::string("Lighting::") + field);
}

void check_number(float v, float lo, float hi, const char* field) {
  if (!std::isfinite(v) || v < lo || v > hi)
    throw Error("must be a finite number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                std::string("Lighting::") + field);
}

}  // namespace

void Lighting::validate() const {
  check_number(sun_intensity, 0.0f, 1e4f, "sun_intensity");
  check_colour(sky_ambient, "sky_ambient");
  check_colour(ground, "ground");
  check_colour(zenith, "zenith");
  check_colour(horizon, "horizon");
  check_number(exposure, 0.0f, 1e4f, "exposure");
  check_number(flat_ambient, 0.0f, 1.0f, "flat_ambient");
  check_number(fog_distance, 0.0f, 1e9f, "fog_distance");
  check_number(sun_disc_degrees, 0.0f, 45.0f, "sun_disc_degrees");
  if (shading != Shading::kFull && shading != Shading::kFlat)
    throw Error("unknown mode", "Lighting::shading");
}

void fill_lighting(shader::LightParamsGpu& params, const FrameView& view) {
  const Lighting& l = view.lighting;
  float fog = l.fog_distance;
  if (view.draw_distance > 0.0f) fog = fog > 0.0f ? std::min(fog, view.draw_distance) : view.draw_distance;
  params.to_light = glm::vec4(glm::normalize(view.to_light), params.to_light.w);
  params.sun = glm::vec4(view.sun_color * l.sun_intensity, l.exposure);
  params.sky_ambient = glm::vec4(l.sky_ambient, l.flat_ambient);
  params.ground = glm::vec4(l.ground, 0.0f);
  params.zenith = glm::vec4(l.zenith, fog);
  params.horizon = glm::vec4(l.horizon, std::cos(glm::radians(l.sun_disc_degrees)));
  params.flat_sun = glm::vec4(view.sun_color, 0.0f);
}

glm::vec3 shade_reference(const shader::LightParamsGpu& params, Shading shading, glm::vec3 albedo_srgb,
                          glm::vec3 normal, float sun_visibility, float sky_visibility, glm::vec3 lamp,
                          float depth) {
  return shader::shade_surface(params, std::uint32_t(shading), albedo_srgb, normal,
                               glm::vec3(params.to_light), sun_visibility, sky_visibility, lamp, depth);
}

glm::vec3 sky_reference(const shader::LightParamsGpu& params, Shading shading, glm::vec3 d) {
  return shader::sky_color(params, std::uint32_t(shading), d);
}

}  // namespace myriad::render
