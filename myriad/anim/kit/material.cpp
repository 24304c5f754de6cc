#include "myriad/anim/kit/material.hpp"

#include "myriad/core/image/srgb.hpp"

namespace myriad::anim {

SurfaceColor avatar_surface(const Material& material, glm::vec4 vertex_color, glm::vec4 texel, glm::vec3 tint,
                            bool tintable) {
  glm::vec4 surface = material.base_color_factor * vertex_color;
  if (material.base_color_texture >= 0) surface *= texel;
  SurfaceColor out;
  out.alpha = surface.a;
  out.discarded = material.alpha_mode != AlphaMode::kOpaque && surface.a < material.alpha_cutoff;
  const glm::vec3 encoded(linear_to_srgb(surface.r), linear_to_srgb(surface.g), linear_to_srgb(surface.b));
  out.rgb = encoded * (tintable ? tint : glm::vec3(1.0f));
  return out;
}

}  // namespace myriad::anim
