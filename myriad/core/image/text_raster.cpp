// stb_easy_font emits each glyph stroke as an axis-aligned quad (4 vertices of x, y, z floats + RGBA8);
// filling those quads' rectangles draws the text without any texture or font file.
#include "myriad/core/image/text_raster.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <stb_easy_font.h>

namespace myriad {
namespace {

struct FontVertex {
  float x, y, z;
  std::uint8_t color[4];
};
static_assert(sizeof(FontVertex) == 16);

// stb_easy_font indexes its tables with (char - 32): anything outside printable ASCII becomes '?'.
std::string printable(std::string_view text) {
  std::string s(text);
  for (char& c : s) {
    if (c != '\n' && (c < 32 || c > 126)) c = '?';
  }
  return s;
}

}  // namespace

int text_width(std::string_view text, int scale) {
  std::string s = printable(text);
  return stb_easy_font_width(s.data()) * scale;
}

void fill_rect(RgbaImageView image, int x0, int y0, int x1, int y1, Rgba8 color) {
  x0 = std::max(x0, 0);
  y0 = std::max(y0, 0);
  x1 = std::min(x1, static_cast<int>(image.width));
  y1 = std::min(y1, static_cast<int>(image.height));
  const unsigned a = color[3];
  for (int y = y0; y < y1; ++y) {
    std::uint8_t* row = image.pixels.data() + (static_cast<std::size_t>(y) * image.width) * 4;
    for (int x = x0; x < x1; ++x) {
      std::uint8_t* p = row + static_cast<std::size_t>(x) * 4;
      if (a == 255) {
        std::copy(color.begin(), color.end(), p);
        continue;
      }
      for (int c = 0; c < 3; ++c)
        p[c] = static_cast<std::uint8_t>((color[c] * a + p[c] * (255 - a) + 127) / 255);
      p[3] = static_cast<std::uint8_t>(std::max<unsigned>(p[3], a));
    }
  }
}

void draw_text(RgbaImageView image, int x, int y, std::string_view text, Rgba8 color, int scale) {
  std::string s = printable(text);
  // At most 4 quads per glyph on average; the font never needs more than ~12 per glyph.
  std::vector<FontVertex> quads(s.size() * 12 * 4 + 4);
  const int count = stb_easy_font_print(0.0f, 0.0f, s.data(), nullptr, quads.data(),
                                        static_cast<int>(quads.size() * sizeof(FontVertex)));
  for (int q = 0; q < count; ++q) {
    const FontVertex* v = &quads[static_cast<std::size_t>(q) * 4];
    const float min_x = std::min({v[0].x, v[1].x, v[2].x, v[3].x});
    const float max_x = std::max({v[0].x, v[1].x, v[2].x, v[3].x});
    const float min_y = std::min({v[0].y, v[1].y, v[2].y, v[3].y});
    const float max_y = std::max({v[0].y, v[1].y, v[2].y, v[3].y});
    fill_rect(image, x + static_cast<int>(std::lround(min_x * static_cast<float>(scale))),
              y + static_cast<int>(std::lround(min_y * static_cast<float>(scale))),
              x + static_cast<int>(std::lround(max_x * static_cast<float>(scale))),
              y + static_cast<int>(std::lround(max_y * static_cast<float>(scale))), color);
  }
}

}  // namespace myriad
