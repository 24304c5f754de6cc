// The chart picture of a `myriad bench` run: one horizontal bar per figure that has a target or an
// anchor. A bar's length is the figure's value relative to its target threshold (or, without a target,
// to its anchor), with a marker line at 1.0: for an "at most" target a met bar ends left of the line,
// for an "at least" target right of it. Drawn on the CPU with the built-in font.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "evaluation.hpp"

namespace myriad::bench {

struct ChartBar {
  enum class Basis { kTarget, kAnchor };
  std::string label;  // the figure key
  Basis basis = Basis::kTarget;
  double ratio = 0.0;                  // value / threshold, or value / anchor
  std::optional<double> anchor_ratio;  // anchor / threshold, drawn as a tick when the basis is a target
  std::optional<bool> met;             // target verdict; absent for anchor bars and unjudged targets
  std::string note;                    // text right of the bar: value, unit and what it is against
};

// Rows with a judged threshold or a usable anchor ratio become bars, in row order.
std::vector<ChartBar> chart_bars(std::span<const Row> rows);

struct ChartLayout {
  int width = 0;
  int height = 0;
  int bar_x = 0;                 // x of ratio 0
  double pixels_per_unit = 0.0;  // pixels for a ratio of 1.0
  double max_ratio = 0.0;        // axis end; longer bars stop there with an arrow
  int first_row_y = 0;
  int row_height = 0;
  int bar_height = 0;

  int bar_length(double ratio) const;  // pixels, clamped to [0, max_ratio]
  int bar_top(std::size_t index) const { return first_row_y + int(index) * row_height; }
};

ChartLayout chart_layout(std::span<const ChartBar> bars);

struct ChartImage {
  ChartLayout layout;
  std::vector<std::uint8_t> rgba;  // layout.width * layout.height RGBA8, rows top to bottom
};

// `title`: first line of the picture (suites, date, machine).
ChartImage draw_chart(std::span<const ChartBar> bars, std::string_view title);

// Colours of the picture, for tests that read pixels back.
namespace chart_colors {
inline constexpr std::uint8_t kBackground[4] = {250, 250, 248, 255};
inline constexpr std::uint8_t kMet[4] = {58, 150, 82, 255};
inline constexpr std::uint8_t kMissed[4] = {205, 64, 52, 255};
inline constexpr std::uint8_t kUnjudged[4] = {150, 150, 150, 255};
inline constexpr std::uint8_t kAnchor[4] = {66, 112, 196, 255};
inline constexpr std::uint8_t kMarker[4] = {20, 20, 20, 255};
}  // namespace chart_colors

}  // namespace myriad::bench
