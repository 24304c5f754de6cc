#include "references.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace myriad::bench {
namespace {

Target at_most(double value) { return {"x.y_ns", Comparison::kAtMost, value, "", "test", false}; }
Target at_least(double value) { return {"x.ratio", Comparison::kAtLeast, value, "", "test", false}; }

TEST(BenchTargets, KeyPatterns) {
  EXPECT_TRUE(key_matches("core.octa_pack_ns", "core.octa_pack_ns"));
  EXPECT_FALSE(key_matches("core.octa_pack_ns", "core.octa_pack_ns2"));
  EXPECT_FALSE(key_matches("core.octa_pack_ns", "core.octa_pack"));
  EXPECT_TRUE(key_matches("crowd-bake.*_lod1_holes_pct", "crowd-bake.cesium_man_lod1_holes_pct"));
  EXPECT_TRUE(key_matches("crowd-bake.*_lod1_holes_pct", "crowd-bake._lod1_holes_pct"));
  EXPECT_FALSE(key_matches("crowd-bake.*_lod1_holes_pct", "crowd-bake.fox_lod2_holes_pct"));
  EXPECT_FALSE(key_matches("crowd-bake.*_lod1_holes_pct", "crowd.fox_lod1_holes_pct"));
  EXPECT_TRUE(key_matches("a*b*c", "a_b_b_c"));
  EXPECT_FALSE(key_matches("a*b*c", "a_c_b"));
}

TEST(BenchTargets, AtMostIsMetUpToTheThresholdIncluded) {
  const Target t = at_most(6.5);
  EXPECT_EQ(judge(t, 6.5, {}).met, true);
  EXPECT_EQ(judge(t, 1.0, {}).met, true);
  EXPECT_EQ(judge(t, 6.51, {}).met, false);
  EXPECT_EQ(judge(t, 7.0, {}).threshold, 6.5);
}

TEST(BenchTargets, AtLeastIsMetFromTheThresholdUp) {
  const Target t = at_least(4.0);
  EXPECT_EQ(judge(t, 4.0, {}).met, true);
  EXPECT_EQ(judge(t, 4.33, {}).met, true);
  EXPECT_EQ(judge(t, 3.99, {}).met, false);
}

TEST(BenchTargets, NonFiniteValuesAreNotJudged) {
  const Verdict v = judge(at_most(1.0), std::numeric_limits<double>::quiet_NaN(), {});
  EXPECT_EQ(v.threshold, 1.0);
  EXPECT_FALSE(v.met.has_value());
}

TEST(BenchTargets, RelativeTargetUsesTheOtherFigure) {
  const Target t{"veg.tree_ns", Comparison::kAtMost, 1.0, "veg.floor_ns", "test", false};
  const FigureLookup floor_137 = [](std::string_view key) -> std::optional<double> {
    if (key == "veg.floor_ns") return 1.37;
    return std::nullopt;
  };
  const Verdict below = judge(t, 0.32, floor_137);
  ASSERT_TRUE(below.threshold.has_value());
  EXPECT_DOUBLE_EQ(*below.threshold, 1.37);
  EXPECT_EQ(below.met, true);
  EXPECT_EQ(judge(t, 1.5, floor_137).met, false);
  // Without the floor figure there is nothing to compare with.
  const Verdict missing = judge(t, 0.32, [](std::string_view) { return std::optional<double>(); });
  EXPECT_FALSE(missing.threshold.has_value());
  EXPECT_FALSE(missing.met.has_value());
}

TEST(BenchTargets, QuickRunsDoNotJudgeFullSizeTargets) {
  Target t = at_least(10e6);
  t.full_run_only = true;
  EXPECT_EQ(judge(t, 5e6, {}, false).met, false);
  const Verdict quick = judge(t, 5e6, {}, true);
  EXPECT_EQ(quick.threshold, 10e6);
  EXPECT_FALSE(quick.met.has_value());
  EXPECT_EQ(judge(at_most(6.5), 7.0, {}, true).met, false);  // per-operation targets still count
}

TEST(BenchTargets, TableFindsTheSpecTargets) {
  const Target* l2m = find_target(reference_targets(), "batch.local_to_model_ns_per_joint");
  ASSERT_NE(l2m, nullptr);
  EXPECT_EQ(l2m->comparison, Comparison::kAtMost);
  EXPECT_DOUBLE_EQ(l2m->value, 6.5);
  const Target* holes = find_target(reference_targets(), "crowd-bake.fox_lod2_holes_pct");
  ASSERT_NE(holes, nullptr);
  EXPECT_DOUBLE_EQ(holes->value, 1.0);
  const Target* clothed = find_target(reference_targets(), "batch.matrices_clothed_ratio");
  ASSERT_NE(clothed, nullptr);
  EXPECT_EQ(clothed->comparison, Comparison::kAtLeast);
  EXPECT_EQ(find_target(reference_targets(), "crowd-bake.fox_lod2_vertices"), nullptr);
  EXPECT_EQ(find_target(reference_targets(), "core.octa_pack_ns"), nullptr);
  for (const Target& t : reference_targets()) {
    EXPECT_FALSE(t.source.empty()) << t.key;
    EXPECT_TRUE(std::isfinite(t.value) && t.value > 0.0) << t.key;
  }
}

TEST(BenchTargets, Description) {
  EXPECT_EQ(describe_target(at_most(6.5), "ns"), "\xE2\x89\xA4 6.5 ns");
  EXPECT_EQ(describe_target(at_least(4.0), "", true), ">= 4");
  const Target rel{"a", Comparison::kAtMost, 1.0, "veg.floor_ns", "test", false};
  EXPECT_EQ(describe_target(rel, "ns", true), "<= 1 x veg.floor_ns");
}

TEST(BenchTargets, ValuesPrintWholeNumbersInFull) {
  EXPECT_EQ(format_value(1539520.0), "1539520");
  EXPECT_EQ(format_value(0.0), "0");
  EXPECT_EQ(format_value(-3.0), "-3");
  EXPECT_EQ(format_value(8.7594), "8.759");
  EXPECT_EQ(format_value(2.5e12), "2.5e+12");
  EXPECT_EQ(format_value(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_value(std::numeric_limits<double>::quiet_NaN()), "nan");
}

}  // namespace
}  // namespace myriad::bench
