// The CPU Hi-Z test (the reference of the culling passes' late phase): boxes behind a nearer depth are
// occluded, boxes in front of it, partly uncovered, off screen or reaching behind the camera are not.
#include <gtest/gtest.h>

#include <vector>

#include "myriad/core/cull/hiz_occlusion.hpp"

namespace myriad {
namespace {

constexpr std::uint32_t kW = 160, kH = 90;

struct Scene {
  glm::mat4 proj = perspective_infinite_reverse_z(glm::radians(60.0f), float(kW) / float(kH), 0.1f);
  glm::mat4 view_proj = proj * glm::lookAt(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -1.0f), kWorldUp);
  std::vector<float> depth = std::vector<float>(std::size_t(kW) * kH, 0.0f);  // far everywhere
  std::vector<MinPyramidLevel> levels;

  // The left half of the image (columns < kW / 2) covered by a wall `distance` metres ahead.
  void wall_left(float distance) {
    const glm::vec4 clip = proj * glm::vec4(0.0f, 0.0f, -distance, 1.0f);
    for (std::uint32_t y = 0; y < kH; ++y)
      for (std::uint32_t x = 0; x < kW / 2; ++x) depth[std::size_t(y) * kW + x] = clip.z / clip.w;
  }
  HizReference reference() {
    levels = build_min_pyramid(depth, kW, kH);
    return {view_proj, levels, kW, kH};
  }
};

TEST(HizOcclusion, BoxBehindTheWallIsOccludedInFrontIsNot) {
  Scene s;
  s.wall_left(20.0f);
  const HizReference hiz = s.reference();
  // Left of centre (x < 0 in view space maps to the left half), behind and in front of the wall.
  EXPECT_TRUE(hiz_sphere_occluded(hiz, {-8.0f, 0.0f, -40.0f, 1.0f}));
  EXPECT_FALSE(hiz_sphere_occluded(hiz, {-3.0f, 0.0f, -10.0f, 1.0f}));
  // Behind the wall's depth but on the uncovered right half.
  EXPECT_FALSE(hiz_sphere_occluded(hiz, {8.0f, 0.0f, -40.0f, 1.0f}));
  // Straddling the wall's edge: part of its rectangle sees the far plane.
  EXPECT_FALSE(hiz_sphere_occluded(hiz, {0.0f, 0.0f, -40.0f, 2.0f}));
}

TEST(HizOcclusion, OffScreenBehindCameraAndEmptyPyramidAreNotOccluded) {
  Scene s;
  for (float& d : s.depth) d = 1.0f;  // the nearest depth everywhere
  const HizReference hiz = s.reference();
  EXPECT_TRUE(hiz_sphere_occluded(hiz, {0.0f, 0.0f, -30.0f, 1.0f}));
  EXPECT_FALSE(hiz_sphere_occluded(hiz, {0.0f, 0.0f, 30.0f, 1.0f}));     // behind the camera
  EXPECT_FALSE(hiz_sphere_occluded(hiz, {0.0f, 0.0f, -0.5f, 1.0f}));     // reaches behind the camera plane
  EXPECT_FALSE(hiz_sphere_occluded(hiz, {500.0f, 0.0f, -30.0f, 1.0f}));  // wholly off screen
  HizReference none = hiz;
  none.levels = {};
  EXPECT_FALSE(hiz_sphere_occluded(none, {0.0f, 0.0f, -30.0f, 1.0f}));
}

}  // namespace
}  // namespace myriad
