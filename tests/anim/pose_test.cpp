// Local-to-model and palettes against plain glm matrix products; the animator against a serial
// per-character computation (and 1 thread against many).
#include "myriad/anim/playback/animator.hpp"
#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/anim/pose/pose_kernels.hpp"
#include "myriad/core/thread/parallel.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace myriad::anim {
namespace {

void expect_near(const glm::mat4& a, const glm::mat4& b, float tol) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(a[c][r], b[c][r], tol) << "c" << c << " r" << r;
  }
}

TEST(Pose, LocalToModelMatchesGlmProducts) {
  std::vector<int> parents_in = {-1, 0, 1, 0, 3};
  LocalPose local;
  local.resize(5);
  for (int i = 0; i < 5; ++i) {
    const auto f = static_cast<float>(i);
    local.translation[static_cast<std::size_t>(i)] = {f, 1.0f - f, 0.5f * f};
    local.rotation[static_cast<std::size_t>(i)] =
        glm::angleAxis(0.3f * (f + 1.0f), glm::normalize(glm::vec3(1, f, 2)));
    local.scale[static_cast<std::size_t>(i)] = glm::vec3(1.0f + 0.1f * f);
  }
  const std::vector<std::int16_t> parents = {-1, 0, 1, 0, 3};
  std::vector<glm::mat4> model(5);
  local_to_model(parents, local, model);
  auto ref_local = [&](std::size_t i) {
    return glm::translate(glm::mat4(1.0f), local.translation[i]) * glm::mat4_cast(local.rotation[i]) *
           glm::scale(glm::mat4(1.0f), local.scale[i]);
  };
  expect_near(model[2], ref_local(0) * ref_local(1) * ref_local(2), 1e-5f);
  expect_near(model[4], ref_local(0) * ref_local(3) * ref_local(4), 1e-5f);
}

// The 4-joint SoA path must give the bits of the per-joint scalar form (compose, then affine_mul
// by the parent) for every block/tail split, several roots and non-unit scales included.
TEST(Pose, LocalToModelBitIdenticalToScalarForm) {
  for (std::size_t n = 1; n <= 13; ++n) {
    LocalPose local;
    local.resize(n);
    std::vector<std::int16_t> parents(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto f = static_cast<float>(i);
      parents[i] = (i % 5 == 0) ? kNoParent : static_cast<std::int16_t>((i * 7 + 3) % i);
      local.translation[i] = {0.3f * f - 1.0f, 1.0f - 0.7f * f, 0.25f * f};
      local.rotation[i] = glm::angleAxis(0.37f * (f + 1.0f), glm::normalize(glm::vec3(1.0f, f - 2.0f, 2.0f)));
      local.scale[i] = {1.0f + 0.1f * f, 0.9f, 1.0f - 0.03f * f};
    }
    std::vector<glm::mat4> model(n), ref(n);
    local_to_model(parents, local, model);
    for (std::size_t i = 0; i < n; ++i) {
      const glm::mat4 m = compose(local.translation[i], local.rotation[i], local.scale[i]);
      ref[i] = parents[i] == kNoParent ? m : affine_mul(ref[static_cast<std::size_t>(parents[i])], m);
      EXPECT_EQ(std::memcmp(&model[i], &ref[i], sizeof(glm::mat4)), 0) << "n " << n << " joint " << i;
    }
  }
}

// A random skeleton (parents anywhere before the child, several roots, non-unit scales) for the
// kernel comparisons.
struct RandomPose {
  std::vector<std::int16_t> parents;
  LocalPose local;
  explicit RandomPose(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    local.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      parents.push_back(i == 0 || rng() % 11 == 0 ? kNoParent : static_cast<std::int16_t>(rng() % i));
      local.translation[i] = {u(rng), u(rng), u(rng)};
      local.rotation[i] = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
      local.scale[i] = glm::vec3(1.0f + 0.2f * u(rng), 1.0f, 1.0f - 0.1f * u(rng));
    }
    local.rotation[n / 2] = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);  // exact zeros and signed zeros too
  }
};

