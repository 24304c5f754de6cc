// Bounding volumes and planes: trivially copyable value types used by every culling path.
#pragma once

#include "myriad/core/math/math.hpp"

#include <cmath>
#include <limits>

namespace myriad {

struct Aabb {
  glm::vec3 min{std::numeric_limits<float>::max()};
  glm::vec3 max{std::numeric_limits<float>::lowest()};

  static Aabb from_center_extent(glm::vec3 center, glm::vec3 half_extent) {
    return {center - half_extent, center + half_extent};
  }
  bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
  glm::vec3 center() const { return (min + max) * 0.5f; }
  glm::vec3 half_extent() const { return (max - min) * 0.5f; }
  void expand(glm::vec3 p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void expand(const Aabb& o) {
    min = glm::min(min, o.min);
    max = glm::max(max, o.max);
  }
  // The box with every face moved out by `margin`.
  Aabb grown(float margin) const { return {min - glm::vec3(margin), max + glm::vec3(margin)}; }
  // Distance from `p` to the box (0 inside it).
  float distance_to(glm::vec3 p) const {
    const glm::vec3 d = glm::max(glm::max(min - p, p - max), glm::vec3(0.0f));
    return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  }
  bool contains(glm::vec3 p) const {
    return p.x >= min.x && p.y >= min.y && p.z >= min.z && p.x <= max.x && p.y <= max.y && p.z <= max.z;
  }
  bool overlaps(const Aabb& o) const {
    return min.x <= o.max.x && o.min.x <= max.x && min.y <= o.max.y && o.min.y <= max.y && min.z <= o.max.z &&
           o.min.z <= max.z;
  }
};

struct Sphere {
  glm::vec3 center{0.0f};
  float radius = 0.0f;
};

// Plane as (normal, d): points p with dot(normal, p) + d >= 0 are on the inner side.
struct Plane {
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
  float d = 0.0f;

  // Evaluated as n.x*p.x + n.y*p.y + n.z*p.z + d, left to right, the order the shaders use.
  float distance(glm::vec3 p) const { return normal.x * p.x + normal.y * p.y + normal.z * p.z + d; }
  glm::vec4 as_vec4() const { return {normal, d}; }
};

// Transforms an AABB by an affine matrix (the AABB of the transformed box).
Aabb transform(const Aabb& box, const glm::mat4& m);

}  // namespace myriad
