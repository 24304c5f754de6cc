#include "myriad/view/fly_camera.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace myriad::view {

FlyCamera::FlyCamera(const render::SceneCamera& start, float speed)
    : eye_(start.eye), speed_(std::clamp(speed, kMinSpeed, kMaxSpeed)) {
  const glm::vec3 f = glm::normalize(start.forward);
  yaw_ = std::atan2(f.x, f.z);
  pitch_ = std::clamp(std::asin(std::clamp(f.y, -1.0f, 1.0f)), -kMaxPitch, kMaxPitch);
}

glm::vec3 FlyCamera::right() const {
  // direction(yaw, 0) x up: with +Y up and a right-handed frame, looking along +Z puts -X on the right.
  return {-std::cos(yaw_), 0.0f, std::sin(yaw_)};
}

void FlyCamera::update(const FlyInput& input, float dt) {
  yaw_ = std::remainder(yaw_ - input.look.x * kRadiansPerPixel, 2.0f * std::numbers::pi_v<float>);
  pitch_ = std::clamp(pitch_ - input.look.y * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
  if (input.wheel != 0.0f)
    speed_ = std::clamp(speed_ * std::pow(kWheelStep, input.wheel), kMinSpeed, kMaxSpeed);

  const glm::vec3 move = glm::clamp(input.move, glm::vec3(-1.0f), glm::vec3(1.0f));
  glm::vec3 velocity = right() * move.x + kWorldUp * move.y + forward() * move.z;
  // Diagonal movement is no faster than straight movement.
  const float length = glm::length(velocity);
  if (length > 1.0f) velocity /= length;
  eye_ += velocity * (speed_ * (input.fast ? kFastFactor : 1.0f) * std::max(dt, 0.0f));
}

render::SceneCamera FlyCamera::scene_camera(render::SceneCamera base) const {
  base.eye = eye_;
  base.forward = forward();
  return base;
}

}  // namespace myriad::view