// The AVX kernels (where the CPU has them) and the portable ones give the same bits, and both the
// bits of the scalar form, for every block/tail split up to and past the 67-joint benchmark size.
TEST(Pose, KernelsBitIdentical) {
  for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 21u, 67u, 70u}) {
    const RandomPose rp(n, static_cast<std::uint32_t>(n));
    std::vector<glm::mat4> portable(n), fast(n), ref(n);
    kernels::local_to_model_portable(rp.parents, rp.local, portable);
    local_to_model(rp.parents, rp.local, fast);
    if (kernels::avx_available()) {
      std::vector<glm::mat4> avx(n);
      kernels::local_to_model_avx(rp.parents, rp.local, avx);
      EXPECT_EQ(std::memcmp(avx.data(), portable.data(), n * sizeof(glm::mat4)), 0) << "n " << n;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const glm::mat4 m = compose(rp.local.translation[i], rp.local.rotation[i], rp.local.scale[i]);
      ref[i] = rp.parents[i] == kNoParent ? m : affine_mul(ref[static_cast<std::size_t>(rp.parents[i])], m);
    }
    EXPECT_EQ(std::memcmp(portable.data(), ref.data(), n * sizeof(glm::mat4)), 0) << "n " << n;
    EXPECT_EQ(std::memcmp(fast.data(), ref.data(), n * sizeof(glm::mat4)), 0) << "n " << n;

    // Palettes: a shuffled joint list with repeats, inverse binds of another pose.
    std::mt19937 rng(static_cast<std::uint32_t>(n) + 100);
    std::vector<std::uint16_t> joints(n + 3);
    std::vector<Mat3x4> ibm(joints.size());
    for (std::size_t i = 0; i < joints.size(); ++i) {
      joints[i] = static_cast<std::uint16_t>(rng() % n);
      ibm[i] = to_mat3x4(glm::inverse(ref[(i * 5) % n]));
    }
    std::vector<Mat3x4> pal_portable(joints.size()), pal_fast(joints.size()), pal_ref(joints.size());
    kernels::build_palette_portable(ref, joints, ibm, pal_portable);
    build_palette(ref, joints, ibm, pal_fast);
    for (std::size_t i = 0; i < joints.size(); ++i) {
      // The reference formula, scalar: row r = sum_k A(r,k) * row_k(B) with row_3(B) = (0, 0, 0, 1).
      const glm::mat4& a = ref[joints[i]];
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) {
          const float e3 = c == 3 ? 1.0f : 0.0f;
          pal_ref[i].rows[r][c] = ibm[i].rows[0][c] * a[0][r] + ibm[i].rows[1][c] * a[1][r] +
                                  ibm[i].rows[2][c] * a[2][r] + e3 * a[3][r];
        }
      }
    }
    EXPECT_EQ(std::memcmp(pal_portable.data(), pal_ref.data(), joints.size() * sizeof(Mat3x4)), 0) << n;
    EXPECT_EQ(std::memcmp(pal_fast.data(), pal_ref.data(), joints.size() * sizeof(Mat3x4)), 0) << n;
  }
}

// Blocks whose scales are all exactly 1 skip the scale product in the AVX kernel: unit and non-unit
// blocks side by side, a single non-unit component in an otherwise unit block, and skeleton sizes whose
// last block overlaps joints that are done already.
TEST(Pose, KernelsBitIdenticalWithUnitScales) {
  for (std::size_t n : {1u, 6u, 8u, 12u, 15u, 16u, 17u, 31u, 67u}) {
    RandomPose rp(n, static_cast<std::uint32_t>(n) + 7);
    for (std::size_t i = 0; i < n; ++i) {
      if ((i / 8) % 2 == 0) rp.local.scale[i] = glm::vec3(1.0f);
    }
    rp.local.scale[n - 1] = glm::vec3(1.0f, 1.0f, n % 2 ? 1.0f : -1.0f);
    if (n > 20) rp.local.scale[19] = glm::vec3(1.0f, 1.0f + 1.0f / 1024.0f, 1.0f);
    std::vector<glm::mat4> portable(n), fast(n), ref(n);
    kernels::local_to_model_portable(rp.parents, rp.local, portable);
    local_to_model(rp.parents, rp.local, fast);
    for (std::size_t i = 0; i < n; ++i) {
      const glm::mat4 m = compose(rp.local.translation[i], rp.local.rotation[i], rp.local.scale[i]);
      ref[i] = rp.parents[i] == kNoParent ? m : affine_mul(ref[static_cast<std::size_t>(rp.parents[i])], m);
    }
    EXPECT_EQ(std::memcmp(portable.data(), ref.data(), n * sizeof(glm::mat4)), 0) << "n " << n;
    EXPECT_EQ(std::memcmp(fast.data(), ref.data(), n * sizeof(glm::mat4)), 0) << "n " << n;
  }
}

