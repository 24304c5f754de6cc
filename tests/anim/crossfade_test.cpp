// Per-character speed and cross-fades in the Animator, and blend_poses against hand-computed values:
// a fade starts exactly on the old clip's pose, ends exactly on the new one's, is the nlerp midpoint
// halfway, and runs on speed-scaled time.
#include "myriad/anim/playback/animator.hpp"
#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/pose/blend.hpp"
#include "myriad/core/io/error.hpp"

#include "sampled_pose.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace myriad::anim {
namespace {

using test::sampled;

std::vector<glm::mat4> model_of(const Skeleton& s, const LocalPose& pose) {
  std::vector<glm::mat4> m(s.size());
  local_to_model(s.parents, pose, m);
  return m;
}

void expect_equal(std::span<const glm::mat4> got, const std::vector<glm::mat4>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t j = 0; j < want.size(); ++j) EXPECT_EQ(got[j], want[j]) << "joint " << j;
}

void expect_near(std::span<const glm::mat4> got, const std::vector<glm::mat4>& want, float tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t j = 0; j < want.size(); ++j) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(got[j][c][r], want[j][c][r], tol) << "joint " << j;
    }
  }
}

// The humanoid with two walks of different periods (so their poses differ at any time) and a
// renderer skeleton of every joint with identity inverse binds (palettes are not under test here).
struct Scene {
  Skeleton skeleton = humanoid_skeleton();
  std::vector<Clip> clips = {make_walk_clip(skeleton, 1.0f), make_walk_clip(skeleton, 0.6f)};
  PartSkin renderer;
  Scene() {
    for (std::size_t j = 0; j < skeleton.size(); ++j) {
      renderer.joints.push_back(static_cast<std::uint16_t>(j));
      renderer.inverse_binds.emplace_back(1.0f);
    }
  }
};

TEST(Blend, LerpsVectorsAndNlerpsRotationsOnTheShortArc) {
  LocalPose a, b, out;
  a.resize(1);
  b.resize(1);
  out.resize(1);
  a.translation[0] = {0, 0, 0};
  b.translation[0] = {2, 4, 6};
  a.scale[0] = glm::vec3(1.0f);
  b.scale[0] = glm::vec3(3.0f);
  a.rotation[0] = glm::quat(1, 0, 0, 0);
  const float h = std::sqrt(0.5f);
  b.rotation[0] = glm::quat(-h, 0, -h, 0);  // 90 degrees about +Y, stored in the other hemisphere
  blend_poses(a, b, 0.25f, out);
  EXPECT_FLOAT_EQ(out.translation[0].x, 0.5f);
  EXPECT_FLOAT_EQ(out.translation[0].z, 1.5f);
  EXPECT_FLOAT_EQ(out.scale[0].y, 1.5f);
  blend_poses(a, b, 0.5f, out);
  // Midpoint of 0 and 90 degrees: 45 degrees about +Y (half angle 22.5), positive hemisphere.
  const float half = std::numbers::pi_v<float> / 8.0f;
  EXPECT_NEAR(out.rotation[0].w, std::cos(half), 1e-6f);
  EXPECT_NEAR(out.rotation[0].y, std::sin(half), 1e-6f);
  EXPECT_NEAR(out.rotation[0].x, 0.0f, 1e-7f);
  // The ends copy bit for bit, and out may alias an input.
  blend_poses(a, b, 0.0f, out);
  EXPECT_EQ(out.rotation[0], a.rotation[0]);
  blend_poses(a, b, 1.0f, a);
  EXPECT_EQ(a.rotation[0], b.rotation[0]);
  EXPECT_EQ(a.translation[0], b.translation[0]);
}

TEST(CrossFade, StartsOnTheOldPoseAndEndsOnTheNewOne) {
  const Scene s;
  Animator anim(s.skeleton, s.clips, s.renderer, 1);
  std::vector<Mat3x4> palettes(anim.palette_size());
  anim.set_clip(0, 0, 0.3f);
  anim.cross_fade(0, 1, 0.5f);
  EXPECT_TRUE(anim.fading(0));
  EXPECT_EQ(anim.weight(0), 0.0f);
  EXPECT_EQ(anim.clip(0), 1u);
  anim.update(palettes);
  expect_equal(anim.model(0), model_of(s.skeleton, sampled(s.skeleton, s.clips[0], 0.3f)));

  anim.advance(0, 0.25f);
  EXPECT_EQ(anim.weight(0), 0.5f);
  anim.advance(0, 0.25f);
  EXPECT_FALSE(anim.fading(0));
  EXPECT_EQ(anim.weight(0), 1.0f);
  anim.update(palettes);
  expect_equal(anim.model(0), model_of(s.skeleton, sampled(s.skeleton, s.clips[1], 0.5f)));
}

