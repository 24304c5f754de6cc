#include "chart.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace myriad::bench {
namespace {

using Pixel = std::array<std::uint8_t, 4>;

Pixel pixel(const ChartImage& chart, int x, int y) {
  const std::size_t i = (std::size_t(y) * std::size_t(chart.layout.width) + std::size_t(x)) * 4;
  return {chart.rgba[i], chart.rgba[i + 1], chart.rgba[i + 2], chart.rgba[i + 3]};
}

Pixel rgba(const std::uint8_t (&c)[4]) { return {c[0], c[1], c[2], c[3]}; }

const std::vector<Target> kTargets{{"s.time_ns", Comparison::kAtMost, 10.0, "", "spec", false},
                                   {"s.speed", Comparison::kAtLeast, 4.0, "", "spec", false}};

TEST(BenchChart, BarsForFiguresWithATargetOrAnAnchor) {
  const AnchorSet anchors = parse_anchors(
      R"({"format": "myriad-benchmark-anchors", "version": 1, "machines": {"vm": "2 cores"}, "anchors": {
        "s.other_ms": {"value": 4, "unit": "ms", "date": "d", "machine": "vm", "command": "myriad bench s"},
        "s.time_ns": {"value": 8, "unit": "ns", "date": "d", "machine": "vm", "command": "myriad bench s"}}})",
      "test");
  const std::vector<Figure> figures{{"s.time_ns", 5.0, "ns", ""},
                                    {"s.plain", 1.0, "", ""},
                                    {"s.other_ms", 6.0, "ms", ""},
                                    {"s.speed", 2.0, "", ""}};
  const std::vector<ChartBar> bars = chart_bars(evaluate(figures, kTargets, &anchors, false));
  ASSERT_EQ(bars.size(), 3u);  // s.plain has neither
  EXPECT_EQ(bars[0].label, "s.time_ns");
  EXPECT_EQ(bars[0].basis, ChartBar::Basis::kTarget);
  EXPECT_DOUBLE_EQ(bars[0].ratio, 0.5);
  ASSERT_TRUE(bars[0].anchor_ratio.has_value());
  EXPECT_DOUBLE_EQ(*bars[0].anchor_ratio, 0.8);
  EXPECT_EQ(bars[0].met, true);
  EXPECT_EQ(bars[1].basis, ChartBar::Basis::kAnchor);
  EXPECT_DOUBLE_EQ(bars[1].ratio, 1.5);
  EXPECT_EQ(bars[2].met, false);  // 2 < 4
  EXPECT_DOUBLE_EQ(bars[2].ratio, 0.5);
}

// A figure at half its target: the axis runs to 1.5 over 480 pixels, so the bar is 160 pixels long,
// green, and the background starts right after it.
TEST(BenchChart, BarLengthIsValueOverTarget) {
  const std::vector<Figure> figures{{"s.time_ns", 5.0, "ns", ""}};
  const std::vector<ChartBar> bars = chart_bars(evaluate(figures, kTargets, nullptr, false));
  ASSERT_EQ(bars.size(), 1u);
  const ChartImage chart = draw_chart(bars, "test");
  const ChartLayout& L = chart.layout;
  ASSERT_EQ(chart.rgba.size(), std::size_t(L.width) * std::size_t(L.height) * 4);
  EXPECT_DOUBLE_EQ(L.max_ratio, 1.5);
  EXPECT_EQ(L.bar_length(0.5), 160);
  EXPECT_EQ(L.bar_length(1.0), 320);
  const int y = L.bar_top(0) + L.row_height / 2;
  EXPECT_EQ(pixel(chart, L.bar_x, y), rgba(chart_colors::kMet));
  EXPECT_EQ(pixel(chart, L.bar_x + 159, y), rgba(chart_colors::kMet));
  EXPECT_EQ(pixel(chart, L.bar_x + 160, y), rgba(chart_colors::kBackground));
  EXPECT_EQ(pixel(chart, L.bar_x - 1, y), rgba(chart_colors::kBackground));
  EXPECT_EQ(pixel(chart, L.bar_x + 320, y), rgba(chart_colors::kMarker));  // the 1.0 line
}

TEST(BenchChart, MissedAndOverlongBars) {
  const std::vector<Figure> figures{{"s.time_ns", 100.0, "ns", ""}, {"s.speed", 2.0, "", ""}};
  const ChartImage chart = draw_chart(chart_bars(evaluate(figures, kTargets, nullptr, false)), "test");
  const ChartLayout& L = chart.layout;
  EXPECT_DOUBLE_EQ(L.max_ratio, 4.0);  // 10x the target is cut at the axis cap
  const int y0 = L.bar_top(0) + L.row_height / 2;
  EXPECT_EQ(pixel(chart, L.bar_x + L.bar_length(4.0) - 1, y0), rgba(chart_colors::kMissed));
  const int y1 = L.bar_top(1) + L.row_height / 2;
  EXPECT_EQ(L.bar_length(0.5), 60);
  EXPECT_EQ(pixel(chart, L.bar_x + 59, y1), rgba(chart_colors::kMissed));
  EXPECT_EQ(pixel(chart, L.bar_x + 61, y1), rgba(chart_colors::kBackground));
}

TEST(BenchChart, EmptyRunStillDraws) {
  const ChartImage chart = draw_chart({}, "nothing");
  EXPECT_GT(chart.layout.width, 0);
  EXPECT_GT(chart.layout.height, chart.layout.first_row_y);
  EXPECT_EQ(chart.rgba.size(), std::size_t(chart.layout.width) * std::size_t(chart.layout.height) * 4);
}

}  // namespace
}  // namespace myriad::bench
