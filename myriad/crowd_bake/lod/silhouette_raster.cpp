#include "myriad/crowd_bake/lod/silhouette_raster.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace myriad::crowd {

namespace {

// Room around the original's bounding sphere: a candidate that bulges a little still lands inside
// the image, so its loss pixels are counted instead of clipped away.
constexpr float kFramingMargin = 1.15f;

struct ScreenBasis {
  glm::vec3 right;
  glm::vec3 up;
};

ScreenBasis screen_basis(glm::vec3 direction) {
  const glm::vec3 reference =
      std::abs(direction.y) > 0.99f ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
  const glm::vec3 right = glm::normalize(glm::cross(direction, reference));
  return {right, glm::cross(right, direction)};
}

float edge(glm::vec2 a, glm::vec2 b, glm::vec2 p) {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

}  // namespace

std::vector<glm::vec3> silhouette_directions(int count) {
  std::vector<glm::vec3> directions;
  directions.reserve(static_cast<std::size_t>(std::max(count, 0)));
  const float golden_angle = std::numbers::pi_v<float> * (3.0f - std::sqrt(5.0f));
  for (int i = 0; i < count; ++i) {
    const float y = 1.0f - 2.0f * (static_cast<float>(i) + 0.5f) / static_cast<float>(count);
    const float radius = std::sqrt(std::max(0.0f, 1.0f - y * y));
    const float angle = golden_angle * static_cast<float>(i);
    directions.emplace_back(radius * std::cos(angle), y, radius * std::sin(angle));
  }
  return directions;
}

SilhouetteView frame_silhouette(const BakeMesh& framing, glm::vec3 direction, int resolution) {
  glm::vec3 lo(0.0f), hi(0.0f);
  if (!framing.positions.empty()) {
    lo = hi = framing.positions.front();
    for (const glm::vec3& p : framing.positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  }
  SilhouetteView view;
  view.direction = glm::normalize(direction);
  view.center = 0.5f * (lo + hi);
  view.half_extent = std::max(0.5f * glm::length(hi - lo), 1e-6f) * kFramingMargin;
  view.resolution = resolution;
  return view;
}

std::vector<std::uint8_t> rasterize_silhouette(const BakeMesh& mesh, std::span<const BakeMaterial> materials,
                                               const SilhouetteView& view) {
  const int res = view.resolution;
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(res) * static_cast<std::size_t>(res), 0);
  const ScreenBasis basis = screen_basis(view.direction);
  const float scale = 0.5f * static_cast<float>(res) / view.half_extent;
  const float half_res = 0.5f * static_cast<float>(res);
  auto project = [&](glm::vec3 p) {
    const glm::vec3 d = p - view.center;
    return glm::vec2(half_res + glm::dot(d, basis.right) * scale, half_res - glm::dot(d, basis.up) * scale);
  };
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const glm::vec3 a = mesh.positions[mesh.indices[3 * t]];
    const glm::vec3 b = mesh.positions[mesh.indices[3 * t + 1]];
    const glm::vec3 c = mesh.positions[mesh.indices[3 * t + 2]];
    const std::size_t material = t < mesh.triangle_material.size() ? mesh.triangle_material[t] : 0;
    const bool double_sided = material < materials.size() && materials[material].double_sided;
    // Counter-clockwise triangles face their normal's way (glTF); the camera looks along `direction`.
    if (!double_sided && glm::dot(glm::cross(b - a, c - a), view.direction) >= 0.0f) continue;
    glm::vec2 p0 = project(a), p1 = project(b), p2 = project(c);
    float area = edge(p0, p1, p2);
    if (std::abs(area) < 1e-12f) continue;
    if (area < 0.0f) {
      std::swap(p1, p2);
      area = -area;
    }
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min({p0.x, p1.x, p2.x}))));
    const int x1 = std::min(res - 1, static_cast<int>(std::ceil(std::max({p0.x, p1.x, p2.x}))));
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min({p0.y, p1.y, p2.y}))));
    const int y1 = std::min(res - 1, static_cast<int>(std::ceil(std::max({p0.y, p1.y, p2.y}))));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const glm::vec2 p(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
        // Inclusive edges: a pixel centre on an edge shared by two triangles is never lost to both.
        if (edge(p0, p1, p) >= 0.0f && edge(p1, p2, p) >= 0.0f && edge(p2, p0, p) >= 0.0f) {
          mask[static_cast<std::size_t>(y) * static_cast<std::size_t>(res) + static_cast<std::size_t>(x)] = 1;
        }
      }
    }
  }
  return mask;
}

}  // namespace myriad::crowd
