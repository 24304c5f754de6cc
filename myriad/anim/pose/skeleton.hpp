// Skeletons and poses in structure-of-arrays form. Joints are stored in depth-first order (every
// parent before its children), so one forward loop turns local transforms into model transforms with
// no recursion and no per-joint branches beyond the root check.
#pragma once

#include "myriad/core/math/math.hpp"

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

// Skinning palettes are core's row-major 3x4 matrices (the GPU layout); named here too, as anim::Mat3x4.
using myriad::Mat3x4;
using myriad::to_mat3x4;
using myriad::to_mat4;

}  // namespace myriad::anim
