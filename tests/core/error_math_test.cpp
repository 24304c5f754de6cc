// myriad::Error messages, the projection helpers and AABB transforms.
#include <gtest/gtest.h>

#include <random>

#include "myriad/core/cull/bounds.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/math/math.hpp"

namespace myriad {
namespace {

TEST(Error, JoinsProblemWhereAndHint) {
  const Error e("bad magic", "world.myv @ offset 0", "re-bake the file");
  EXPECT_EQ(e.problem(), "bad magic");
  EXPECT_EQ(e.where(), "world.myv @ offset 0");
  EXPECT_EQ(e.hint(), "re-bake the file");
  EXPECT_STREQ(e.what(), "bad magic [world.myv @ offset 0] \xE2\x80\x94 re-bake the file");
  EXPECT_STREQ(Error("only what").what(), "only what");
  EXPECT_STREQ(Error("what", "", "hint").what(), "what \xE2\x80\x94 hint");
  EXPECT_STREQ(Error("what", "where").what(), "what [where]");
}

glm::vec3 project(const glm::mat4& m, glm::vec3 p) {
  const glm::vec4 c = m * glm::vec4(p, 1.0f);
  return glm::vec3(c) / c.w;
}

TEST(Math, PerspectiveIsGlmZeroToOneWithVulkanYFlip) {
  const glm::mat4 ours = perspective(1.1f, 1.5f, 0.25f, 300.0f);
  glm::mat4 ref = glm::perspectiveRH_ZO(1.1f, 1.5f, 0.25f, 300.0f);
  ref[1][1] = -ref[1][1];
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(ours[c][r], ref[c][r], 1e-6f * (1.0f + std::abs(ref[c][r])));
  EXPECT_NEAR(project(ours, {0.0f, 0.0f, -0.25f}).z, 0.0f, 1e-6f);
  EXPECT_NEAR(project(ours, {0.0f, 0.0f, -300.0f}).z, 1.0f, 1e-6f);
  // +X is right on screen; +Y is up, i.e. towards row 0 of a Vulkan framebuffer (negative y_ndc).
  EXPECT_GT(project(ours, {1.0f, 0.0f, -10.0f}).x, 0.0f);
  EXPECT_LT(project(ours, {0.0f, 1.0f, -10.0f}).y, 0.0f);
}

TEST(Math, PerspectiveReverseZ) {
  const glm::mat4 m = perspective(1.0f, 1.0f, 0.5f, 200.0f, true);
  EXPECT_NEAR(project(m, {0.0f, 0.0f, -0.5f}).z, 1.0f, 1e-6f);
  EXPECT_NEAR(project(m, {0.0f, 0.0f, -200.0f}).z, 0.0f, 1e-6f);
  EXPECT_GT(project(m, {0.0f, 0.0f, -10.0f}).z, project(m, {0.0f, 0.0f, -20.0f}).z);
  // x and y are those of the forward projection.
  const glm::mat4 f = perspective(1.0f, 1.0f, 0.5f, 200.0f, false);
  EXPECT_EQ(m[0][0], f[0][0]);
  EXPECT_EQ(m[1][1], f[1][1]);
}

TEST(Math, PerspectiveInfiniteReverseZ) {
  const glm::mat4 m = perspective_infinite_reverse_z(1.0f, 2.0f, 0.1f);
  EXPECT_NEAR(project(m, {0.0f, 0.0f, -0.1f}).z, 1.0f, 1e-6f);
  const float far_depth = project(m, {0.0f, 0.0f, -1e7f}).z;
  EXPECT_GT(far_depth, 0.0f);
  EXPECT_LT(far_depth, 1e-7f);
  EXPECT_NEAR(project(m, {0.0f, 0.0f, -1.0f}).z, 0.1f, 1e-7f);
}

TEST(Math, PerspectiveRejectsBadParameters) {
  EXPECT_THROW(perspective(0.0f, 1.0f, 0.1f, 10.0f), Error);
  EXPECT_THROW(perspective(1.0f, -1.0f, 0.1f, 10.0f), Error);
  EXPECT_THROW(perspective(1.0f, 1.0f, 0.0f, 10.0f), Error);
  EXPECT_THROW(perspective(1.0f, 1.0f, 1.0f, 1.0f), Error);
  EXPECT_THROW(perspective_infinite_reverse_z(1.0f, 1.0f, -1.0f), Error);
}

TEST(Bounds, TransformMatchesTransformedCorners) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (int iter = 0; iter < 1000; ++iter) {
    glm::mat4 m = glm::translate(glm::mat4(1.0f), {u(rng), u(rng), u(rng)});
    m = glm::rotate(m, u(rng), glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + 0.01f));
    m = glm::scale(m, {u(rng), u(rng), u(rng)});
    const Aabb box =
        Aabb::from_center_extent({u(rng), u(rng), u(rng)}, glm::abs(glm::vec3(u(rng), u(rng), u(rng))));
    Aabb ref;
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 corner(c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y,
                             c & 4 ? box.max.z : box.min.z);
      ref.expand(glm::vec3(m * glm::vec4(corner, 1.0f)));
    }
    const Aabb got = transform(box, m);
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(got.min[a], ref.min[a], 1e-4f);
      EXPECT_NEAR(got.max[a], ref.max[a], 1e-4f);
    }
  }
  const Aabb empty;
  EXPECT_FALSE(transform(empty, glm::mat4(2.0f)).valid());
}

}  // namespace
}  // namespace myriad
