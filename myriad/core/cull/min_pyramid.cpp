#include "myriad/core/cull/min_pyramid.hpp"

#include <algorithm>

#include "myriad/core/io/error.hpp"

namespace myriad {

std::uint32_t min_pyramid_levels(std::uint32_t source_width, std::uint32_t source_height) {
  std::uint32_t w = std::max(1u, source_width / 2), h = std::max(1u, source_height / 2);
  std::uint32_t levels = 1;
  while (w > 1 || h > 1) {
    w = std::max(1u, w / 2);
    h = std::max(1u, h / 2);
    ++levels;
  }
  return levels;
}

MinPyramidLevel min_reduce(std::span<const float> source, std::uint32_t width, std::uint32_t height) {
  if (width == 0 || height == 0 || source.size() != std::size_t(width) * height) {
    throw Error("min_reduce: source size does not match its dimensions");
  }
  MinPyramidLevel out;
  out.width = std::max(1u, width / 2);
  out.height = std::max(1u, height / 2);
  out.texels.resize(std::size_t(out.width) * out.height);
  for (std::uint32_t y = 0; y < out.height; ++y) {
    const std::uint32_t y0 = std::min(2 * y, height - 1);
    // The last row of an odd source also covers the row below the 2x2 block.
    const std::uint32_t y1 = (y == out.height - 1) ? height - 1 : std::min(2 * y + 1, height - 1);
    for (std::uint32_t x = 0; x < out.width; ++x) {
      const std::uint32_t x0 = std::min(2 * x, width - 1);
      const std::uint32_t x1 = (x == out.width - 1) ? width - 1 : std::min(2 * x + 1, width - 1);
      float m = source[std::size_t(y0) * width + x0];
      for (std::uint32_t sy = y0; sy <= y1; ++sy) {
        for (std::uint32_t sx = x0; sx <= x1; ++sx) m = std::min(m, source[std::size_t(sy) * width + sx]);
      }
      out.texels[std::size_t(y) * out.width + x] = m;
    }
  }
  return out;
}

std::vector<MinPyramidLevel> build_min_pyramid(std::span<const float> source, std::uint32_t width,
                                               std::uint32_t height) {
  std::vector<MinPyramidLevel> levels;
  const std::uint32_t count = min_pyramid_levels(width, height);
  levels.push_back(min_reduce(source, width, height));
  while (levels.size() < count) {
    const MinPyramidLevel& prev = levels.back();
    levels.push_back(min_reduce(prev.texels, prev.width, prev.height));
  }
  return levels;
}

}  // namespace myriad
