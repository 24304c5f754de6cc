#include "myriad/crowd/entity_lod.hpp"

#include "myriad/core/error.hpp"

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
}

}  // namespace
}  // namespace myriad::crowd
