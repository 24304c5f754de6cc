// Skeletons and poses in structure-of-arrays form. Joints are stored in depth-first order (every
// parent before its children), so one forward loop turns local transforms into model transforms with
// no recursion and no per-joint branches beyond the root check.
#pragma once

#include "myriad/core/math.hpp"

#include <glm/gtc/quaternion.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace myriad::anim {

inline constexpr std::int16_t kNoParent = -1;

// Local transforms of every joint, one array per component (SoA): what sampling writes and
// local-to-model reads. Sized once per character and reused every frame.
struct LocalPose {
  std::vector<glm::vec3> translation;
  std::vector<glm::quat> rotation;
  std::vector<glm::vec3> scale;

  // Out of line: GCC 12's -Wnull-dereference misfires on inlined vector<glm::quat>::resize.
  void resize(std::size_t joints);
  std::size_t size() const { return translation.size(); }
};

struct Skeleton {
  std::vector<std::string> names;
  std::vector<std::int16_t> parents;  // kNoParent for roots; parents[i] < i otherwise
  LocalPose rest;                     // the bind-time local transforms (used where a clip has no channel)

  std::size_t size() const { return parents.size(); }
  // Throws myriad::Error when arrays disagree in size or a parent does not precede its child.
  void validate() const;
};

// A stable depth-first order of a forest given by parent indices (any order, -1 = root): returns
// order[new_index] = old_index. Children keep their relative order. Throws on cycles.
std::vector<int> depth_first_order(std::span<const int> parents);

// Row-major 3x4 affine matrix (the last row 0 0 0 1 implied): the layout of skinning palettes on the
// GPU (three vec4 rows, 48 bytes), so a palette is uploaded as it is.
struct Mat3x4 {
  glm::vec4 rows[3];
};
static_assert(sizeof(Mat3x4) == 48);

inline Mat3x4 to_mat3x4(const glm::mat4& m) {
  return {{glm::vec4(m[0][0], m[1][0], m[2][0], m[3][0]), glm::vec4(m[0][1], m[1][1], m[2][1], m[3][1]),
           glm::vec4(m[0][2], m[1][2], m[2][2], m[3][2])}};
}
inline glm::mat4 to_mat4(const Mat3x4& m) {
  return glm::transpose(glm::mat4(m.rows[0], m.rows[1], m.rows[2], glm::vec4(0.0f, 0.0f, 0.0f, 1.0f)));
}

}  // namespace myriad::anim
