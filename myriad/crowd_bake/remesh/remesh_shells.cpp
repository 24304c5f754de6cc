#include "myriad/crowd_bake/remesh/remesh_shells.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace myriad::crowd {

namespace {

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

// Möller–Trumbore: does the ray from `origin` along `direction` cross triangle (a, b, c) ahead of it?
bool ray_hits(glm::dvec3 origin, glm::dvec3 direction, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
  const glm::dvec3 e1 = b - a, e2 = c - a;
  const glm::dvec3 h = glm::cross(direction, e2);
  const double det = glm::dot(e1, h);
  if (std::abs(det) < 1e-18) return false;
  const double inv = 1.0 / det;
  const glm::dvec3 s = origin - a;
  const double u = glm::dot(s, h) * inv;
  if (u < 0.0 || u > 1.0) return false;
  const glm::dvec3 q = glm::cross(s, e1);
  const double v = glm::dot(direction, q) * inv;
  if (v < 0.0 || u + v > 1.0) return false;
  return glm::dot(e2, q) * inv > 0.0;
}

}  // namespace

ShellStats keep_outer_shells(VoxelSurface& surface) {
  const std::size_t tris = surface.indices.size() / 3;
  std::vector<std::uint32_t> parent(surface.positions.size());
  std::iota(parent.begin(), parent.end(), 0u);
  for (std::size_t t = 0; t < tris; ++t) {
    for (std::size_t k = 1; k < 3; ++k) {
      parent[find_root(parent, surface.indices[3 * t])] = find_root(parent, surface.indices[3 * t + k]);
    }
  }
  std::vector<std::uint32_t> component_of_root(surface.positions.size(), 0xffffffffu);
  std::vector<std::uint32_t> triangle_component(tris);
  std::vector<double> volume;
  for (std::size_t t = 0; t < tris; ++t) {
    const std::uint32_t root = find_root(parent, surface.indices[3 * t]);
    if (component_of_root[root] == 0xffffffffu) {
      component_of_root[root] = static_cast<std::uint32_t>(volume.size());
      volume.push_back(0.0);
    }
    const std::uint32_t c = component_of_root[root];
    triangle_component[t] = c;
    const glm::dvec3 a(surface.positions[surface.indices[3 * t]]),
        b(surface.positions[surface.indices[3 * t + 1]]), d(surface.positions[surface.indices[3 * t + 2]]);
    volume[c] += glm::dot(a, glm::cross(b, d)) / 6.0;
  }
  ShellStats stats;
  stats.shells = volume.size();
  if (volume.empty()) return stats;
  // The largest shell by volume is outside everything: its sign says which way the mesher wound.
  const std::size_t largest = static_cast<std::size_t>(std::distance(
      volume.begin(), std::max_element(volume.begin(), volume.end(),
                                       [](double x, double y) { return std::abs(x) < std::abs(y); })));
  const bool flip = volume[largest] < 0.0;
  if (flip) {
    for (std::size_t t = 0; t < tris; ++t) std::swap(surface.indices[3 * t + 1], surface.indices[3 * t + 2]);
    for (double& v : volume) v = -v;
  }
  std::vector<std::uint8_t> keep(volume.size());
  for (std::size_t c = 0; c < volume.size(); ++c) keep[c] = volume[c] > 0.0 ? 1 : 0;
  // Enclosed outward shells: a ray from one of their vertices crosses the other kept shells an odd
  // number of times. The direction avoids the voxel grid's axes and diagonals.
  const glm::dvec3 direction = glm::normalize(glm::dvec3(0.5377, 0.6142, 0.5773));
  std::vector<std::uint8_t> enclosed(volume.size(), 0);
  for (std::size_t c = 0; c < volume.size(); ++c) {
    if (!keep[c]) continue;
    std::size_t first = 0;
    while (triangle_component[first] != c) ++first;
    const glm::dvec3 origin(surface.positions[surface.indices[3 * first]]);
    std::size_t crossings = 0;
    for (std::size_t t = 0; t < tris; ++t) {
      const std::uint32_t other = triangle_component[t];
      if (other == c || !keep[other]) continue;
      crossings += ray_hits(origin, direction, glm::dvec3(surface.positions[surface.indices[3 * t]]),
                            glm::dvec3(surface.positions[surface.indices[3 * t + 1]]),
                            glm::dvec3(surface.positions[surface.indices[3 * t + 2]]))
                       ? 1
                       : 0;
    }
    enclosed[c] = crossings % 2 == 1 ? 1 : 0;
  }
  std::vector<std::uint32_t> remap(surface.positions.size(), 0xffffffffu);
  VoxelSurface kept;
  for (std::size_t t = 0; t < tris; ++t) {
    const std::uint32_t c = triangle_component[t];
    if (!keep[c] || enclosed[c]) continue;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t v = surface.indices[3 * t + k];
      if (remap[v] == 0xffffffffu) {
        remap[v] = static_cast<std::uint32_t>(kept.positions.size());
        kept.positions.push_back(surface.positions[v]);
      }
      kept.indices.push_back(remap[v]);
    }
  }
  for (std::size_t c = 0; c < volume.size(); ++c) stats.dropped += (!keep[c] || enclosed[c]) ? 1 : 0;
  surface = std::move(kept);
  return stats;
}

}  // namespace myriad::crowd
