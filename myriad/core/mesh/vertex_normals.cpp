#include "myriad/core/mesh/vertex_normals.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace myriad::mesh {
namespace {

bool unusable(glm::vec3 n) {
  const float len = glm::length(n);
  return !std::isfinite(len) || len < 1e-12f;
}

}  // namespace

std::vector<glm::vec3> area_weighted_normals(std::span<const glm::vec3> positions,
                                             std::span<const std::uint32_t> triangles) {
  std::vector<glm::vec3> sum(positions.size(), glm::vec3(0.0f));
  for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const std::uint32_t a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
    const glm::vec3 f = glm::cross(positions[b] - positions[a], positions[c] - positions[a]);
    if (!std::isfinite(f.x + f.y + f.z)) continue;
    sum[a] += f;
    sum[b] += f;
    sum[c] += f;
  }
  for (glm::vec3& n : sum) n = unusable(n) ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::normalize(n);
  return sum;
}

void repair_normals(std::span<const glm::vec3> positions, std::span<const std::uint32_t> triangles,
                    std::span<glm::vec3> normals) {
  if (std::none_of(normals.begin(), normals.end(), unusable)) return;
  const std::vector<glm::vec3> rebuilt = area_weighted_normals(positions, triangles);
  for (std::size_t v = 0; v < normals.size() && v < rebuilt.size(); ++v)
    if (unusable(normals[v])) normals[v] = rebuilt[v];
}

}  // namespace myriad::mesh
