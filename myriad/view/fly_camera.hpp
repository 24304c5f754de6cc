// A fly camera for the viewer: moves along where it looks (WASD), straight up and down (E/Q), turns
// with mouse drag, and goes faster with a modifier or the wheel. Pure CPU: input arrives as numbers.
#pragma once

#include "myriad/core/math/math.hpp"
#include "myriad/render/frame/frame_scene.hpp"

namespace myriad::view {

struct FlyInput {
  // Movement wish in camera terms, each in [-1, 1]: x = right, y = world up, z = forward.
  glm::vec3 move{0.0f};
  // Mouse drag in pixels (x right, y down): dragging right turns right, dragging down looks down.
  glm::vec2 look{0.0f};
  float wheel = 0.0f;  // notches; each multiplies the base speed by kWheelStep (negative divides)
  bool fast = false;   // held modifier: kFastFactor times the speed
};

class FlyCamera {
 public:
  static constexpr float kRadiansPerPixel = 0.004f;
  static constexpr float kMaxPitch = 1.55f;  // just short of straight up/down, where yaw is undefined
  static constexpr float kFastFactor = 5.0f;
  static constexpr float kWheelStep = 1.25f;
  static constexpr float kMinSpeed = 0.5f;  // metres per second
  static constexpr float kMaxSpeed = 2000.0f;

  explicit FlyCamera(const render::SceneCamera& start, float speed = 20.0f);

  // Advances by `dt` seconds of held input; turning does not depend on dt (it follows the mouse).
  void update(const FlyInput& input, float dt);

  glm::vec3 eye() const { return eye_; }
  glm::vec3 forward() const { return render::SceneCamera::direction(yaw_, pitch_); }
  // Unit vector to the right of the view, level with the ground.
  glm::vec3 right() const;
  float yaw() const { return yaw_; }
  float pitch() const { return pitch_; }
  float speed() const { return speed_; }

  // `base` (field of view, near plane, slice height) seen from this camera.
  render::SceneCamera scene_camera(render::SceneCamera base) const;

 private:
  glm::vec3 eye_;
  float yaw_ = 0.0f;    // radians about +Y, 0 = looking along +Z
  float pitch_ = 0.0f;  // radians, positive = up
  float speed_;
};

}  // namespace myriad::view
