// Clip sampling against hand-computed values for STEP, LINEAR (vectors and quaternions) and
// CUBICSPLINE, plus the cursor cache giving the same result as a fresh search in any time order.
#include "myriad/anim/clip/clip.hpp"
#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace myriad::anim {
namespace {

Clip one_channel(Interpolation interp, ChannelPath path, std::vector<float> times,
                 std::vector<glm::vec4> values) {
  Clip c;
  c.name = "test";
  Channel ch;
  ch.joint = 0;
  ch.path = path;
  ch.interpolation = interp;
  ch.key_count = static_cast<std::uint32_t>(times.size());
  c.duration = times.back();
  c.times = std::move(times);
  c.values = std::move(values);
  c.channels.push_back(ch);
  c.validate(1);
  return c;
}

glm::vec4 at(const Clip& c, float t) {
  std::uint32_t cursor = 0;
  return sample_channel(c, c.channels[0], t, cursor);
}

TEST(Clip, StepHoldsTheKeyValue) {
  const Clip c = one_channel(Interpolation::kStep, ChannelPath::kTranslation, {0.0f, 1.0f, 2.0f},
                             {{0, 0, 0, 0}, {10, 0, 0, 0}, {20, 0, 0, 0}});
  EXPECT_EQ(at(c, -1.0f).x, 0.0f);
  EXPECT_EQ(at(c, 0.5f).x, 0.0f);
  EXPECT_EQ(at(c, 0.999f).x, 0.0f);
  EXPECT_EQ(at(c, 1.0f).x, 10.0f);
  EXPECT_EQ(at(c, 1.5f).x, 10.0f);
  EXPECT_EQ(at(c, 2.5f).x, 20.0f);
}

TEST(Clip, LinearInterpolatesVectors) {
  const Clip c = one_channel(Interpolation::kLinear, ChannelPath::kScale, {0.0f, 2.0f, 4.0f},
                             {{1, 2, 3, 0}, {3, 2, 1, 0}, {3, 6, 1, 0}});
  EXPECT_FLOAT_EQ(at(c, 0.5f).x, 1.5f);  // 1 + (3-1) * 0.25
  EXPECT_FLOAT_EQ(at(c, 0.5f).z, 2.5f);
  EXPECT_FLOAT_EQ(at(c, 3.0f).y, 4.0f);  // 2 + (6-2) * 0.5
  EXPECT_FLOAT_EQ(at(c, 9.0f).y, 6.0f);  // clamped after the last key
}

TEST(Clip, LinearRotationIsSlerpOnTheShortArc) {
  const float h = std::sqrt(0.5f);
  // 0 and 90 degrees about +Y; the second key is stored negated (same rotation, other hemisphere).
  const Clip c = one_channel(Interpolation::kLinear, ChannelPath::kRotation, {0.0f, 1.0f},
                             {{0, 0, 0, 1}, {0, -h, 0, -h}});
  const glm::vec4 q = at(c, 0.5f);
  const float half = std::numbers::pi_v<float> / 8.0f;  // 45 degrees -> half angle 22.5
  EXPECT_NEAR(q.y, std::sin(half), 1e-6f);
  EXPECT_NEAR(q.w, std::cos(half), 1e-6f);
  EXPECT_NEAR(q.x, 0.0f, 1e-7f);
  const glm::vec4 q2 = at(c, 0.25f);  // 22.5 degrees
  EXPECT_NEAR(q2.y, std::sin(half / 2.0f), 1e-6f);
}

TEST(Clip, CubicSplineFollowsTheGltfHermiteFormula) {
  // Keys at t = 0 and 2: (in, value, out) = (0, 0, 1) and (0.5, 1, 0).
  // At t = 1: u = 0.5, dt = 2: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125
  // -> 0.5*0 + 0.125*(2*1) + 0.5*1 + (-0.125)*(2*0.5) = 0.625.
  const Clip c =
      one_channel(Interpolation::kCubicSpline, ChannelPath::kTranslation, {0.0f, 2.0f},
                  {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}});
  EXPECT_FLOAT_EQ(at(c, 1.0f).x, 0.625f);
  // u = 0.25: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875
  // -> 0.28125 + 0.15625 - 0.046875 = 0.390625
  EXPECT_FLOAT_EQ(at(c, 0.5f).x, 0.390625f);
  EXPECT_EQ(at(c, 2.0f).x, 1.0f);  // the value, not a tangent, at the last key
}

TEST(Clip, CubicSplineRotationsAreNormalised) {
  const Clip c =
      one_channel(Interpolation::kCubicSpline, ChannelPath::kRotation, {0.0f, 1.0f},
                  {{0, 0, 0, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}});
  const glm::vec4 q = at(c, 0.5f);
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-6f);
}

TEST(Clip, CursorCacheMatchesFreshSearchInAnyOrder) {
  std::vector<float> times;
  std::vector<glm::vec4> values;
  for (int i = 0; i < 50; ++i) {
    times.push_back(0.1f * static_cast<float>(i));
    values.emplace_back(static_cast<float>(i * i), 0, 0, 0);
  }
  const Clip c = one_channel(Interpolation::kLinear, ChannelPath::kTranslation, times, values);
  std::uint32_t cursor = 0;
  const float probes[] = {0.05f, 0.33f, 0.34f, 2.5f, 4.9f, 0.01f, 3.3f, 3.31f, 5.0f, 0.0f, 1.0f};
  for (float t : probes) {
    const glm::vec4 cached = sample_channel(c, c.channels[0], t, cursor);
    EXPECT_EQ(cached.x, at(c, t).x) << "t=" << t;
  }
}

