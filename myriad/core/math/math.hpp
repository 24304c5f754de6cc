// Math types for all of Myriad (glm) and the one axis convention, stated once here:
// right-handed world, +Y up, +X right, cameras look down -Z in view space; depth 0..1 in clip space
// (GLM_FORCE_DEPTH_ZERO_TO_ONE), optionally reversed (near = 1, far = 0).
#pragma once

#ifndef GLM_FORCE_DEPTH_ZERO_TO_ONE
#define GLM_FORCE_DEPTH_ZERO_TO_ONE
#endif
#ifndef GLM_FORCE_RADIANS
#define GLM_FORCE_RADIANS
#endif
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace myriad {

inline constexpr glm::vec3 kWorldUp{0.0f, 1.0f, 0.0f};
inline constexpr glm::vec3 kWorldRight{1.0f, 0.0f, 0.0f};
inline constexpr glm::vec3 kViewForward{0.0f, 0.0f, -1.0f};

// Projection helpers for the conventions above, for Vulkan: clip-space y is flipped so images come
// out upright (+Y up); triangles wound counter-clockwise seen from outside are then front-facing
// with VK_FRONT_FACE_COUNTER_CLOCKWISE. `reverse_z` maps near to depth 1 and far to 0.
glm::mat4 perspective(float fov_y_radians, float aspect, float z_near, float z_far, bool reverse_z = false);
// Infinite far plane; always reverse-Z (near -> 1, infinity -> 0), the precision-friendly choice.
glm::mat4 perspective_infinite_reverse_z(float fov_y_radians, float aspect, float z_near);

// Row-major 3x4 affine matrix (the last row 0 0 0 1 implied): three vec4 rows, 48 bytes, the layout
// of object-to-world transforms and skinning palettes on the GPU, so arrays of them upload as they are.
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

}  // namespace myriad