TEST(CrossFade, HalfwayIsTheNlerpMidpoint) {
  const Scene s;
  Animator anim(s.skeleton, s.clips, s.renderer, 1);
  std::vector<Mat3x4> palettes(anim.palette_size());
  anim.set_clip(0, 0, 0.1f);
  anim.cross_fade(0, 1, 0.4f, 0.05f);
  anim.advance(0, 0.2f);
  ASSERT_TRUE(anim.fading(0));
  EXPECT_FLOAT_EQ(anim.weight(0), 0.5f);
  anim.update(palettes);
  // Built here without blend_poses: halfway, lerp is the mean and nlerp normalises the sum.
  const LocalPose a = sampled(s.skeleton, s.clips[0], 0.3f);
  const LocalPose b = sampled(s.skeleton, s.clips[1], 0.25f);
  LocalPose mid;
  mid.resize(s.skeleton.size());
  for (std::size_t j = 0; j < s.skeleton.size(); ++j) {
    mid.translation[j] = (a.translation[j] + b.translation[j]) * 0.5f;
    mid.scale[j] = (a.scale[j] + b.scale[j]) * 0.5f;
    const glm::quat qb = glm::dot(a.rotation[j], b.rotation[j]) < 0.0f ? -b.rotation[j] : b.rotation[j];
    mid.rotation[j] = glm::normalize(a.rotation[j] + qb);
  }
  expect_near(anim.model(0), model_of(s.skeleton, mid), 1e-5f);
  // And it is neither end.
  const auto from = model_of(s.skeleton, a);
  float diff = 0.0f;
  for (std::size_t j = 0; j < from.size(); ++j)
    diff = std::max(diff, std::abs(anim.model(0)[j][3].z - from[j][3].z));
  EXPECT_GT(diff, 1e-3f);
}

TEST(CrossFade, OldClipKeepsPlayingAndLoops) {
  const Scene s;
  Animator anim(s.skeleton, s.clips, s.renderer, 1);
  anim.set_clip(0, 1, 0.5f);  // clip 1 lasts 0.6 s: its time wraps during the fade
  anim.cross_fade(0, 0, 1.0f);
  anim.advance(0, 0.2f);
  anim.advance(0, 0.2f);
  std::vector<Mat3x4> palettes(anim.palette_size());
  anim.update(palettes);
  LocalPose want = sampled(s.skeleton, s.clips[1], std::fmod(0.5f + 0.2f + 0.2f, 0.6f));
  blend_poses(want, sampled(s.skeleton, s.clips[0], 0.4f), anim.weight(0), want);
  expect_near(anim.model(0), model_of(s.skeleton, want), 1e-5f);
}

TEST(CrossFade, SetClipCancelsAFadeAndZeroLengthSwitchesAtOnce) {
  const Scene s;
  Animator anim(s.skeleton, s.clips, s.renderer, 1);
  anim.cross_fade(0, 1, 0.5f);
  anim.set_clip(0, 0, 0.2f);
  EXPECT_FALSE(anim.fading(0));
  anim.cross_fade(0, 1, 0.0f, 0.1f);
  EXPECT_FALSE(anim.fading(0));
  EXPECT_EQ(anim.clip(0), 1u);
  EXPECT_EQ(anim.time(0), 0.1f);
  EXPECT_THROW(anim.cross_fade(0, 2, 0.5f), Error);
  EXPECT_THROW(anim.set_speed(0, std::nanf("")), Error);
}

TEST(Speed, ScalesClipTimeAndFadeTime) {
  const Scene s;
  Animator anim(s.skeleton, s.clips, s.renderer, 2);
  EXPECT_EQ(anim.speed(0), 1.0f);
  anim.set_speed(0, 2.0f);
  anim.advance(0, 0.125f);
  anim.advance(1, 0.25f);
  EXPECT_EQ(anim.time(0), 0.25f);
  EXPECT_EQ(anim.time(0), anim.time(1));
  std::vector<Mat3x4> palettes(2 * anim.palette_size());
  anim.update(palettes);
  for (std::size_t j = 0; j < s.skeleton.size(); ++j) EXPECT_EQ(anim.model(0)[j], anim.model(1)[j]);

  anim.cross_fade(0, 1, 0.5f);
  anim.advance(0, 0.125f);  // 0.25 s of playback at speed 2
  EXPECT_EQ(anim.weight(0), 0.5f);
  EXPECT_EQ(anim.time(0), 0.25f);

  // Backwards playback wraps from the end.
  anim.set_clip(1, 0, 0.1f);
  anim.set_speed(1, -1.0f);
  anim.advance(1, 0.25f);
  EXPECT_NEAR(anim.time(1), 0.85f, 1e-6f);
}

}  // namespace
}  // namespace myriad::anim
