// The sRGB mip chain: Vulkan's level sizes down to 1 x 1, 2 x 2 averages in linear light (black and
// white make sRGB 188, not 128), alpha averaged as is, odd edges folded in, bad input refused.
#include "myriad/core/io/error.hpp"
#include "myriad/core/image/mip_chain.hpp"

#include <gtest/gtest.h>

#include <array>

namespace myriad {
namespace {

std::vector<std::uint8_t> image(std::uint32_t w, std::uint32_t h, auto&& texel) {
  std::vector<std::uint8_t> out;
  out.reserve(std::size_t{w} * h * 4);
  for (std::uint32_t y = 0; y < h; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      // push_back, not insert of the array: GCC 12 warns falsely (stringop-overflow) on the insert.
      for (const std::uint8_t b : texel(x, y)) out.push_back(b);
    }
  }
  return out;
}

TEST(MipChain, LevelSizesMatchVulkans) {
  const auto levels = mip_chain_srgb_rgba8(10, 3, image(10, 3, [](auto, auto) {
                                             return std::array<std::uint8_t, 4>{10, 20, 30, 40};
                                           }));
  // 10x3 -> 5x1 -> 2x1 -> 1x1: max(1, size >> level).
  ASSERT_EQ(levels.size(), 4u);
  const std::uint32_t widths[] = {10, 5, 2, 1};
  for (std::size_t l = 0; l < levels.size(); ++l) {
    EXPECT_EQ(levels[l].size(), std::size_t{widths[l]} * std::max(1u, 3u >> l) * 4) << l;
    // A flat image stays flat at every level.
    for (std::size_t i = 0; i < levels[l].size(); i += 4) {
      EXPECT_EQ(levels[l][i], 10);
      EXPECT_EQ(levels[l][i + 3], 40);
    }
  }
}

TEST(MipChain, AveragesInLinearLight) {
  // A 2x2 checker of black and white with alpha 0 and 255.
  const auto levels = mip_chain_srgb_rgba8(2, 2, image(2, 2, [](std::uint32_t x, std::uint32_t y) {
                                             const std::uint8_t v = (x + y) % 2 ? 255 : 0;
                                             return std::array<std::uint8_t, 4>{v, v, v, v};
                                           }));
  ASSERT_EQ(levels.size(), 2u);
  ASSERT_EQ(levels[1].size(), 4u);
  EXPECT_EQ(levels[1][0], 188);  // sRGB of linear 0.5
  EXPECT_EQ(levels[1][3], 128);  // alpha: (0 + 255 + 255 + 0) / 4 rounded
}

TEST(MipChain, FoldsTheOddEdgeIntoTheLastTexel) {
  // 3x1: texels 0, 0, 255 (red). Level 1 is 1x1 and averages all three.
  const auto levels =
      mip_chain_srgb_rgba8(3, 1, image(3, 1, [](std::uint32_t x, std::uint32_t) {
                             return std::array<std::uint8_t, 4>{std::uint8_t(x == 2 ? 255 : 0), 0, 0, 255};
                           }));
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[1][0], 156);  // sRGB of linear 1/3
}

TEST(MipChain, RefusesMismatchedBytes) {
  EXPECT_THROW(mip_chain_srgb_rgba8(2, 2, std::vector<std::uint8_t>(12)), Error);
  EXPECT_THROW(mip_chain_srgb_rgba8(0, 2, {}), Error);
}

}  // namespace
}  // namespace myriad
