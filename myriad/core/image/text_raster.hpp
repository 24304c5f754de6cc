// Text into RGBA8 images on the CPU (stb_easy_font's built-in vector font, drawn as filled
// rectangles): labels of benchmark charts and the viewer's on-screen stats panel.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace myriad {

// A view of width*height RGBA8 pixels, rows top to bottom.
struct RgbaImageView {
  std::span<std::uint8_t> pixels;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
};

using Rgba8 = std::array<std::uint8_t, 4>;

// Height of one text line in font units (scale 1 = one pixel per unit): glyphs are 7 units tall.
inline constexpr int kTextLineHeight = 12;

// Width in pixels of `text` at `scale` (the longest line when it has several).
int text_width(std::string_view text, int scale = 1);

// Draws `text` with its top-left corner at (x, y) pixels, each font unit `scale` pixels; '\n' starts
// a new line. Pixels outside the image are clipped. Opaque colour (no blending).
void draw_text(RgbaImageView image, int x, int y, std::string_view text, Rgba8 color, int scale = 1);

// Fills the rectangle [x0, x1) x [y0, y1), clipped to the image; alpha < 255 blends over the image.
void fill_rect(RgbaImageView image, int x0, int y0, int x1, int y1, Rgba8 color);

}  // namespace myriad
