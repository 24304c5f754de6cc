// CPU text drawing: glyphs land inside their measured box, scale multiplies the box, clipping at the
// image border never writes outside the pixels, and blending of fill_rect follows alpha.
#include <gtest/gtest.h>

#include <vector>

#include "myriad/core/image/text_raster.hpp"

namespace myriad {
namespace {

struct Bounds {
  int min_x = 1 << 30, min_y = 1 << 30, max_x = -1, max_y = -1;
  int count = 0;
};

Bounds painted(const std::vector<std::uint8_t>& px, std::uint32_t w, std::uint32_t h) {
  Bounds b;
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      if (px[(y * w + x) * 4] == 0) continue;
      ++b.count;
      b.min_x = std::min(b.min_x, int(x));
      b.min_y = std::min(b.min_y, int(y));
      b.max_x = std::max(b.max_x, int(x));
      b.max_y = std::max(b.max_y, int(y));
    }
  return b;
}

TEST(TextRaster, GlyphsStayInsideTheirMeasuredBox) {
  const std::uint32_t w = 200, h = 60;
  std::vector<std::uint8_t> px(w * h * 4, 0);
  draw_text({px, w, h}, 10, 20, "Myriad 42", {255, 255, 255, 255});
  const Bounds b = painted(px, w, h);
  ASSERT_GT(b.count, 40);
  EXPECT_GE(b.min_x, 10);
  EXPECT_LT(b.max_x, 10 + text_width("Myriad 42"));
  EXPECT_GE(b.min_y, 20);
  EXPECT_LT(b.max_y, 20 + kTextLineHeight);
}

TEST(TextRaster, ScaleMultipliesTheBoxAndNewlinesAddLines) {
  const std::uint32_t w = 300, h = 120;
  std::vector<std::uint8_t> one(w * h * 4, 0), two(w * h * 4, 0);
  draw_text({one, w, h}, 0, 0, "ABC", {255, 0, 0, 255});
  draw_text({two, w, h}, 0, 0, "ABC", {255, 0, 0, 255}, 2);
  const Bounds a = painted(one, w, h), b = painted(two, w, h);
  EXPECT_EQ(text_width("ABC", 2), 2 * text_width("ABC"));
  EXPECT_NEAR(b.max_x + 1, 2 * (a.max_x + 1), 1);
  EXPECT_NEAR(b.count, 4 * a.count, a.count / 4);
  std::vector<std::uint8_t> lines(w * h * 4, 0);
  draw_text({lines, w, h}, 0, 0, "A\nA", {255, 0, 0, 255});
  EXPECT_GE(painted(lines, w, h).max_y, kTextLineHeight);
  EXPECT_EQ(text_width("A\nAB"), text_width("AB"));
}

TEST(TextRaster, ClipsAtTheBorderAndReplacesUnprintableCharacters) {
  const std::uint32_t w = 16, h = 8;
  std::vector<std::uint8_t> px(w * h * 4 + 64, 7);  // guard bytes after the image
  draw_text({std::span(px.data(), w * h * 4), w, h}, -5, -3, "WWWWWWWW\x01\xff", {255, 255, 255, 255}, 3);
  for (std::size_t i = w * h * 4; i < px.size(); ++i) ASSERT_EQ(px[i], 7);
  EXPECT_EQ(text_width("\x01"), text_width("?"));
}

TEST(TextRaster, FillRectBlendsByAlpha) {
  const std::uint32_t w = 4, h = 4;
  std::vector<std::uint8_t> px(w * h * 4, 0);
  fill_rect({px, w, h}, 1, 1, 3, 3, {200, 100, 50, 255});
  EXPECT_EQ(px[(1 * w + 1) * 4], 200);
  EXPECT_EQ(px[0], 0);
  fill_rect({px, w, h}, 0, 0, 4, 4, {0, 0, 0, 128});
  EXPECT_EQ(px[(1 * w + 1) * 4], (200 * 127 + 127) / 255);
  EXPECT_EQ(px[(1 * w + 1) * 4 + 3], 255);
}

}  // namespace
}  // namespace myriad
