#include "myriad/crowd_bake/remesh/remesh_steps.hpp"

#include <algorithm>

namespace myriad::crowd {

namespace {

// Rounds of backing off: a vertex that turns a triangle over moves half as far each round.
constexpr int kBackOffRounds = 4;

glm::vec3 face_normal(const std::vector<glm::vec3>& p, const std::uint32_t* f) {
  return glm::cross(p[f[1]] - p[f[0]], p[f[2]] - p[f[0]]);
}

}  // namespace

float shrink_wrap(VoxelSurface& surface, const ClosestPointQuery& original) {
  const std::vector<glm::vec3> start = surface.positions;
  std::vector<glm::vec3> target(start.size());
  for (std::size_t v = 0; v < start.size(); ++v) target[v] = original.closest(start[v]).point;
  std::vector<float> step(start.size(), 1.0f);
  const std::size_t tris = surface.indices.size() / 3;
  std::vector<glm::vec3> before(tris);
  for (std::size_t t = 0; t < tris; ++t) before[t] = face_normal(start, &surface.indices[3 * t]);
  for (int round = 0; round <= kBackOffRounds; ++round) {
    for (std::size_t v = 0; v < start.size(); ++v)
      surface.positions[v] = glm::mix(start[v], target[v], step[v]);
    if (round == kBackOffRounds) break;
    bool flipped = false;
    for (std::size_t t = 0; t < tris; ++t) {
      const std::uint32_t* f = &surface.indices[3 * t];
      if (glm::dot(face_normal(surface.positions, f), before[t]) > 0.0f) continue;
      flipped = true;
      for (int k = 0; k < 3; ++k)
        step[f[k]] = std::min(step[f[k]], 0.5f * std::pow(0.5f, static_cast<float>(round)));
    }
    if (!flipped) break;
  }
  float worst = 0.0f;
  for (std::size_t v = 0; v < start.size(); ++v) {
    worst = std::max(worst, glm::length(surface.positions[v] - target[v]));
  }
  return worst;
}

}  // namespace myriad::crowd
