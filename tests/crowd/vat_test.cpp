// VAT (SPEC C1, C4): rows equal CPU skinning at the sample times, the stored texels are within the
// documented quantisation, and attached columns are exactly the weighted sums of their three columns.
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd/vat.hpp"
#include "myriad/crowd_bake/import/weld.hpp"

#include "myriad/anim/pose/pose.hpp"
#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace myriad::crowd {
namespace {

float angle_degrees(glm::vec3 a, glm::vec3 b) {
  return std::acos(std::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0f, 1.0f)) * 180.0f /
         std::numbers::pi_v<float>;
}

TEST(VatCodec, NormalErrorStaysWithinTheDocumentedBound) {
  std::mt19937 rng(3);
  std::normal_distribution<float> g;
  float worst = 0.0f;
  for (int i = 0; i < 20000; ++i) {
    const glm::vec3 n = glm::normalize(glm::vec3(g(rng), g(rng), g(rng)));
    worst = std::max(worst, angle_degrees(n, decode_normal_oct8(encode_normal_oct8(n))));
  }
  EXPECT_LE(worst, kVatNormalMaxErrorDegrees);
  EXPECT_GT(worst, 0.1f);  // 8-bit octahedral really is lossy: the bound is not vacuous
  EXPECT_EQ(decode_normal_oct8(encode_normal_oct8({0.0f, 0.0f, -1.0f})), glm::vec3(0.0f, 0.0f, -1.0f));
}

struct Reference {
  anim::ImportedModel model = make_enemy();
  BakeMesh columns = weld(import_for_bake(model, "enemy").mesh).mesh;
};

TEST(Vat, RowsEqualCpuSkinningAtTheSampleTimes) {
  const Reference ref;
  std::vector<Attachment> attached = {{0, 1, 2, {0.2f, 0.3f, 0.5f}}, {10, 20, 30, {0.6f, 0.1f, 0.3f}}};
  const Vat vat = bake_vat(ref.model, ref.columns, attached, {30.0f});
  ASSERT_EQ(vat.clips.size(), 2u);
  EXPECT_EQ(vat.clips[0].frames, 31u);  // walk: 1.0 s at 30 fps, both ends
  EXPECT_EQ(vat.clips[1].frames, 37u);  // attack: 1.2 s
  EXPECT_EQ(vat.columns, ref.columns.vertex_count() + 2);
  const anim::ImportedModel& m = ref.model;
  anim::LocalPose pose;
  pose.resize(m.skeleton.size());
  std::vector<glm::mat4> model_space(m.skeleton.size());
  std::vector<anim::Mat3x4> palette(m.joints.size());
  for (const VatClip& c : vat.clips) {
    const anim::Clip& clip = c.name == "walk" ? m.clips[0] : m.clips[1];
    const glm::vec3 step = (c.bounds_max - c.bounds_min) / 65535.0f;
    for (std::uint32_t f = 0; f < c.frames; f += 5) {
      anim::SamplingCache cache;
      cache.reset(clip);
      anim::sample(m.skeleton, clip, std::min(float(f) / 30.0f, clip.duration), cache, pose);
      anim::local_to_model(m.skeleton.parents, pose, model_space);
      anim::build_palette(model_space, m.joints, m.inverse_binds, palette);
      for (std::size_t v = 0; v < ref.columns.vertex_count(); v += 7) {
        const std::size_t cell = std::size_t{c.first_row + f} * vat.columns + v;
        const glm::vec3 p = anim::skin_position(palette, ref.columns.joints[v], ref.columns.weights[v],
                                                ref.columns.positions[v]);
        EXPECT_EQ(vat.positions[cell], p);  // the enemy's root transform is the identity
        const glm::vec3 decoded = decode_position(vat.texels[cell], c);
        for (int k = 0; k < 3; ++k) EXPECT_LE(std::abs(decoded[k] - p[k]), 0.5f * step[k] + 1e-6f);
        const glm::vec3 n =
            skin_normal(palette, ref.columns.joints[v], ref.columns.weights[v], ref.columns.normals[v]);
        EXPECT_LT(angle_degrees(vat.normals[cell], n), 1e-3f);
        EXPECT_LE(angle_degrees(decode_normal_oct8(vat.texels[cell].w), n), kVatNormalMaxErrorDegrees);
      }
    }
  }
  // Frame 0 of walk differs from frame 15 (the clip really animates the columns).
  EXPECT_NE(vat.positions[0 + ref.columns.vertex_count() - 1],
            vat.positions[15 * vat.columns + ref.columns.vertex_count() - 1]);
}

TEST(Vat, AttachedColumnsAreTheWeightedSumsExactly) {
  const Reference ref;
  const std::vector<Attachment> attached = {{5, 6, 7, {0.25f, 0.25f, 0.5f}},
                                            {100, 3, 400, {0.1f, 0.7f, 0.2f}}};
  const Vat vat = bake_vat(ref.model, ref.columns, attached, {15.0f});
  const std::size_t base = ref.columns.vertex_count();
  for (std::uint32_t row = 0; row < vat.rows; ++row) {
    const glm::vec3* p = vat.positions.data() + std::size_t{row} * vat.columns;
    const glm::vec3* n = vat.normals.data() + std::size_t{row} * vat.columns;
    for (std::size_t k = 0; k < attached.size(); ++k) {
      const Attachment& a = attached[k];
      EXPECT_EQ(p[base + k], a.w.x * p[a.a] + a.w.y * p[a.b] + a.w.z * p[a.c]);
      const glm::vec3 sum = a.w.x * n[a.a] + a.w.y * n[a.b] + a.w.z * n[a.c];
      EXPECT_EQ(n[base + k], sum / glm::length(sum));
    }
  }
}

TEST(Vat, RejectsBadColumns) {
  const Reference ref;
  const std::vector<Attachment> bad = {{0, 1, static_cast<std::uint32_t>(ref.columns.vertex_count()), {}}};
  EXPECT_THROW(bake_vat(ref.model, ref.columns, bad), Error);
  anim::ImportedModel no_clips = ref.model;
  no_clips.clips.clear();
  EXPECT_THROW(bake_vat(no_clips, ref.columns, {}), Error);
}

}  // namespace
}  // namespace myriad::crowd
