#include "myriad/crowd/entity_lod.hpp"

#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace myriad::crowd {
namespace {

constexpr float kFov30 = 0.5235988f;

int level_at(const LodCurve& curve, float distance, float diameter) {
  return select_level(curve, distance * distance, diameter);
}

TEST(EntityLod, ReferenceEntitySwitchesAtTheArticleDistances) {
  LodCurveParams params;
  params.reference_diameter = 2.5f;
  const LodCurve curve = LodCurve::solve(params);
  EXPECT_EQ(level_at(curve, 93.2f, 2.5f), 0);
  EXPECT_EQ(level_at(curve, 93.4f, 2.5f), 1);
  EXPECT_EQ(level_at(curve, 167.8f, 2.5f), 1);
  EXPECT_EQ(level_at(curve, 168.0f, 2.5f), 2);
  EXPECT_EQ(level_at(curve, 5000.0f, 2.5f), 2);
  EXPECT_NEAR(curve.lod(93.3f, 2.5f), 1.0f, 1e-4f);
  EXPECT_NEAR(curve.lod(167.9f, 2.5f), 2.0f, 1e-4f);
  EXPECT_NEAR(curve.switch_ratio[0] * 2.5f, 93.3f, 1e-3f);
  EXPECT_NEAR(curve.switch_ratio[1] * 2.5f, 167.9f, 1e-3f);
}

TEST(EntityLod, DistancesDoNotDependOnTheResolution) {
  for (float height : {720.0f, 1080.0f, 1440.0f, 2160.0f}) {
    LodCurveParams params;
    params.screen_height = height;
    const LodCurve curve = LodCurve::solve(params);
    EXPECT_NEAR(curve.switch_ratio[0] * params.reference_diameter, 93.3f, 1e-3f) << height;
    EXPECT_NEAR(curve.switch_ratio[1] * params.reference_diameter, 167.9f, 1e-3f) << height;
  }
}

TEST(EntityLod, ANarrowerFieldOfViewSwitchesLater) {
  LodCurveParams wide;
  LodCurveParams narrow;
  narrow.fov_y_radians = kFov30 / 2.0f;
  const float ratio = LodCurve::solve(narrow).switch_ratio[0] / LodCurve::solve(wide).switch_ratio[0];
  EXPECT_NEAR(ratio, std::tan(kFov30 / 2.0f) / std::tan(kFov30 / 4.0f), 1e-4f);
}

TEST(EntityLod, DiameterUsesWorldBoundsWithPrefabScaleAndRotationFactor) {
  const Aabb local{{-0.3f, 0.0f, -0.2f}, {0.3f, 1.8f, 0.2f}};
  EXPECT_FLOAT_EQ(entity_diameter(local, 1.0f), 1.8f * 1.22f);
  EXPECT_FLOAT_EQ(entity_diameter(local, 3.0f), 3.0f * 1.8f * 1.22f);

  LodCurveParams params;
  params.reference_diameter = entity_diameter(local, 1.0f);
  const LodCurve curve = LodCurve::solve(params);
  const float big = entity_diameter(local, 3.0f);
  // A 3x prefab switches 3x later: still LOD0 where the 1x entity is already at LOD2.
  EXPECT_EQ(level_at(curve, 200.0f, params.reference_diameter), 2);
  EXPECT_EQ(level_at(curve, 200.0f, big), 0);
  EXPECT_EQ(level_at(curve, 3.0f * 93.3f - 0.5f, big), 0);
  EXPECT_EQ(level_at(curve, 3.0f * 93.3f + 0.5f, big), 1);
  EXPECT_EQ(level_at(curve, 3.0f * 167.9f + 0.5f, big), 2);
}

TEST(EntityLod, LevelIsMonotonicInDistance) {
  const LodCurve curve = LodCurve::solve({});
  int previous = 0;
  for (float d = 0.0f; d < 400.0f; d += 0.05f) {
    const int level = level_at(curve, d, 2.0f);
    ASSERT_GE(level, previous) << d;
    previous = level;
  }
  EXPECT_EQ(previous, 2);
}

TEST(EntityLod, ForcedLevelOverridesDistance) {
  const LodCurve curve = LodCurve::solve({});
  EXPECT_EQ(select_level(curve, 0.0f, 2.0f, 2), 2);
  EXPECT_EQ(select_level(curve, 1e8f, 2.0f, 0), 0);
  EXPECT_EQ(select_level(curve, 1e8f, 2.0f, 1), 1);
  EXPECT_EQ(select_level(curve, 0.0f, 2.0f, 7), 2);
}

TEST(EntityLod, ImpossibleParametersAreRejected) {
  LodCurveParams bad;
  bad.lod2_distance = 50.0f;
  EXPECT_THROW(LodCurve::solve(bad), Error);
  bad = {};
  bad.screen_height = 0.0f;
  EXPECT_THROW(LodCurve::solve(bad), Error);
  bad = {};
  bad.reference_diameter = -1.0f;
  EXPECT_THROW(LodCurve::solve(bad), Error);
  bad = {};
  bad.fade_band = -0.1f;
  EXPECT_THROW(LodCurve::solve(bad), Error);
  bad.fade_band = 0.6f;  // 93.3·1.3 > 167.9·0.7: the two bands would overlap
  EXPECT_THROW(LodCurve::solve(bad), Error);
  bad.fade_band = 0.5f;
  EXPECT_NO_THROW(LodCurve::solve(bad));
}

// The state decide_lod gives at `distance` (metres) for a diameter-2 entity after `previous`.
std::uint32_t state_at(const LodCurve& curve, float distance, std::uint32_t previous = CROWD_LOD_NONE) {
  return decide_lod(curve, distance * distance, 2.0f, previous);
}

TEST(EntityLodFade, BandsSpanTheirFractionAroundEachSwitch) {
  const LodCurve curve = LodCurve::solve({});  // D = 2 switches at 93.3 and 167.9 m, bands of 10 %
  EXPECT_FLOAT_EQ(curve.band_step, 0.1f / 256.0f);
  for (std::uint32_t k = 0; k < 2; ++k) {
    const float s = k == 0 ? 93.3f : 167.9f;
    EXPECT_NEAR(band_boundary(2.0f * curve.switch_ratio[k], curve.band_step, 0), 0.95f * s, 1e-3f);
    EXPECT_NEAR(band_boundary(2.0f * curve.switch_ratio[k], curve.band_step, 256), 1.05f * s, 1e-3f);
    const std::uint32_t before = state_at(curve, 0.94f * s);
    EXPECT_EQ(before, k) << "before band " << k << ": the nearer level, not fading";
    const std::uint32_t after = state_at(curve, 1.06f * s);
    EXPECT_EQ(after, k + 1) << "after band " << k;
    for (float f : {0.951f, 0.98f, 1.0f, 1.02f, 1.049f}) {
      const std::uint32_t st = state_at(curve, f * s);
      ASSERT_TRUE(lod_state_fading(st)) << f;
      EXPECT_EQ(lod_state_band(st), k) << f;
      // q: the position in the band in 256 steps, linear in the distance.
      const float expected_q = (f - 0.95f) / 0.1f * 256.0f;
      EXPECT_NEAR(float(lod_state_q(st)), expected_q, 1.01f) << f;
      // First frame: the side of the switch distance decides.
      EXPECT_EQ(lod_state_level(st), f < 1.0f ? k : k + 1) << f;
    }
  }
}

TEST(EntityLodFade, FadeGrowsStepByStepAcrossTheBandAndBoundariesAreExact) {
  const LodCurve curve = LodCurve::solve({});
  const float s = 2.0f * curve.switch_ratio[0];
  std::uint32_t previous_q = 0;
  std::uint32_t seen = 0;
  for (std::uint32_t j = 0; j < 256; ++j) {
    const float b = band_boundary(s, curve.band_step, j);
    const std::uint32_t at = decide_lod(curve, b * b, 2.0f, 0u);
    ASSERT_TRUE(lod_state_fading(at)) << j;
    // Exactly on boundary j the fade is j; one float below it, one step less.
    EXPECT_EQ(lod_state_q(at), j);
    if (j > 0) {
      const float below = std::nextafter(b, 0.0f);
      EXPECT_EQ(lod_state_q(decide_lod(curve, below * below, 2.0f, 0u)), j - 1) << j;
    }
    EXPECT_GE(lod_state_q(at), previous_q);
    previous_q = lod_state_q(at);
    ++seen;
  }
  EXPECT_EQ(seen, 256u);
  const float near_edge = band_boundary(s, curve.band_step, 0);
  const float far_edge = band_boundary(s, curve.band_step, 256);
  const float before = std::nextafter(near_edge, 0.0f);
  EXPECT_FALSE(lod_state_fading(decide_lod(curve, before * before, 2.0f, 0u)));
  EXPECT_FALSE(lod_state_fading(decide_lod(curve, far_edge * far_edge, 2.0f, 0u)));
  EXPECT_EQ(decide_lod(curve, far_edge * far_edge, 2.0f, 0u), 1u);
}

TEST(EntityLodFade, LevelSwitchesOnlyAfterLeavingTheBand) {
  const LodCurve curve = LodCurve::solve({});
  // Walking out from 80 m to 190 m: LOD0 through the whole first band, LOD1 from its far edge on,
  // through the whole second band, LOD2 from its far edge.
  std::uint32_t state = CROWD_LOD_NONE;
  for (float d = 80.0f; d < 190.0f; d += 0.05f) {
    state = state_at(curve, d, state);
    const std::uint32_t expected = d < 1.05f * 93.3f - 0.01f ? 0u : d < 1.05f * 167.9f - 0.01f ? 1u : 2u;
    if (std::abs(d - 1.05f * 93.3f) > 0.02f && std::abs(d - 1.05f * 167.9f) > 0.02f) {
      ASSERT_EQ(lod_state_level(state), expected) << "outwards at " << d;
    }
  }
  // And back in: LOD2 until the near edge of the second band, LOD1 until the near edge of the first.
  for (float d = 190.0f; d > 80.0f; d -= 0.05f) {
    state = state_at(curve, d, state);
    const std::uint32_t expected = d >= 0.95f * 167.9f + 0.01f ? 2u : d >= 0.95f * 93.3f + 0.01f ? 1u : 0u;
    if (std::abs(d - 0.95f * 93.3f) > 0.02f && std::abs(d - 0.95f * 167.9f) > 0.02f) {
      ASSERT_EQ(lod_state_level(state), expected) << "inwards at " << d;
    }
  }
  // Wobbling across a switch distance inside its band never changes the level, whichever it had.
  for (std::uint32_t start : {0u, 1u}) {
    state = start;
    for (int i = 0; i < 40; ++i) {
      state = state_at(curve, 93.3f + ((i % 2) ? 3.0f : -3.0f), state);
      ASSERT_EQ(lod_state_level(state), start) << i;
      ASSERT_TRUE(lod_state_fading(state));
    }
  }
  // A level outside the band's two is clamped into them (an entity that jumped).
  EXPECT_EQ(lod_state_level(state_at(curve, 93.3f, 2u)), 1u);
  EXPECT_EQ(lod_state_level(state_at(curve, 167.9f, 0u)), 1u);
}

TEST(EntityLodFade, DecidingTwiceWithTheSameViewChangesNothing) {
  const LodCurve curve = LodCurve::solve({});
  for (float d = 0.0f; d < 250.0f; d += 0.37f) {
    for (std::uint32_t previous : {0u, 1u, 2u, CROWD_LOD_NONE}) {
      const std::uint32_t once = state_at(curve, d, previous);
      ASSERT_EQ(state_at(curve, d, once), once) << d << " after " << previous;
    }
  }
}

TEST(EntityLodFade, WithoutABandTheLevelIsSelectLevel) {
  LodCurveParams params;
  params.fade_band = 0.0f;
  const LodCurve curve = LodCurve::solve(params);
  for (float d = 0.0f; d < 250.0f; d += 0.05f) {
    for (std::uint32_t previous : {0u, 2u, CROWD_LOD_NONE}) {
      ASSERT_EQ(state_at(curve, d, previous), std::uint32_t(select_level(curve, d * d, 2.0f))) << d;
    }
  }
  const float s = 2.0f * curve.switch_ratio[1];
  EXPECT_EQ(decide_lod(curve, s * s, 2.0f, 0u), 2u);
  const float below = std::nextafter(s, 0.0f);
  EXPECT_EQ(decide_lod(curve, below * below, 2.0f, 2u), 1u);
}

}  // namespace
}  // namespace myriad::crowd
