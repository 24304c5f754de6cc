#include "myriad/render/frame/frame_scene.hpp"

#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

namespace myriad::render {

SceneCamera SceneCamera::look_at(glm::vec3 eye, glm::vec3 target, float fov_y) {
  SceneCamera c;
  c.eye = eye;
  c.forward = glm::normalize(target - eye);
  c.fov_y = fov_y;
  return c;
}

glm::vec3 SceneCamera::direction(float yaw, float pitch) {
  return {std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch)};
}

glm::mat4 SceneCamera::view() const {
  // Looking straight up or down has no defined "up": pick +Z then.
  const glm::vec3 up = std::abs(forward.y) > 0.999f ? glm::vec3(0.0f, 0.0f, 1.0f) : kWorldUp;
  return glm::lookAt(eye, eye + forward, up);
}

const FrameView& checked_view(const FrameView* view, const OffscreenTarget& target, const char* where) {
  if (!view) throw Error("record() before update(): no frame view", where, "call update() first");
  if (view->width != target.width() || view->height != target.height())
    throw Error("the target is " + std::to_string(target.width()) + " x " + std::to_string(target.height()) +
                    ", update() prepared " + std::to_string(view->width) + " x " +
                    std::to_string(view->height),
                where, "call update() with the target's size");
  return *view;
}

glm::mat4 SceneCamera::view_proj(float aspect) const {
  return perspective_infinite_reverse_z(fov_y, aspect, near_plane) * view();
}

}  // namespace myriad::render
