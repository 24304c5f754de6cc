// CPU min-pyramid over a float image: the reference for the GPU depth pyramid and the CPU side of
// Hi-Z occlusion tests. Level 0 halves the source (rounding down, at least 1); each texel is the
// minimum of the 2x2 texels below it, widened to 3 at the last column/row of an odd-sized source,
// so every source texel is covered (conservative).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace myriad {

struct MinPyramidLevel {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<float> texels;  // row-major
  float at(std::uint32_t x, std::uint32_t y) const { return texels[std::size_t(y) * width + x]; }
};

// Number of levels until 1x1 for a pyramid over a source of the given size.
std::uint32_t min_pyramid_levels(std::uint32_t source_width, std::uint32_t source_height);

// One reduction step (the rule above).
MinPyramidLevel min_reduce(std::span<const float> source, std::uint32_t width, std::uint32_t height);

std::vector<MinPyramidLevel> build_min_pyramid(std::span<const float> source, std::uint32_t width,
                                               std::uint32_t height);

}  // namespace myriad
