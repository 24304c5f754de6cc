// The whole baker: the procedural enemy bakes within the hole limits into a .crowd file whose LODs
// name only VAT columns that exist and whose VAT holds no column no LOD uses; the real models bake or
// their report names the LOD and view that failed.
#include "myriad/crowd_bake/enemy.hpp"
#include "myriad/crowd_bake/pipeline.hpp"

#include "crowd_test_assets.hpp"

#include <gtest/gtest.h>

#include <set>

namespace myriad::crowd {
namespace {

void expect_consistent(const BakeOutput& out) {
  const CrowdFile& f = out.file;
  ASSERT_EQ(f.lods.size(), 3u);
  std::set<std::uint32_t> used;
  for (const CrowdLod& lod : f.lods) {
    for (std::uint32_t c : lod.columns) {
      EXPECT_LT(c, f.columns);
      used.insert(c);
    }
  }
  EXPECT_EQ(used.size(), f.columns) << "the VAT holds columns no LOD uses";
  EXPECT_EQ(f.texels.size(), std::size_t{f.rows} * f.columns);
  EXPECT_EQ(f.attachments.size(), f.columns - f.skinned_columns);
  // LOD0 and LOD1 share the texture; LOD1 vertices are LOD0 vertices, so they share columns.
  EXPECT_EQ(f.lods[0].texture, f.lods[1].texture);
  std::set<std::uint32_t> lod0_columns(f.lods[0].columns.begin(), f.lods[0].columns.end());
  for (std::uint32_t c : f.lods[1].columns) EXPECT_TRUE(lod0_columns.count(c));
  const BakeReport& r = out.report;
  EXPECT_LT(r.vat_bytes_after, r.vat_bytes_before);
  EXPECT_EQ(r.lods[0].vertices, f.lods[0].vertex_count());
  EXPECT_LT(r.lods[1].triangles, r.lods[0].triangles);
  EXPECT_LT(r.lods[2].vertices, r.lods[1].vertices);
  // The file round-trips.
  EXPECT_EQ(serialize_crowd(parse_crowd(serialize_crowd(f), "mem")), serialize_crowd(f));
}

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
  expect_consistent(out);
  const std::string text = format_report(out.report, options.holes);
  EXPECT_NE(text.find("VAT:"), std::string::npos);
  EXPECT_NE(text.find("LOD2"), std::string::npos);
}

void bake_real(const char* file) {
  BakeOptions options;
  const BakeOutput out = bake_crowd(load_shared_model(file), file, options);
  const std::string text = format_report(out.report, options.holes);
  if (out.report.passed) {
    expect_consistent(out);
  } else {
    EXPECT_NE(out.report.failure.find("LOD"), std::string::npos) << text;
    EXPECT_NE(out.report.failure.find("view"), std::string::npos) << text;
  }
  std::printf("%s", text.c_str());
}

TEST(Pipeline, BakesFoxOrNamesWhatFailed) { bake_real("Fox.glb"); }
TEST(Pipeline, BakesCesiumManOrNamesWhatFailed) { bake_real("cesium_man.gltf"); }

TEST(Pipeline, TightLimitsFailWithAReportNamingTheLodAndView) {
  BakeOptions options;
  options.holes.hole_limit = 0.0f;
  options.holes.loss_limit = 0.0f;
  options.retries = 0;
  options.lod2.target_triangles = 60;
  const BakeOutput out = bake_crowd(make_enemy(), "enemy", options);
  EXPECT_FALSE(out.report.passed);
  EXPECT_NE(out.report.failure.find("LOD2 failed the hole check"), std::string::npos) << out.report.failure;
  EXPECT_NE(out.report.failure.find("from view"), std::string::npos) << out.report.failure;
  EXPECT_EQ(out.report.lods[2].attempts, 1);
}

}  // namespace
}  // namespace myriad::crowd
