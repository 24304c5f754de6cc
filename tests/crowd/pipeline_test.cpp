// The whole baker on the procedural enemy: within the hole limits, a .crowd file whose LODs name only
// VAT columns that exist and whose VAT holds no column no LOD uses; with impossible limits every chain
// falls back to the level above, or (without that step) keeps the closest try and says so. The shared
// and generated models are in bake_models_test.cpp.
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/pipeline.hpp"

#include "crowd_bake_checks.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>

#include "myriad/core/io/error.hpp"
#include "error_where.hpp"

namespace myriad::crowd {
namespace {

TEST(Pipeline, BakesTheProceduralEnemyWithinTheLimits) {
  BakeOptions options;
  int last = 0;
  const BakeOutput out =
      bake_crowd(make_enemy(), "enemy", options, [&](const std::string&, int done, int total) {
        EXPECT_EQ(done, last + 1);
        EXPECT_LE(done, total);
        last = done;
      });
  EXPECT_TRUE(out.report.passed) << format_report(out.report, options.holes);
  EXPECT_EQ(out.report.welded_vertices < out.report.original_vertices, true);
  test::expect_consistent(out);
  const std::string text = format_report(out.report, options.holes);
  EXPECT_NE(text.find("VAT:"), std::string::npos);
  EXPECT_NE(text.find("LOD2"), std::string::npos);
}

TEST(Pipeline, TightLimitsFallBackAndSayWhichLevelIsOutside) {
  BakeOptions options;
  options.holes.hole_limit = 1e-6f;
  options.holes.loss_limit = 1e-6f;
  options.holes.silhouette_limit = 1e-6f;
  options.retries = 0;
  options.lod2.target_triangles = 60;
  // With the level above as the last step, every chain ends on a copy that holds exactly.
  const BakeOutput fallback = bake_crowd(make_enemy(), "enemy", options);
  EXPECT_TRUE(fallback.report.passed) << format_report(fallback.report, options.holes);
  EXPECT_EQ(fallback.report.lods[1].method, LodMethod::kLevelAbove);
  EXPECT_EQ(fallback.report.lods[2].method, LodMethod::kLevelAbove);
  EXPECT_EQ(fallback.report.lods[2].vertices, fallback.report.lods[1].vertices);
  EXPECT_EQ(fallback.file.lods[2].method, "level above");
  EXPECT_FALSE(fallback.report.warnings.empty());
  // Without it, the closest try is kept and labelled as outside the limits.
  options.level_above_fallback = false;
  const BakeOutput out = bake_crowd(make_enemy(), "enemy", options);
  EXPECT_FALSE(out.report.passed);
  EXPECT_NE(out.report.failure.find("LOD2 ("), std::string::npos) << out.report.failure;
  EXPECT_NE(out.report.failure.find("from view"), std::string::npos) << out.report.failure;
  // Still a complete file: the closest level of each chain, labelled as outside the limits.
  ASSERT_EQ(out.file.lods.size(), 3u);
  EXPECT_FALSE(out.file.lods[2].within_limits);
  EXPECT_TRUE(out.file.lods[2].checked);
  EXPECT_FALSE(out.report.warnings.empty());
  EXPECT_GE(out.report.lods[2].tried.size(), 3u);  // voxel, region, simplified further, level above
}

using myriad::test::where_of;

// The baker's options check themselves in one place, the nested stages' options first, each naming the
// field it rejects; bake_crowd refuses them before any stage runs.
TEST(Pipeline, OptionsNameTheFirstInvalidField) {
  EXPECT_EQ(where_of([] { BakeOptions{}.validate(); }), "");
  BakeOptions o;
  o.holes.hole_limit = 0.0f;
  EXPECT_EQ(where_of([&] { o.validate(); }), "HoleCheckOptions::hole_limit");
  EXPECT_EQ(where_of([&] { (void)bake_crowd(make_enemy(), "enemy", o); }), "HoleCheckOptions::hole_limit");
  o = {};
  o.vat.fps = 1000.0f;
  EXPECT_EQ(where_of([&] { o.validate(); }), "VatOptions::fps");
  o = {};
  o.weld.normal_angle_deg = -1.0f;
  EXPECT_EQ(where_of([&] { o.validate(); }), "WeldOptions::normal_angle_deg");
  o = {};
  o.retries = -1;  // the chains would record no attempt
  EXPECT_EQ(where_of([&] { o.validate(); }), "BakeOptions::retries");
  // A target LOD2 takes, but one its last retry (3 x 80 more) would not.
  o = {};
  o.lod2.target_triangles = kMaxLod2Triangles - 100;
  EXPECT_EQ(where_of([&] { o.lod2.validate(); }), "");
  EXPECT_EQ(where_of([&] { o.validate(); }), "BakeOptions::lod2.target_triangles");
  o.retries = 1;
  EXPECT_EQ(where_of([&] { o.validate(); }), "");
}

TEST(Pipeline, EnemyOptionsNameTheInvalidField) {
  EXPECT_EQ(where_of([] { EnemyOptions{}.validate(); }), "");
  EXPECT_EQ(where_of([] { (void)make_enemy({.tube_sides = 2}); }), "EnemyOptions::tube_sides");
  EXPECT_EQ(where_of([] { (void)make_enemy({.texture_size = 8192}); }), "EnemyOptions::texture_size");
}

}  // namespace
}  // namespace myriad::crowd
