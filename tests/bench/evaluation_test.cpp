#include "evaluation.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace myriad::bench {
namespace {

const std::vector<Target> kTargets{
    {"s.time_ns", Comparison::kAtMost, 10.0, "", "spec", false},
    {"s.count", Comparison::kAtLeast, 100.0, "", "spec", true},
};

AnchorSet anchors() {
  return parse_anchors(R"({"format": "myriad-benchmark-anchors", "version": 1, "machines": {"vm": "2 cores"},
    "anchors": {
      "s.time_ns": {"value": 8, "unit": "ns", "date": "2026-11-30", "machine": "vm", "command": "myriad bench s"},
      "s.bytes": {"value": 1000, "unit": "KiB", "date": "2026-11-30", "machine": "vm", "command": "myriad bench s"},
      "s.zero": {"value": 0, "unit": "", "date": "2026-11-30", "machine": "vm", "command": "myriad bench s"}}})",
                       "test");
}

std::vector<Figure> figures() {
  return {{"s.time_ns", 12.0, "ns", "article: 10 ns"},
          {"s.count", 50.0, "", ""},
          {"s.bytes", 2000.0, "bytes", ""},
          {"s.zero", 3.0, "", ""},
          {"s.plain", 1.0, "ms", ""}};
}

TEST(BenchEvaluation, TargetsAndAnchorsPerFigure) {
  const AnchorSet a = anchors();
  const std::vector<Row> rows = evaluate(figures(), kTargets, &a, false);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].verdict.met, false);  // 12 > 10
  ASSERT_TRUE(rows[0].anchor_ratio.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].anchor_ratio, 1.5);
  EXPECT_EQ(rows[1].verdict.met, false);  // 50 < 100
  EXPECT_TRUE(rows[2].anchor.has_value());
  EXPECT_FALSE(rows[2].anchor_ratio.has_value());  // KiB vs bytes: no ratio
  EXPECT_FALSE(rows[3].anchor_ratio.has_value());  // anchor 0
  EXPECT_EQ(rows[4].target, nullptr);
  EXPECT_FALSE(rows[4].anchor.has_value());

  const std::vector<Row> quick = evaluate(figures(), kTargets, nullptr, true);
  EXPECT_FALSE(quick[1].verdict.met.has_value());  // a full-size target in a quick run
  EXPECT_FALSE(quick[0].anchor.has_value());
}

TEST(BenchEvaluation, TableLines) {
  const AnchorSet a = anchors();
  const std::vector<Row> rows = evaluate(figures(), kTargets, &a, false);
  const std::string missed = table_line(rows[0]);
  EXPECT_NE(missed.find("NOT"), std::string::npos) << missed;
  EXPECT_NE(missed.find("\xE2\x89\xA4 10"), std::string::npos) << missed;
  EXPECT_NE(missed.find("1.50"), std::string::npos) << missed;
  EXPECT_NE(missed.find("article: 10 ns"), std::string::npos) << missed;
  const std::string plain = table_line(rows[4]);
  // target, met, anchor, ratio and reference all show a dash.
  std::size_t dashes = 0;
  for (std::size_t at = plain.find("\xE2\x80\x94"); at != std::string::npos;
       at = plain.find("\xE2\x80\x94", at + 1))
    ++dashes;
  EXPECT_EQ(dashes, 5u) << plain;
  const std::vector<Figure> met_figure{{"s.time_ns", 9.0, "ns", ""}};
  EXPECT_NE(table_line(evaluate(met_figure, kTargets, nullptr, false)[0]).find(" met "), std::string::npos);
  // Columns stay aligned whatever the symbols: the value column ends at the same place.
  EXPECT_EQ(table_header().find("value") + 5, 44u + 1u + 11u);
}

TEST(BenchEvaluation, Json) {
  const AnchorSet a = anchors();
  const std::vector<Row> rows = evaluate(figures(), kTargets, &a, false);
  RunInfo run = describe_this_machine();
  run.suites = {"s"};
  run.repetitions = 3;
  const nlohmann::ordered_json j = to_json(rows, run);
  EXPECT_EQ(j["format"], "myriad-bench-results");
  EXPECT_EQ(j["version"], 2);
  EXPECT_EQ(j["run"]["suites"][0], "s");
  EXPECT_EQ(j["run"]["repetitions"], 3);
  EXPECT_TRUE(j["run"]["anchors_file"].is_null());
  EXPECT_FALSE(j["run"]["date"].get<std::string>().empty());
  EXPECT_DOUBLE_EQ(j["values"]["s.time_ns"].get<double>(), 12.0);
  const auto& first = j["figures"][0];
  EXPECT_EQ(first["key"], "s.time_ns");
  EXPECT_EQ(first["reference"], "article: 10 ns");
  EXPECT_EQ(first["target"]["comparison"], "<=");
  EXPECT_EQ(first["target"]["met"], false);
  EXPECT_DOUBLE_EQ(first["anchor"]["ratio"].get<double>(), 1.5);
  EXPECT_EQ(first["anchor"]["machine"], "2 cores");
  EXPECT_TRUE(j["figures"][4]["target"].is_null());
  EXPECT_TRUE(j["figures"][4]["anchor"].is_null());
  EXPECT_TRUE(j["figures"][4]["reference"].is_null());
  EXPECT_TRUE(j["figures"][2]["anchor"]["ratio"].is_null());
}

}  // namespace
}  // namespace myriad::bench
