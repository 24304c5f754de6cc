#include "myriad/view/stats_panel.hpp"

#include <gtest/gtest.h>

#include <string>

namespace myriad::view {
namespace {

Rgba8 pixel(const PanelImage& p, std::uint32_t x, std::uint32_t y) {
  const std::size_t i = (std::size_t(y) * p.width + x) * 4;
  return {p.rgba[i], p.rgba[i + 1], p.rgba[i + 2], p.rgba[i + 3]};
}

std::size_t count(const PanelImage& p, Rgba8 color) {
  std::size_t n = 0;
  for (std::uint32_t y = 0; y < p.height; ++y) {
    for (std::uint32_t x = 0; x < p.width; ++x) n += pixel(p, x, y) == color;
  }
  return n;
}

TEST(StatsPanel, FitsTheTextOnAnOpaqueBackground) {
  const std::vector<std::string> lines{"60.0 FPS   16.67 ms/frame", "visible 1234"};
  const PanelImage panel = layout_panel(lines, 1);
  EXPECT_EQ(panel.width, std::uint32_t(text_width(lines[0], 1) + 12));
  EXPECT_EQ(panel.height, std::uint32_t(2 * kTextLineHeight + 12));
  ASSERT_EQ(panel.rgba.size(), std::size_t(panel.width) * panel.height * 4);
  EXPECT_EQ(pixel(panel, 0, 0), kPanelBackground);
  EXPECT_EQ(pixel(panel, panel.width - 1, panel.height - 1), kPanelBackground);
  const std::size_t text = count(panel, kPanelText);
  EXPECT_GT(text, 100u);
  EXPECT_EQ(text + count(panel, kPanelBackground), std::size_t(panel.width) * panel.height);
}

TEST(StatsPanel, ScaleDoublesTheSize) {
  const PanelImage one = layout_panel({"abc", "def"}, 1);
  const PanelImage two = layout_panel({"abc", "def"}, 2);
  EXPECT_EQ(two.width - 12, 2 * (one.width - 12));
  EXPECT_EQ(two.height - 12, 2 * (one.height - 12));
  EXPECT_GT(count(two, kPanelText), 3 * count(one, kPanelText));
}

TEST(StatsPanel, CroppedToTheMaximumSize) {
  const std::vector<std::string> lines(200, std::string(400, 'M'));
  const PanelImage panel = layout_panel(lines, 2);
  EXPECT_EQ(panel.width, kPanelMaxWidth);
  EXPECT_EQ(panel.height, kPanelMaxHeight);
}

}  // namespace
}  // namespace myriad::view
