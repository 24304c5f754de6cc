#include "chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "myriad/core/image/text_raster.hpp"

namespace myriad::bench {
namespace {

constexpr int kMargin = 12;
constexpr int kTitleHeight = 2 * kTextLineHeight + 6;  // title at scale 2
constexpr int kLegendHeight = kTextLineHeight + 6;
constexpr int kAxisHeight = kTextLineHeight + 8;
constexpr int kBarArea = 480;
constexpr int kNoteWidth = 300;
constexpr int kLabelCap = 330;
constexpr double kAxisFloor = 1.5;  // the 1.0 marker never sits at the right edge
constexpr double kAxisCap = 4.0;    // a bar 40x over its target would squash the others

Rgba8 color(const std::uint8_t (&c)[4]) { return {c[0], c[1], c[2], c[3]}; }

const Rgba8 kText{30, 30, 30, 255};
const Rgba8 kGrid{205, 205, 200, 255};

std::string ascii_only(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;  // UTF-8 continuation
    out += static_cast<unsigned char>(c) < 0x80 ? c : '?';
  }
  return out;
}

Rgba8 bar_color(const ChartBar& bar) {
  if (bar.basis == ChartBar::Basis::kAnchor) return color(chart_colors::kAnchor);
  if (!bar.met) return color(chart_colors::kUnjudged);
  return *bar.met ? color(chart_colors::kMet) : color(chart_colors::kMissed);
}

}  // namespace

std::vector<ChartBar> chart_bars(std::span<const Row> rows) {
  std::vector<ChartBar> bars;
  for (const Row& row : rows) {
    const Figure& f = row.figure;
    if (!std::isfinite(f.value)) continue;
    const std::string value = format_value(f.value) + (f.unit.empty() ? "" : " " + f.unit);
    ChartBar bar;
    bar.label = f.key;
    if (row.target && row.verdict.threshold && *row.verdict.threshold > 0.0) {
      const double threshold = *row.verdict.threshold;
      bar.basis = ChartBar::Basis::kTarget;
      bar.ratio = f.value / threshold;
      bar.met = row.verdict.met;
      if (row.anchor && row.anchor->unit == f.unit) bar.anchor_ratio = row.anchor->value / threshold;
      bar.note = value + ", target " + comparison_symbol(row.target->comparison, true) + " " +
                 format_value(threshold);
    } else if (row.anchor_ratio) {
      bar.basis = ChartBar::Basis::kAnchor;
      bar.ratio = *row.anchor_ratio;
      bar.note = value + ", anchor " + format_value(row.anchor->value);
    } else {
      continue;
    }
    bars.push_back(std::move(bar));
  }
  return bars;
}

int ChartLayout::bar_length(double ratio) const {
  const double clamped = std::clamp(std::isfinite(ratio) ? ratio : 0.0, 0.0, max_ratio);
  return static_cast<int>(std::lround(clamped * pixels_per_unit));
}

ChartLayout chart_layout(std::span<const ChartBar> bars) {
  ChartLayout layout;
  int label_width = 0;
  double longest = 0.0;
  for (const ChartBar& bar : bars) {
    label_width = std::max(label_width, text_width(bar.label));
    if (std::isfinite(bar.ratio)) longest = std::max(longest, bar.ratio);
    if (bar.anchor_ratio && std::isfinite(*bar.anchor_ratio)) longest = std::max(longest, *bar.anchor_ratio);
  }
  layout.max_ratio = std::clamp(std::ceil(longest * 2.0) / 2.0, kAxisFloor, kAxisCap);
  layout.bar_x = kMargin + std::min(label_width, kLabelCap) + 10;
  layout.pixels_per_unit = double(kBarArea) / layout.max_ratio;
  layout.row_height = 15;
  layout.bar_height = 9;
  layout.first_row_y = kMargin + kTitleHeight + kLegendHeight + kAxisHeight;
  layout.width = layout.bar_x + kBarArea + 14 + kNoteWidth + kMargin;
  const int rows = std::max<int>(1, static_cast<int>(bars.size()));
  layout.height = layout.first_row_y + rows * layout.row_height + kMargin;
  return layout;
}

ChartImage draw_chart(std::span<const ChartBar> bars, std::string_view title) {
  ChartImage chart;
  chart.layout = chart_layout(bars);
  const ChartLayout& L = chart.layout;
  chart.rgba.resize(std::size_t(L.width) * std::size_t(L.height) * 4);
  const RgbaImageView image{chart.rgba, std::uint32_t(L.width), std::uint32_t(L.height)};
  fill_rect(image, 0, 0, L.width, L.height, color(chart_colors::kBackground));

  draw_text(image, kMargin, kMargin, ascii_only(title), kText, 2);
  int legend_x = kMargin;
  const int legend_y = kMargin + kTitleHeight;
  const auto legend = [&](Rgba8 swatch, const char* text) {
    fill_rect(image, legend_x, legend_y + 1, legend_x + 10, legend_y + 9, swatch);
    draw_text(image, legend_x + 14, legend_y, text, kText);
    legend_x += 14 + text_width(text) + 18;
  };
  legend(color(chart_colors::kMet), "target met");
  legend(color(chart_colors::kMissed), "target not met");
  legend(color(chart_colors::kUnjudged), "target not judged");
  legend(color(chart_colors::kAnchor), "no target: value / recorded anchor");
  legend(color(chart_colors::kMarker), "| anchor on a target bar");

  // Axis: ticks every 0.5 with labels; the 1.0 marker runs through every row.
  const int axis_y = L.first_row_y - kAxisHeight;
  for (double r = 0.0; r <= L.max_ratio + 1e-9; r += 0.5) {
    const int x = L.bar_x + L.bar_length(r);
    fill_rect(image, x, axis_y + kTextLineHeight, x + 1, L.first_row_y - 2, kGrid);
    const std::string label = format_value(r);
    draw_text(image, x - text_width(label) / 2, axis_y, label, kText);
  }
  if (bars.empty()) {
    draw_text(image, L.bar_x, L.first_row_y + 2, "no figure of this run has a target or an anchor", kText);
  }
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const ChartBar& bar = bars[i];
    const int top = L.bar_top(i);
    const int bar_y = top + (L.row_height - L.bar_height) / 2;
    std::string label = ascii_only(bar.label);
    while (!label.empty() && text_width(label) > kLabelCap) label.pop_back();
    draw_text(image, L.bar_x - 10 - text_width(label), top + 2, label, kText);
    const int length = L.bar_length(bar.ratio);
    fill_rect(image, L.bar_x, bar_y, L.bar_x + length, bar_y + L.bar_height, bar_color(bar));
    if (bar.ratio > L.max_ratio) draw_text(image, L.bar_x + length + 2, top + 2, ">", kText);  // cut short
    if (bar.anchor_ratio) {
      const int x = L.bar_x + L.bar_length(*bar.anchor_ratio);
      fill_rect(image, x - 1, top + 1, x + 1, top + L.row_height - 1, color(chart_colors::kMarker));
    }
    draw_text(image, L.bar_x + kBarArea + 14, top + 2, ascii_only(bar.note), kText);
  }
  const int marker_x = L.bar_x + L.bar_length(1.0);
  fill_rect(image, marker_x, axis_y + kTextLineHeight, marker_x + 1, L.height - kMargin / 2,
            color(chart_colors::kMarker));
  return chart;
}

}  // namespace myriad::bench
