#include "myriad/view/fly_camera.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace myriad::view {
namespace {

constexpr float kEps = 1e-4f;

void expect_near(glm::vec3 a, glm::vec3 b, float eps = kEps) {
  EXPECT_NEAR(a.x, b.x, eps);
  EXPECT_NEAR(a.y, b.y, eps);
  EXPECT_NEAR(a.z, b.z, eps);
}

// Where a world point lands in the camera's view space (x right, y up, -z forward).
glm::vec3 in_view(const FlyCamera& camera, glm::vec3 point) {
  return glm::vec3(camera.scene_camera({}).view() * glm::vec4(point, 1.0f));
}

render::SceneCamera start_camera() {
  return render::SceneCamera::look_at({10.0f, 20.0f, 30.0f}, {40.0f, 5.0f, -10.0f});
}

TEST(FlyCamera, KeepsTheStartingView) {
  const render::SceneCamera start = start_camera();
  const FlyCamera camera(start);
  expect_near(camera.eye(), start.eye);
  expect_near(camera.forward(), start.forward);
}

TEST(FlyCamera, ForwardMovesAlongTheViewBySpeedTimesTime) {
  FlyCamera camera(start_camera(), 10.0f);
  const glm::vec3 before = camera.eye();
  camera.update({.move = {0.0f, 0.0f, 1.0f}}, 0.5f);
  expect_near(camera.eye(), before + camera.forward() * 5.0f);
  camera.update({.move = {0.0f, 0.0f, -1.0f}}, 0.5f);
  expect_near(camera.eye(), before);
}

TEST(FlyCamera, RightIsOnTheRightOfTheScreenAndLevel) {
  FlyCamera camera(start_camera(), 4.0f);
  EXPECT_NEAR(camera.right().y, 0.0f, kEps);
  EXPECT_NEAR(glm::dot(camera.right(), camera.forward()), 0.0f, kEps);
  const glm::vec3 before = camera.eye();
  camera.update({.move = {1.0f, 0.0f, 0.0f}}, 1.0f);
  EXPECT_NEAR(glm::length(camera.eye() - before), 4.0f, kEps);
  // The old position seen from the new one lies to the left (negative view-space x).
  const glm::vec3 p = in_view(camera, before);
  EXPECT_LT(p.x, -3.9f);
  EXPECT_NEAR(p.y, 0.0f, kEps);
}

TEST(FlyCamera, UpAndDownFollowTheWorldNotThePitch) {
  FlyCamera camera(start_camera(), 2.0f);
  const glm::vec3 before = camera.eye();
  camera.update({.move = {0.0f, 1.0f, 0.0f}}, 1.5f);
  expect_near(camera.eye(), before + glm::vec3(0.0f, 3.0f, 0.0f));
}

TEST(FlyCamera, DraggingRightTurnsRightAndDraggingDownLooksDown) {
  FlyCamera camera(render::SceneCamera::look_at({0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}));
  const FlyCamera before = camera;
  camera.update({.look = {50.0f, 0.0f}}, 0.0f);
  EXPECT_GT(in_view(before, camera.forward()).x, 0.1f);
  EXPECT_NEAR(camera.forward().y, 0.0f, kEps);
  camera.update({.look = {0.0f, 50.0f}}, 0.0f);
  EXPECT_LT(camera.forward().y, -0.1f);
  EXPECT_NEAR(camera.pitch(), -50.0f * FlyCamera::kRadiansPerPixel, kEps);
}

TEST(FlyCamera, PitchStopsShortOfStraightUpAndDown) {
  FlyCamera camera(start_camera());
  camera.update({.look = {0.0f, -1e6f}}, 0.0f);
  EXPECT_FLOAT_EQ(camera.pitch(), FlyCamera::kMaxPitch);
  camera.update({.look = {0.0f, 1e6f}}, 0.0f);
  EXPECT_FLOAT_EQ(camera.pitch(), -FlyCamera::kMaxPitch);
  const glm::mat4 view = camera.scene_camera({}).view();
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) EXPECT_TRUE(std::isfinite(view[c][r]));
  }
}

TEST(FlyCamera, DiagonalsAreNoFasterAndTheModifierIsFaster) {
  FlyCamera camera(start_camera(), 3.0f);
  glm::vec3 before = camera.eye();
  camera.update({.move = {1.0f, 1.0f, 1.0f}}, 1.0f);
  EXPECT_NEAR(glm::length(camera.eye() - before), 3.0f, kEps);
  before = camera.eye();
  camera.update({.move = {0.0f, 0.0f, 1.0f}, .fast = true}, 1.0f);
  EXPECT_NEAR(glm::length(camera.eye() - before), 3.0f * FlyCamera::kFastFactor, 1e-3f);
}

TEST(FlyCamera, WheelScalesTheSpeedWithinLimits) {
  FlyCamera camera(start_camera(), 16.0f);
  camera.update({.wheel = 2.0f}, 0.0f);
  EXPECT_NEAR(camera.speed(), 16.0f * FlyCamera::kWheelStep * FlyCamera::kWheelStep, 1e-3f);
  camera.update({.wheel = -2.0f}, 0.0f);
  EXPECT_NEAR(camera.speed(), 16.0f, 1e-3f);
  camera.update({.wheel = 1000.0f}, 0.0f);
  EXPECT_FLOAT_EQ(camera.speed(), FlyCamera::kMaxSpeed);
  camera.update({.wheel = -1000.0f}, 0.0f);
  EXPECT_FLOAT_EQ(camera.speed(), FlyCamera::kMinSpeed);
}

TEST(FlyCamera, NoInputNoChange) {
  FlyCamera camera(start_camera());
  const glm::vec3 eye = camera.eye(), forward = camera.forward();
  camera.update({}, 0.25f);
  expect_near(camera.eye(), eye, 0.0f);
  expect_near(camera.forward(), forward, 1e-6f);
}

TEST(FlyCamera, SceneCameraKeepsLensAndSlice) {
  render::SceneCamera base;
  base.fov_y = 0.5f;
  base.near_plane = 0.7f;
  base.slice_height = 33.0f;
  const render::SceneCamera out = FlyCamera(start_camera()).scene_camera(base);
  EXPECT_EQ(out.fov_y, 0.5f);
  EXPECT_EQ(out.near_plane, 0.7f);
  EXPECT_EQ(out.slice_height, 33.0f);
  expect_near(out.eye, start_camera().eye);
}

}  // namespace
}  // namespace myriad::view
