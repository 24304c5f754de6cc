// Closest points on a triangle mesh (Embree 3 point queries), for LOD2's shrink-wrap, attachment and
// texture bake. Embree stays inside this one .cpp.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace myriad::crowd {

struct ClosestHit {
  glm::vec3 point{0.0f};
  std::uint32_t triangle = 0;
  glm::vec3 bary{1.0f, 0.0f, 0.0f};  // weights of the triangle's corners 0, 1, 2 (sum 1, all ≥ 0)
  float distance = 0.0f;
};

// The closest point on triangle (a, b, c) to p, with its barycentric weights.
ClosestHit closest_on_triangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c);

class ClosestPointQuery {
 public:
  // Copies the mesh; `indices` holds 3 per triangle.
  ClosestPointQuery(const std::vector<glm::vec3>& positions, const std::vector<std::uint32_t>& indices);
  ~ClosestPointQuery();
  ClosestPointQuery(const ClosestPointQuery&) = delete;
  ClosestPointQuery& operator=(const ClosestPointQuery&) = delete;

  // Thread-safe: queries do not modify the structure.
  ClosestHit closest(glm::vec3 p) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace myriad::crowd
