// CPU reference of the GPU Hi-Z occlusion test (render/shaders/hiz.glsl): the same float expressions
// in the same order over the CPU min pyramid (build_min_pyramid), so a late culling pass and this
// test agree object for object. Reverse-Z: depth 0 is far, larger is nearer.
#pragma once

#include <cstdint>
#include <span>

#include "myriad/core/math/math.hpp"
#include "myriad/core/cull/min_pyramid.hpp"

namespace myriad {

struct HizReference {
  glm::mat4 view_proj{1.0f};                // in the frame the bounds are given in
  std::span<const MinPyramidLevel> levels;  // build_min_pyramid of the depth image
  std::uint32_t source_width = 0;           // the depth image's size
  std::uint32_t source_height = 0;
};

// Whether the box [lo, hi] lies wholly behind the depth the pyramid holds over its screen rectangle.
// False for a box with a corner at or behind the camera plane, or wholly off screen.
bool hiz_box_occluded(const HizReference& hiz, glm::vec3 lo, glm::vec3 hi);

// A sphere is tested as its bounding cube (xyz centre, w radius), as the culling passes do.
inline bool hiz_sphere_occluded(const HizReference& hiz, glm::vec4 sphere) {
  const glm::vec3 c(sphere);
  return hiz_box_occluded(hiz, c - sphere.w, c + sphere.w);
}

}  // namespace myriad
