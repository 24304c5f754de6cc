// Clip retargeting by joint name: exact on the same skeleton, rest-rotation deltas and root-motion
// scaling against hand-computed numbers, name normalisation (mixamorig:), the lists of joints left
// out, and the error when nothing matches.
#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/clip/retarget.hpp"
#include "myriad/core/io/error.hpp"

#include "sampled_pose.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace myriad::anim {
namespace {

const float kH = std::sqrt(0.5f);  // cos 45 = sin 45: half-angle terms of a 90 degree rotation

glm::quat rot_x90() { return {kH, kH, 0.0f, 0.0f}; }
glm::quat rot_z90() { return {kH, 0.0f, 0.0f, kH}; }

// A chain skeleton: joint i has parent i - 1.
Skeleton chain(std::vector<std::string> names, std::vector<glm::vec3> offsets) {
  Skeleton s;
  s.names = std::move(names);
  s.rest.resize(s.names.size());
  for (std::size_t i = 0; i < s.names.size(); ++i) {
    s.parents.push_back(static_cast<std::int16_t>(static_cast<int>(i) - 1));
    s.rest.translation[i] = offsets[i];
    s.rest.rotation[i] = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    s.rest.scale[i] = glm::vec3(1.0f);
  }
  s.validate();
  return s;
}

void add_channel(Clip& c, std::uint16_t joint, ChannelPath path, Interpolation interp,
                 std::vector<float> times, std::vector<glm::vec4> values) {
  Channel ch;
  ch.joint = joint;
  ch.path = path;
  ch.interpolation = interp;
  ch.first_key = static_cast<std::uint32_t>(c.times.size());
  ch.key_count = static_cast<std::uint32_t>(times.size());
  ch.first_value = static_cast<std::uint32_t>(c.values.size());
  c.times.insert(c.times.end(), times.begin(), times.end());
  c.values.insert(c.values.end(), values.begin(), values.end());
  c.channels.push_back(ch);
  c.duration = std::max(c.duration, times.back());
}

using test::sampled;

glm::vec4 key(const RetargetResult& r, std::size_t channel, std::size_t value) {
  return r.clip.values[r.clip.channels[channel].first_value + value];
}

void expect_vec4_near(glm::vec4 a, glm::vec4 b) {
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(a[i], b[i], 1e-6f) << "component " << i;
}

TEST(Retarget, SameSkeletonReproducesTheClipExactly) {
  const Skeleton h = humanoid_skeleton();
  Clip walk = make_walk_clip(h);
  // Root motion too, as a cubic spline, so every transform path meets its "unchanged" case.
  add_channel(walk, 0, ChannelPath::kTranslation, Interpolation::kCubicSpline, {0.0f, 1.0f},
              {{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0.5f, 1.05f, 0, 0}, {0, 0, 0, 0}});
  const RetargetResult r = retarget_clip(walk, h, h);
  EXPECT_TRUE(r.unmatched.empty());
  EXPECT_TRUE(r.scale_dropped.empty());
  EXPECT_EQ(describe_partial(r), "");
  EXPECT_EQ(r.clip.name, "walk");
  EXPECT_EQ(r.clip.duration, walk.duration);
  ASSERT_EQ(r.clip.channels.size(), walk.channels.size());
  for (float t : {0.0f, 0.13f, 0.5f, 0.77f, 1.0f}) {
    const LocalPose a = sampled(h, walk, t);
    const LocalPose b = sampled(h, r.clip, t);
    for (std::size_t j = 0; j < h.size(); ++j) {
      EXPECT_EQ(a.translation[j], b.translation[j]) << "t " << t << " joint " << j;
      EXPECT_EQ(a.rotation[j], b.rotation[j]) << "t " << t << " joint " << j;
      EXPECT_EQ(a.scale[j], b.scale[j]) << "t " << t << " joint " << j;
    }
  }
  // Target joints at rest: those no channel of the clip drives.
  std::vector<bool> driven(h.size(), false);
  for (const Channel& ch : walk.channels) driven[ch.joint] = true;
  std::vector<std::string> at_rest;
  for (std::size_t j = 0; j < h.size(); ++j)
    if (!driven[j]) at_rest.push_back(h.names[j]);
  EXPECT_EQ(r.unanimated, at_rest);
}

TEST(Retarget, RotationsCarryTheDeltaFromTheSourceRest) {
  Skeleton source = chain({"root", "arm"}, {{0, 0, 0}, {1, 0, 0}});
  Skeleton target = source;
  target.rest.rotation[1] = rot_z90();
  Clip c;
  c.name = "raise";
  // arm: 90 degrees about X from an identity rest, as a value and (cubic) an out-tangent along +X.
  add_channel(c, 1, ChannelPath::kRotation, Interpolation::kCubicSpline, {0.0f, 1.0f},
              {{0, 0, 0, 0}, {kH, 0, 0, kH}, {1, 0, 0, 0}, {0, 0, 0, 0}, {kH, 0, 0, kH}, {0, 0, 0, 0}});
  const RetargetResult r = retarget_clip(c, source, target);
  ASSERT_EQ(r.clip.channels.size(), 1u);
  EXPECT_EQ(r.clip.channels[0].joint, 1);
  EXPECT_EQ(r.clip.channels[0].interpolation, Interpolation::kCubicSpline);
  // rot_z90 * rot_x90: w = 0.5 - 0, v = kH*(kH,0,0) + kH*(0,0,kH) + (0,0,kH) x (kH,0,0) = (.5,.5,.5).
  expect_vec4_near(key(r, 0, 1), {0.5f, 0.5f, 0.5f, 0.5f});
  // The tangent (pure quaternion +X) gets the same left factor: w = 0, v = kH*(1,0,0) + (0,0,kH) x
  // (1,0,0) = (kH, kH, 0).
  expect_vec4_near(key(r, 0, 2), {kH, kH, 0.0f, 0.0f});
  expect_vec4_near(key(r, 0, 0), {0, 0, 0, 0});

  // Non-identity source rest: rest 90 about X, key 180 about X -> delta 90 about X onto an identity rest.
  source.rest.rotation[1] = rot_x90();
  target.rest.rotation[1] = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  Clip d;
  d.name = "flip";
  add_channel(d, 1, ChannelPath::kRotation, Interpolation::kLinear, {0.0f}, {{1, 0, 0, 0}});
  const RetargetResult r2 = retarget_clip(d, source, target);
  expect_vec4_near(key(r2, 0, 0), {kH, 0.0f, 0.0f, kH});
}

TEST(Retarget, RootTranslationScalesByHeightAndBonesKeepTheTargetLength) {
  // Heights of the root above the lowest joint: 1 in the source, 2 in the target. "toe" has the
  // same rest offset in both.
  const Skeleton source = chain({"hips", "foot", "toe"}, {{0, 1, 0}, {0, -1, 0}, {0, 0, 0.1f}});
  const Skeleton target = chain({"hips", "foot", "toe"}, {{0, 2, 0}, {0, -2, 0}, {0, 0, 0.1f}});
  Clip c;
  c.name = "hop";
  add_channel(c, 0, ChannelPath::kTranslation, Interpolation::kLinear, {0.0f, 1.0f},
              {{0, 1, 0, 0}, {1, 1.5f, 0, 0}});
  add_channel(c, 1, ChannelPath::kTranslation, Interpolation::kLinear, {0.0f, 1.0f},
              {{0, -1, 0, 0}, {0, -0.5f, 0, 0}});
  add_channel(c, 2, ChannelPath::kTranslation, Interpolation::kLinear, {0.0f, 1.0f},
              {{0, 0, 0.1f, 0}, {0, 0, 0.2f, 0}});
  const RetargetResult r = retarget_clip(c, source, target);
  // hips: (0,2,0) + ((1,1.5,0) - (0,1,0)) * 2 = (2,3,0); foot's translation is dropped (bone lengths
  // differ) and the toe's kept (they agree).
  ASSERT_EQ(r.clip.channels.size(), 2u);
  EXPECT_EQ(r.clip.channels[0].joint, 0);
  expect_vec4_near(key(r, 0, 0), {0, 2, 0, 0});
  expect_vec4_near(key(r, 0, 1), {2, 3, 0, 0});
  EXPECT_EQ(r.clip.channels[1].joint, 2);
  EXPECT_EQ(key(r, 1, 1), glm::vec4(0, 0, 0.2f, 0));
  EXPECT_EQ(r.unanimated, std::vector<std::string>{"foot"});
  EXPECT_TRUE(r.unmatched.empty());
  r.clip.validate(target.size());
  const LocalPose p = sampled(target, r.clip, 0.5f);
  EXPECT_NEAR(p.translation[0].x, 1.0f, 1e-6f);
  EXPECT_NEAR(p.translation[0].y, 2.5f, 1e-6f);
  EXPECT_EQ(p.translation[1], glm::vec3(0, -2, 0));  // the target's own bone
}

TEST(Retarget, RootMotionUnderAnUnanimatedArmatureScalesToo) {
  // The source hips sit under an "Armature" node no channel drives: still the root motion carrier.
  const Skeleton source = chain({"Armature", "Hips", "Foot"}, {{0, 0, 0}, {0, 1, 0}, {0, -1, 0}});
  const Skeleton target = chain({"hips", "foot"}, {{0, 0.5f, 0}, {0, -0.5f, 0}});
  Clip c;
  c.name = "bob";
  add_channel(c, 1, ChannelPath::kTranslation, Interpolation::kStep, {0.0f}, {{0, 1.2f, 0, 0}});
  const RetargetResult r = retarget_clip(c, source, target);
  ASSERT_EQ(r.clip.channels.size(), 1u);
  expect_vec4_near(key(r, 0, 0), {0, 0.6f, 0, 0});  // 0.5 + 0.2 * 0.5
}

TEST(Retarget, ListsUnmatchedAndUnanimatedJoints) {
  const Skeleton source = chain({"a", "b", "c"}, {{0, 0, 0}, {0, 1, 0}, {0, 1, 0}});
  const Skeleton target = chain({"a", "c", "d"}, {{0, 0, 0}, {0, 1, 0}, {0, 1, 0}});
  Clip c;
  c.name = "wave";
  add_channel(c, 0, ChannelPath::kRotation, Interpolation::kLinear, {0.0f}, {{0, 0, 0, 1}});
  add_channel(c, 1, ChannelPath::kRotation, Interpolation::kLinear, {0.0f}, {{0, 0, 0, 1}});
  const RetargetResult r = retarget_clip(c, source, target);
  EXPECT_EQ(r.unmatched, std::vector<std::string>{"b"});
  EXPECT_EQ(r.unanimated, (std::vector<std::string>{"c", "d"}));
  ASSERT_EQ(r.clip.channels.size(), 1u);
  const std::string warning = describe_partial(r);
  EXPECT_NE(warning.find("'wave'"), std::string::npos) << warning;
  EXPECT_NE(warning.find("(b)"), std::string::npos) << warning;
  EXPECT_NE(warning.find("2 target joint(s)"), std::string::npos) << warning;
  EXPECT_EQ(warning.find('\n'), std::string::npos);
}

TEST(Retarget, PrefixedNamesMatchIgnoringCase) {
  EXPECT_EQ(normalized_joint_name("mixamorig:LeftArm"), "leftarm");
  EXPECT_EQ(normalized_joint_name("Armature|Hips"), "hips");
  EXPECT_EQ(normalized_joint_name("a:b:Spine"), "spine");
  EXPECT_EQ(normalized_joint_name("Head"), "head");
  EXPECT_EQ(normalized_joint_name("odd:"), "odd:");

  Skeleton mixamo = humanoid_skeleton();
  for (std::string& n : mixamo.names) n = "mixamorig:" + n;
  mixamo.names[1] = "mixamorig:Spine";  // case differs too
  const Skeleton h = humanoid_skeleton();
  const Clip walk = make_walk_clip(mixamo);
  const RetargetResult r = retarget_clip(walk, mixamo, h);
  EXPECT_TRUE(r.unmatched.empty());
  ASSERT_EQ(r.clip.channels.size(), walk.channels.size());
  for (std::size_t i = 0; i < walk.channels.size(); ++i)
    EXPECT_EQ(r.clip.channels[i].joint, walk.channels[i].joint);
  // And back: the prefix may be on either side.
  const RetargetResult back = retarget_clip(make_walk_clip(h), h, mixamo);
  EXPECT_TRUE(back.unmatched.empty());
}

TEST(Retarget, ScaleIsDroppedWhenRestScalesDiffer) {
  const Skeleton source = chain({"root", "arm"}, {{0, 0, 0}, {1, 0, 0}});
  Skeleton target = source;
  target.rest.scale[1] = glm::vec3(2.0f);
  Clip c;
  c.name = "grow";
  add_channel(c, 0, ChannelPath::kScale, Interpolation::kLinear, {0.0f, 1.0f}, {{1, 1, 1, 0}, {2, 2, 2, 0}});
  add_channel(c, 1, ChannelPath::kScale, Interpolation::kLinear, {0.0f, 1.0f}, {{1, 1, 1, 0}, {2, 2, 2, 0}});
  const RetargetResult r = retarget_clip(c, source, target);
  ASSERT_EQ(r.clip.channels.size(), 1u);
  EXPECT_EQ(r.clip.channels[0].joint, 0);
  EXPECT_EQ(r.scale_dropped, std::vector<std::string>{"arm"});
  EXPECT_EQ(r.unanimated, std::vector<std::string>{"arm"});
  EXPECT_NE(describe_partial(r).find("scale"), std::string::npos);
}

TEST(Retarget, NoSharedJointIsAnError) {
  const Skeleton h = humanoid_skeleton();
  const Skeleton other = chain({"x", "y"}, {{0, 0, 0}, {0, 1, 0}});
  const Clip walk = make_walk_clip(h);
  try {
    retarget_clip(walk, h, other);
    FAIL() << "expected myriad::Error";
  } catch (const Error& e) {
    const std::string what = e.what();
    // The animated source joints in skeleton order, five by name and the rest counted.
    std::vector<bool> driven(h.size(), false);
    for (const Channel& ch : walk.channels) driven[ch.joint] = true;
    std::vector<std::string> names;
    for (std::size_t j = 0; j < h.size(); ++j)
      if (driven[j]) names.push_back(h.names[j]);
    ASSERT_GT(names.size(), 5u);
    const std::string listed = names[0] + ", " + names[1] + ", " + names[2] + ", " + names[3] + ", " +
                               names[4] + " and " + std::to_string(names.size() - 5) + " more";
    EXPECT_NE(what.find("clip 'walk' shares no joint with the skeleton: " + listed), std::string::npos)
        << what;
  }
  Clip empty;
  empty.name = "empty";
  EXPECT_THROW(retarget_clip(empty, h, h), Error);
}

}  // namespace
}  // namespace myriad::anim
