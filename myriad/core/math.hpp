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

}  // namespace myriad
