// (c) The GPU depth pyramid (texelFetch for level 0, MIN-reduction sampler above) equals the CPU
// min pyramid at every level, for even, odd and degenerate sizes, from R32F and from D32 sources.
#include <cstring>
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/cull/min_pyramid.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"

namespace myriad::test {
namespace {

class DepthPyramidTest : public GpuTest,
                         public ::testing::WithParamInterface<std::pair<std::uint32_t, std::uint32_t>> {};

void check_pyramid(gpu::Context& ctx, VkFormat format, std::uint32_t w, std::uint32_t h, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> depth(0.0f, 1.0f);
  std::vector<float> source(std::size_t(w) * h);
  for (float& d : source) d = depth(rng);

  const VkImageUsageFlags usage =
      VK_IMAGE_USAGE_SAMPLED_BIT |
      (format == VK_FORMAT_D32_SFLOAT ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : 0);
  gpu::Image image(ctx, {format, w, h, 1, usage});
  const VkImageLayout layout = format == VK_FORMAT_D32_SFLOAT ? VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL
                                                              : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  gpu::upload_image(ctx, image, std::as_bytes(std::span(source)), layout);

  render::DepthPyramid pyramid(ctx, w, h);
  ctx.submit_and_wait([&](VkCommandBuffer cmd) { pyramid.record(cmd, image.view(), layout); });

  const auto expected = build_min_pyramid(source, w, h);
  ASSERT_EQ(pyramid.levels(), expected.size());
  for (std::uint32_t level = 0; level < pyramid.levels(); ++level) {
    const auto bytes = gpu::read_image(ctx, pyramid.image(), VK_IMAGE_LAYOUT_GENERAL, level);
    ASSERT_EQ(pyramid.image().width(level), expected[level].width) << "level " << level;
    ASSERT_EQ(pyramid.image().height(level), expected[level].height) << "level " << level;
    std::vector<float> got(expected[level].texels.size());
    ASSERT_EQ(bytes.size(), got.size() * sizeof(float));
    std::memcpy(got.data(), bytes.data(), bytes.size());
    std::uint32_t mismatches = 0;
    for (std::size_t i = 0; i < got.size(); ++i) mismatches += got[i] != expected[level].texels[i];
    EXPECT_EQ(mismatches, 0u) << "level " << level << " of " << w << "x" << h;
  }
}

TEST_P(DepthPyramidTest, EqualsCpuMinPyramidFromR32f) {
  const auto [w, h] = GetParam();
  check_pyramid(ctx(), VK_FORMAT_R32_SFLOAT, w, h, w * 131 + h);
}

TEST_P(DepthPyramidTest, EqualsCpuMinPyramidFromDepthBuffer) {
  const auto [w, h] = GetParam();
  check_pyramid(ctx(), VK_FORMAT_D32_SFLOAT, w, h, w * 17 + h * 3);
}

INSTANTIATE_TEST_SUITE_P(Sizes, DepthPyramidTest,
                         ::testing::Values(std::pair{64u, 64u}, std::pair{123u, 77u}, std::pair{255u, 1u},
                                           std::pair{1u, 37u}, std::pair{3u, 3u}, std::pair{200u, 113u}),
                         [](const auto& param_info) {
                           return std::to_string(param_info.param.first) + "x" +
                                  std::to_string(param_info.param.second);
                         });

}  // namespace
}  // namespace myriad::test
