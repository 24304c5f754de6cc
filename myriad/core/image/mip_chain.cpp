#include "myriad/core/image/mip_chain.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/image/srgb.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace myriad {
namespace {

std::uint8_t to_srgb_byte(float linear) {
  return static_cast<std::uint8_t>(std::lround(linear_to_srgb(linear) * 255.0f));
}

}  // namespace

std::vector<std::vector<std::uint8_t>> mip_chain_srgb_rgba8(std::uint32_t width, std::uint32_t height,
                                                            std::span<const std::uint8_t> rgba8) {
  if (width == 0 || height == 0 || rgba8.size() != std::size_t{width} * height * 4)
    throw Error("mip chain: the image is empty or its bytes do not match its size", "mip_chain_srgb_rgba8");
  std::array<float, 256> linear{};
  for (int i = 0; i < 256; ++i)
    linear[static_cast<std::size_t>(i)] = srgb_to_linear(static_cast<float>(i) / 255.0f);
  std::vector<std::vector<std::uint8_t>> levels;
  levels.emplace_back(rgba8.begin(), rgba8.end());
  std::uint32_t w = width, h = height;
  while (w > 1 || h > 1) {
    const std::uint32_t nw = std::max(1u, w / 2), nh = std::max(1u, h / 2);
    const std::vector<std::uint8_t>& src = levels.back();
    std::vector<std::uint8_t> dst(std::size_t{nw} * nh * 4);
    for (std::uint32_t y = 0; y < nh; ++y) {
      // The source rows this texel covers: 2y and 2y+1, plus the last row when the height is odd.
      const std::uint32_t y0 = std::min(2 * y, h - 1),
                          y1 = (y + 1 == nh) ? h - 1 : std::min(2 * y + 1, h - 1);
      for (std::uint32_t x = 0; x < nw; ++x) {
        const std::uint32_t x0 = std::min(2 * x, w - 1),
                            x1 = (x + 1 == nw) ? w - 1 : std::min(2 * x + 1, w - 1);
        float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        std::uint32_t n = 0;
        for (std::uint32_t sy = y0; sy <= y1; ++sy) {
          for (std::uint32_t sx = x0; sx <= x1; ++sx) {
            const std::uint8_t* p = &src[(std::size_t{sy} * w + sx) * 4];
            for (int c = 0; c < 3; ++c) sum[c] += linear[p[c]];
            sum[3] += static_cast<float>(p[3]);
            ++n;
          }
        }
        std::uint8_t* d = &dst[(std::size_t{y} * nw + x) * 4];
        for (int c = 0; c < 3; ++c) d[c] = to_srgb_byte(sum[c] / static_cast<float>(n));
        d[3] = static_cast<std::uint8_t>(std::lround(sum[3] / static_cast<float>(n)));
      }
    }
    levels.push_back(std::move(dst));
    w = nw;
    h = nh;
  }
  return levels;
}

}  // namespace myriad
