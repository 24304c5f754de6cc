// Projection matrices for the one convention of math.hpp: right-handed view space looking down -Z,
// clip-space depth 0..1 (optionally reversed), clip-space y flipped for Vulkan. Otherwise the layout of
// glm::perspectiveRH_ZO.
#include "myriad/core/math/math.hpp"

#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad {
namespace {

void check_projection(float fov_y_radians, float aspect, float z_near) {
  if (!(fov_y_radians > 0.0f && fov_y_radians < 3.14159265f))
    throw Error("perspective: vertical field of view must be in (0, pi) radians",
                "fov_y = " + std::to_string(fov_y_radians));
  if (!(aspect > 0.0f) || !std::isfinite(aspect))
    throw Error("perspective: aspect ratio must be positive and finite",
                "aspect = " + std::to_string(aspect));
  if (!(z_near > 0.0f) || !std::isfinite(z_near))
    throw Error("perspective: near distance must be positive and finite",
                "z_near = " + std::to_string(z_near));
}

// The x/y part shared by every variant; column 2 row 3 = -1 puts -z_view into w.
glm::mat4 frustum_xy(float fov_y_radians, float aspect) {
  const float focal = 1.0f / std::tan(fov_y_radians * 0.5f);
  glm::mat4 m(0.0f);
  m[0][0] = focal / aspect;
  // Vulkan's framebuffer y points down: flip so that +Y in view space is up in the image.
  m[1][1] = -focal;
  m[2][3] = -1.0f;
  return m;
}

}  // namespace

glm::mat4 perspective(float fov_y_radians, float aspect, float z_near, float z_far, bool reverse_z) {
  check_projection(fov_y_radians, aspect, z_near);
  if (!(z_far > z_near) || !std::isfinite(z_far))
    throw Error("perspective: far distance must be finite and greater than near",
                "z_near = " + std::to_string(z_near) + ", z_far = " + std::to_string(z_far),
                "use perspective_infinite_reverse_z for an unbounded view distance");
  glm::mat4 m = frustum_xy(fov_y_radians, aspect);
  const float range = z_far - z_near;
  if (reverse_z) {
    // depth = near * (far + z_view) / (-z_view * (far - near)): 1 at near, 0 at far.
    m[2][2] = z_near / range;
    m[3][2] = z_far * z_near / range;
  } else {
    // depth = far * (z_view + near) / (z_view * (far - near)): 0 at near, 1 at far.
    m[2][2] = -z_far / range;
    m[3][2] = -(z_far * z_near) / range;
  }
  return m;
}

glm::mat4 perspective_infinite_reverse_z(float fov_y_radians, float aspect, float z_near) {
  check_projection(fov_y_radians, aspect, z_near);
  glm::mat4 m = frustum_xy(fov_y_radians, aspect);
  // depth = near / -z_view: 1 at near, tends to 0 at infinity.
  m[3][2] = z_near;
  return m;
}

}  // namespace myriad
