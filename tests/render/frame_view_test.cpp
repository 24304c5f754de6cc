// FrameView: the one view a frame's systems read. Built from a scene camera or an engine's matrices,
// it must carry the same matrices and frustum the camera gives, and a light view must keep the
// camera's eye, LOD reference and slice.
#include <gtest/gtest.h>

#include <cmath>

#include "myriad/core/io/error.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/frame_view.hpp"

namespace myriad::test {
namespace {

void expect_same(const Frustum& a, const Frustum& b) {
  for (std::size_t i = 0; i < a.planes.size(); ++i) {
    EXPECT_EQ(a.planes[i].as_vec4(), b.planes[i].as_vec4()) << "plane " << i;
  }
}

render::SceneCamera test_camera() {
  render::SceneCamera c = render::SceneCamera::look_at({3.0f, 12.0f, -40.0f}, {20.0f, 0.0f, 15.0f}, 1.1f);
  c.near_plane = 0.3f;
  c.slice_height = 17.0f;
  return c;
}

TEST(FrameViewTest, OfCameraCarriesTheCamerasMatricesAndFrustum) {
  const render::SceneCamera camera = test_camera();
  const render::FrameView v = render::FrameView::of_camera(camera, 640, 360, {0.0f, 2.0f, 0.0f}, 4.5f);
  const float aspect = 640.0f / 360.0f;
  EXPECT_EQ(v.view_proj, camera.view_proj(aspect));
  EXPECT_EQ(v.view, camera.view());
  EXPECT_EQ(v.proj * v.view, v.view_proj);
  expect_same(v.frustum, Frustum::from_view_proj(camera.view_proj(aspect), DepthConvention::kReverseZ));
  EXPECT_EQ(v.eye, camera.eye);
  EXPECT_EQ(v.forward, camera.forward);
  EXPECT_FLOAT_EQ(v.aspect, aspect);
  EXPECT_EQ(v.width, 640u);
  EXPECT_EQ(v.height, 360u);
  EXPECT_EQ(v.to_light, glm::vec3(0.0f, 1.0f, 0.0f));  // normalized
  EXPECT_EQ(v.slice_height, 17.0f);
  EXPECT_EQ(v.time, 4.5f);
  EXPECT_FALSE(v.is_shadow);
  // A 1 m object 1 m away covers 1 / (2 tan(fov / 2)) of the image height.
  EXPECT_FLOAT_EQ(v.lod_scale(), 1.0f / (2.0f * std::tan(0.55f)));
  EXPECT_FLOAT_EQ(v.pixels_per_metre_at_unit_distance(), v.lod_scale() * 360.0f);
}

TEST(FrameViewTest, OfMatricesRecoversTheCamera) {
  const render::SceneCamera camera = test_camera();
  const glm::mat4 proj = perspective_infinite_reverse_z(camera.fov_y, 2.0f, camera.near_plane);
  const render::FrameView v =
      render::FrameView::of_matrices(camera.view(), proj, 400, 200, {1.0f, 1.0f, 0.0f});
  EXPECT_NEAR(glm::distance(v.eye, camera.eye), 0.0f, 1e-4f);
  EXPECT_NEAR(glm::distance(v.forward, camera.forward), 0.0f, 1e-5f);
  EXPECT_NEAR(v.fov_y, camera.fov_y, 1e-5f);
  EXPECT_NEAR(v.near_plane, camera.near_plane, 1e-6f);
  EXPECT_EQ(v.view_proj, proj * camera.view());
  expect_same(v.frustum, Frustum::from_view_proj(proj * camera.view(), DepthConvention::kReverseZ));
  EXPECT_NEAR(glm::length(v.to_light), 1.0f, 1e-6f);
}

TEST(FrameViewTest, LightViewKeepsTheCamerasEyeLodAndSlice) {
  const render::FrameView camera =
      render::FrameView::of_camera(test_camera(), 320, 240, {0.3f, 1.0f, 0.2f}, 2.0f);
  glm::mat4 light(1.0f);
  light[0][0] = 0.01f;
  light[1][1] = 0.01f;
  light[2][2] = 0.002f;
  light[3][2] = 0.5f;
  const render::FrameView shadow = camera.light_view(light);
  EXPECT_TRUE(shadow.is_shadow);
  EXPECT_EQ(shadow.view_proj, light);
  expect_same(shadow.frustum, Frustum::from_view_proj(light, DepthConvention::kReverseZ));
  EXPECT_EQ(shadow.eye, camera.eye);
  EXPECT_EQ(shadow.lod_scale(), camera.lod_scale());
  EXPECT_EQ(shadow.height, camera.height);
  EXPECT_EQ(shadow.slice_height, camera.slice_height);
  EXPECT_EQ(shadow.to_light, camera.to_light);
  EXPECT_EQ(shadow.time, camera.time);
}

// A draw distance is a far plane `metres` along the view direction: a box just short of it is kept, one
// just beyond is dropped, beside and behind the camera's axis alike; 0 gives the infinite plane back.
TEST(FrameViewTest, ADrawDistanceIsAFarPlaneAlongTheViewDirection) {
  const render::SceneCamera camera = test_camera();
  render::FrameView v = render::FrameView::of_camera(camera, 640, 360, {0.0f, 1.0f, 0.0f});
  const render::FrameView unlimited = v;
  const glm::vec3 f = glm::normalize(v.forward);
  auto box_at = [&](float along) {
    const glm::vec3 c = v.eye + along * f;
    return Aabb{c - glm::vec3(0.05f), c + glm::vec3(0.05f)};
  };
  EXPECT_TRUE(v.frustum.intersects(box_at(5000.0f)));  // infinite far plane
  v.limit_distance(120.0f);
  EXPECT_EQ(v.draw_distance, 120.0f);
  EXPECT_TRUE(v.frustum.intersects(box_at(100.0f)));
  EXPECT_TRUE(v.frustum.intersects(box_at(119.9f)));
  EXPECT_FALSE(v.frustum.intersects(box_at(120.2f)));
  EXPECT_FALSE(v.frustum.intersects(box_at(5000.0f)));
  // The plane is perpendicular to the view direction: its distance is along it, not from the eye.
  EXPECT_NEAR(v.frustum.planes[kFar].distance(v.eye + 119.0f * f), 1.0f, 1e-3f);
  for (int p = 0; p < kFar; ++p)
    EXPECT_EQ(v.frustum.planes[std::size_t(p)].as_vec4(), unlimited.frustum.planes[std::size_t(p)].as_vec4());
  v.limit_distance(0.0f);
  EXPECT_EQ(v.draw_distance, 0.0f);
  expect_same(v.frustum, unlimited.frustum);
  EXPECT_THROW(v.limit_distance(std::nanf("")), Error);
  EXPECT_THROW(v.light_view(v.view_proj).limit_distance(10.0f), Error);
}

TEST(FrameViewTest, RejectsAnEmptyImageAndNoLight) {
  const render::SceneCamera camera = test_camera();
  EXPECT_THROW((void)render::FrameView::of_camera(camera, 0, 240, {0.0f, 1.0f, 0.0f}), Error);
  EXPECT_THROW((void)render::FrameView::of_camera(camera, 320, 240, glm::vec3(0.0f)), Error);
  EXPECT_THROW(
      (void)render::FrameView::of_matrices(camera.view(), glm::mat4(1.0f), 320, 0, {0.0f, 1.0f, 0.0f}),
      Error);
}

}  // namespace
}  // namespace myriad::test
