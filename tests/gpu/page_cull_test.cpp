// CullPages on the GPU equals the CPU reference for random cameras and slice heights: the same set of
// pages per arena, the same instance counts, draws sized by each arena's bucket.
#include <algorithm>
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/render/page_cull.hpp"

namespace myriad::test {
namespace {

using render::shader::ArenaCullGpu;
using render::shader::DrawCommand;
using render::shader::PageGpu;

class PageCullTest : public GpuTest {};

TEST_F(PageCullTest, MatchesCpuReferenceForRandomCamerasAndSlices) {
  // A 256 x 64 x 256 world of 16^3 sections = 1024 page slots, some empty, spread over 7 arenas.
  constexpr std::uint32_t kArenas = 7;
  std::mt19937 rng(5);
  std::vector<PageGpu> pages;
  std::vector<std::uint32_t> per_arena(kArenas, 0);
  for (std::uint32_t z = 0; z < 16; ++z) {
    for (std::uint32_t y = 0; y < 4; ++y) {
      for (std::uint32_t x = 0; x < 16; ++x) {
        PageGpu p{};
        p.aabb_min = glm::vec3(float(x * 16), float(y * 16), float(z * 16));
        // Pages are tight bounds of their geometry: often smaller than the section.
        p.aabb_max = p.aabb_min + glm::vec3(16.0f, float(1 + rng() % 16), 16.0f);
        p.arena = (rng() % 5 == 0) ? 0xffffffffu : std::uint32_t(rng() % kArenas);
        p.index_count = 30 + std::uint32_t(rng() % 900);
        if (p.arena != 0xffffffffu) ++per_arena[p.arena];
        pages.push_back(p);
      }
    }
  }
  std::vector<ArenaCullGpu> arenas(kArenas);
  std::uint32_t base = 0;
  for (std::uint32_t a = 0; a < kArenas; ++a) {
    arenas[a] = {base, 96u << a};
    base += per_arena[a];
  }
  const auto page_count = std::uint32_t(pages.size());
  gpu::Buffer page_buf(ctx(), pages.size() * sizeof(PageGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                       gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer arena_buf(ctx(), arenas.size() * sizeof(ArenaCullGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                        gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer draws(ctx(), kArenas * sizeof(DrawCommand),
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                    gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer visible(ctx(), std::max(base, 1u) * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                      gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), page_buf, std::span<const PageGpu>(pages));
  gpu::upload(ctx(), arena_buf, std::span<const ArenaCullGpu>(arenas));
  const std::vector<DrawCommand> initial = render::initial_page_draws(arenas);
  render::PageCuller culler(ctx());
  const gpu::AppendOverflow overflow(ctx());

  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::size_t total_visible = 0, total_placed = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const glm::vec3 eye(u(rng) * 256.0f, 20.0f + u(rng) * 80.0f, u(rng) * 256.0f);
    const glm::vec3 target(u(rng) * 256.0f, u(rng) * 30.0f, u(rng) * 256.0f);
    const glm::mat4 vp =
        perspective(glm::radians(40.0f + 40.0f * u(rng)), 1.6f, 0.5f, 60.0f + 300.0f * u(rng), true) *
        glm::lookAt(eye, target, kWorldUp);
    const Frustum frustum = Frustum::from_view_proj(vp, DepthConvention::kReverseZ);
    const float slice = trial % 3 == 0 ? 1e30f : 8.0f + 50.0f * u(rng);
    const auto expected = render::cull_pages_reference(pages, kArenas, frustum, slice);

    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      culler.record(cmd, frustum, slice, page_buf, page_count, arena_buf, initial, draws, visible, overflow);
    });
    EXPECT_EQ(overflow.read(), 0u);
    const auto got_draws = gpu::read_buffer_as<DrawCommand>(ctx(), draws, kArenas);
    const auto got_visible = gpu::read_buffer_as<std::uint32_t>(ctx(), visible, std::max(base, 1u));
    for (std::uint32_t a = 0; a < kArenas; ++a) {
      EXPECT_EQ(got_draws[a].vertex_count, arenas[a].bucket_size);
      EXPECT_EQ(got_draws[a].first_instance, arenas[a].visible_base);
      EXPECT_EQ(got_draws[a].first_vertex, 0u);
      ASSERT_EQ(got_draws[a].instance_count, expected[a].size()) << "arena " << a << " trial " << trial;
      std::vector<std::uint32_t> ids(
          got_visible.begin() + arenas[a].visible_base,
          got_visible.begin() + arenas[a].visible_base + got_draws[a].instance_count);
      std::sort(ids.begin(), ids.end());
      EXPECT_EQ(ids, expected[a]) << "arena " << a << " trial " << trial;
      total_visible += expected[a].size();
      total_placed += per_arena[a];
    }
  }
  // The cameras and slices exercise both outcomes.
  EXPECT_GT(total_visible, 0u);
  EXPECT_LT(total_visible, total_placed);
}

}  // namespace
}  // namespace myriad::test
