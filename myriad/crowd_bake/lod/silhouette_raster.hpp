// The CPU silhouette rasterizer behind the hole check (SPEC C7): orthographic views of a BakeMesh from
// deterministic directions, all framed by the original's bounds so original and candidate line up
// pixel for pixel. Triangles of single-sided materials are culled when they face away, as on the GPU.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::crowd {

// `count` unit view directions spread evenly over the sphere (a Fibonacci spiral), the same every run.
std::vector<glm::vec3> silhouette_directions(int count);

// One orthographic camera: looks along `direction`, centred on `center`, `half_extent` model units
// from the image centre to each image edge.
struct SilhouetteView {
  glm::vec3 direction{0.0f, 0.0f, -1.0f};
  glm::vec3 center{0.0f};
  float half_extent = 1.0f;
  int resolution = 120;
};

// A view of `framing`'s bounds (with a margin so a slightly larger candidate still fits the image).
SilhouetteView frame_silhouette(const BakeMesh& framing, glm::vec3 direction, int resolution);

// resolution² bytes, rows top to bottom: 1 where a visible triangle covers the pixel centre, else 0.
std::vector<std::uint8_t> rasterize_silhouette(const BakeMesh& mesh, std::span<const BakeMaterial> materials,
                                               const SilhouetteView& view);

}  // namespace myriad::crowd