TEST(Pose, PaletteIsIdentityAtBindPose) {
  const Skeleton s = humanoid_skeleton();
  std::vector<glm::mat4> model(s.size());
  local_to_model(s.parents, s.rest, model);
  std::vector<std::uint16_t> joints(s.size());
  std::vector<glm::mat4> ibm(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    joints[i] = static_cast<std::uint16_t>(i);
    ibm[i] = glm::inverse(model[i]);
  }
  std::vector<Mat3x4> palette(s.size());
  build_palette(model, joints, ibm, palette);
  for (const Mat3x4& m : palette) expect_near(to_mat4(m), glm::mat4(1.0f), 1e-6f);
}

TEST(Pose, SkinPositionBlendsRows) {
  std::vector<Mat3x4> pal = {to_mat3x4(glm::translate(glm::mat4(1.0f), {1, 0, 0})),
                             to_mat3x4(glm::translate(glm::mat4(1.0f), {0, 2, 0}))};
  const glm::vec3 p = skin_position(pal, {0, 1, 0, 0}, {0.25f, 0.75f, 0, 0}, {1, 1, 1});
  EXPECT_FLOAT_EQ(p.x, 1.25f);
  EXPECT_FLOAT_EQ(p.y, 2.5f);
  EXPECT_FLOAT_EQ(p.z, 1.0f);
}

TEST(Animator, MatchesSerialComputationOnAnyThreadCount) {
  const Avatar av = make_avatar({.clothed = true});
  std::vector<PartSkin> skins;
  for (const AvatarPart& p : av.parts) skins.push_back(p.skin);
  const Dedup d = dedup_skeletons(skins);
  const std::vector<Clip> clips = {make_walk_clip(av.skeleton, 1.0f), make_walk_clip(av.skeleton, 0.7f)};
  constexpr std::size_t kChars = 37;
  Animator anim(av.skeleton, clips, d.renderer_skeleton, kChars);
  for (std::size_t c = 0; c < kChars; ++c)
    anim.set_clip(c, static_cast<std::uint32_t>(c % 2), 0.013f * static_cast<float>(c));
  std::vector<Mat3x4> many(kChars * anim.palette_size()), one(many.size());
  EXPECT_EQ(anim.update(many), many.size());
  {
    ThreadLimit limit(1);
    anim.update(one);
  }
  EXPECT_EQ(std::memcmp(many.data(), one.data(), many.size() * sizeof(Mat3x4)), 0);
  // Serial reference for one character.
  const std::size_t c = 5;
  SamplingCache cache;
  cache.reset(clips[1]);
  LocalPose local;
  local.resize(av.skeleton.size());
  sample(av.skeleton, clips[1], 0.013f * 5.0f, cache, local);
  std::vector<glm::mat4> model(av.skeleton.size());
  local_to_model(av.skeleton.parents, local, model);
  std::vector<Mat3x4> ref(anim.palette_size());
  build_palette(model, d.renderer_skeleton.joints, d.renderer_skeleton.inverse_binds, ref);
  EXPECT_EQ(std::memcmp(ref.data(), many.data() + anim.palette_offset(c), ref.size() * sizeof(Mat3x4)), 0);
  // Throttled update writes only the selected characters.
  std::vector<std::uint8_t> mask(kChars, 0);
  mask[3] = 1;
  std::vector<Mat3x4> sparse(many.size(), Mat3x4{});
  EXPECT_EQ(anim.update(sparse, mask), anim.palette_size());
  EXPECT_EQ(std::memcmp(sparse.data() + anim.palette_offset(3), many.data() + anim.palette_offset(3),
                        anim.palette_size() * sizeof(Mat3x4)),
            0);
  EXPECT_EQ(sparse[0].rows[0].x, 0.0f);
}

}  // namespace
}  // namespace myriad::anim