// Morph weights (glTF "weights" channels): two targets per key, clamped outside the keys.
Clip morph_clip(Interpolation interp, std::vector<float> values) {
  Clip c;
  c.name = "morph";
  c.times = {1.0f, 3.0f};
  c.duration = 3.0f;
  c.morph_values = std::move(values);
  MorphChannel ch;
  ch.node = 4;
  ch.interpolation = interp;
  ch.key_count = 2;
  ch.targets = 2;
  c.morph_channels.push_back(ch);
  c.validate(0);
  return c;
}

std::vector<float> weights_at(const Clip& c, float t) {
  std::vector<float> w(3, -7.0f);  // one more than the channel's targets: left as it is
  sample_morph_weights(c, c.morph_channels[0], t, w);
  return w;
}

TEST(Clip, MorphWeightsInterpolateEveryTargetAsGltfSays) {
  const Clip linear = morph_clip(Interpolation::kLinear, {0.0f, 1.0f, 1.0f, 0.0f});
  EXPECT_EQ(weights_at(linear, 0.0f), (std::vector<float>{0.0f, 1.0f, -7.0f}));
  EXPECT_EQ(weights_at(linear, 1.5f), (std::vector<float>{0.25f, 0.75f, -7.0f}));
  EXPECT_EQ(weights_at(linear, 2.0f), (std::vector<float>{0.5f, 0.5f, -7.0f}));
  EXPECT_EQ(weights_at(linear, 9.0f), (std::vector<float>{1.0f, 0.0f, -7.0f}));
  const Clip step = morph_clip(Interpolation::kStep, {0.0f, 1.0f, 1.0f, 0.0f});
  EXPECT_EQ(weights_at(step, 2.9f), (std::vector<float>{0.0f, 1.0f, -7.0f}));
  EXPECT_EQ(weights_at(step, 3.0f), (std::vector<float>{1.0f, 0.0f, -7.0f}));
  // Cubic: per key in-tangents (2), weights (2), out-tangents (2). Target 0 runs 0 -> 1 with out-tangent
  // 0.5 and in-tangent 0.25 (per second); target 1 stays at 2 with zero tangents.
  const Clip cubic = morph_clip(Interpolation::kCubicSpline,
                                {9.0f, 9.0f, 0.0f, 2.0f, 0.5f, 0.0f, 0.25f, 0.0f, 1.0f, 2.0f, 9.0f, 9.0f});
  const float u = 0.5f, dt = 2.0f;
  const float want = (2 * u * u * u - 3 * u * u + 1) * 0.0f + (u * u * u - 2 * u * u + u) * 0.5f * dt +
                     (-2 * u * u * u + 3 * u * u) * 1.0f + (u * u * u - u * u) * 0.25f * dt;
  const std::vector<float> w = weights_at(cubic, 2.0f);
  EXPECT_NEAR(w[0], want, 1e-6f);
  EXPECT_NEAR(w[1], 2.0f, 1e-6f);
  EXPECT_EQ(weights_at(cubic, 3.0f)[0], 1.0f);
  // Keys past the arrays are refused.
  Clip bad = linear;
  bad.morph_values.pop_back();
  EXPECT_THROW(bad.validate(0), Error);
}

TEST(Clip, ValidateRejectsBadChannels) {
  Clip c = one_channel(Interpolation::kLinear, ChannelPath::kTranslation, {0.0f, 1.0f},
                       {{0, 0, 0, 0}, {1, 0, 0, 0}});
  EXPECT_THROW(c.validate(0), Error);  // joint 0 outside an empty skeleton
  c.times[1] = -1.0f;
  EXPECT_THROW(c.validate(1), Error);
  c.times[1] = 1.0f;
  c.channels[0].key_count = 3;
  EXPECT_THROW(c.validate(1), Error);
}

TEST(Clip, SampleWritesRestPoseWhereNoChannel) {
  Skeleton s;
  s.names = {"a", "b"};
  s.parents = {kNoParent, 0};
  s.rest.resize(2);
  s.rest.translation = {{1, 2, 3}, {4, 5, 6}};
  s.rest.rotation = {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)};
  s.rest.scale = {glm::vec3(1), glm::vec3(2)};
  const Clip c = one_channel(Interpolation::kLinear, ChannelPath::kTranslation, {0.0f, 1.0f},
                             {{0, 0, 0, 0}, {2, 0, 0, 0}});
  SamplingCache cache;
  cache.reset(c);
  LocalPose pose;
  pose.resize(2);
  sample(s, c, 0.5f, cache, pose);
  EXPECT_EQ(pose.translation[0], glm::vec3(1, 0, 0));
  EXPECT_EQ(pose.translation[1], glm::vec3(4, 5, 6));
  EXPECT_EQ(pose.scale[1], glm::vec3(2));
}

}  // namespace
}  // namespace myriad::anim
