// Page geometry reaches exactly its arena ranges on the GPU; a frame with no change uploads nothing;
// rebuilding one page uploads only that page's bytes (V10, V13).
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/render/terrain/page_arena_buffers.hpp"

namespace myriad::test {
namespace {

constexpr std::uint32_t kStride = 28;

struct PageData {
  std::vector<std::byte> vertices;
  std::vector<std::uint32_t> indices;
};

PageData random_page(std::mt19937& rng, std::uint32_t vertex_count, std::uint32_t index_count) {
  PageData d;
  d.vertices.resize(std::size_t(vertex_count) * kStride);
  for (auto& b : d.vertices) b = std::byte(rng() & 0xff);
  d.indices.resize(index_count);
  for (auto& i : d.indices) i = std::uint32_t(rng() % vertex_count);
  return d;
}

class PageArenaBuffersTest : public GpuTest {};

TEST_F(PageArenaBuffersTest, UploadsLandInPlaceAndOnlyOnChange) {
  render::PageArenaOptions config;
  config.vertex_capacity = 3000;
  config.index_capacity = 5000;
  render::PageArenas arenas(32, config);
  render::PageArenaBuffers buffers(ctx(), kStride, 1u << 20);
  std::mt19937 rng(11);
  std::vector<PageData> pages(32);
  std::uint64_t expected_bytes = 0;
  for (std::uint32_t p = 0; p < 32; ++p) {
    const std::uint32_t vc = 20 + std::uint32_t(rng() % 400), ic = vc * 3 / 2;
    pages[p] = random_page(rng, vc, ic);
    arenas.place(p, p % 2, vc, ic);
    buffers.write(arenas, p, pages[p].vertices, pages[p].indices);
    expected_bytes += pages[p].vertices.size() + pages[p].indices.size() * 4;
  }
  std::uint64_t uploaded = 0;
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { uploaded = buffers.record_uploads(cmd, arenas); });
  EXPECT_EQ(uploaded, expected_bytes);
  EXPECT_GE(buffers.arena_count(), 2u);

  auto check_page = [&](std::uint32_t p) {
    const render::PagePlacement& pl = arenas.placement(p);
    const auto v = gpu::read_buffer(ctx(), buffers.vertex_buffer(pl.arena),
                                    VkDeviceSize(pl.vertices.offset) * kStride, pages[p].vertices.size());
    EXPECT_EQ(v, pages[p].vertices) << "page " << p;
    const auto i = gpu::read_buffer_as<std::uint32_t>(
        ctx(), buffers.index_buffer(pl.arena), pages[p].indices.size(), VkDeviceSize(pl.indices.offset) * 4);
    EXPECT_EQ(i, pages[p].indices) << "page " << p;
  };
  for (std::uint32_t p = 0; p < 32; ++p) check_page(p);

  // A frame where nothing changed uploads nothing.
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { uploaded = buffers.record_uploads(cmd, arenas); });
  EXPECT_EQ(uploaded, 0u);

  // Rebuilding one page uploads exactly that page, in place or moved; all others stay intact.
  const render::PagePlacement before = arenas.placement(7);
  pages[7] = random_page(rng, before.vertex_count + 10, before.index_count + 5);
  arenas.place(7, 1, before.vertex_count + 10, before.index_count + 5);
  buffers.write(arenas, 7, pages[7].vertices, pages[7].indices);
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { uploaded = buffers.record_uploads(cmd, arenas); });
  EXPECT_EQ(uploaded, pages[7].vertices.size() + pages[7].indices.size() * 4);
  for (std::uint32_t p = 0; p < 32; ++p) check_page(p);
}

TEST_F(PageArenaBuffersTest, MismatchedCountsAndFullStagingAreErrors) {
  render::PageArenas arenas(2, render::PageArenaOptions{});
  render::PageArenaBuffers buffers(ctx(), kStride, 1024);
  std::mt19937 rng(1);
  arenas.place(0, 0, 10, 12);
  PageData wrong = random_page(rng, 11, 12);
  EXPECT_THROW(buffers.write(arenas, 0, wrong.vertices, wrong.indices), Error);
  arenas.place(1, 0, 100, 120);
  PageData big = random_page(rng, 100, 120);
  EXPECT_THROW(buffers.write(arenas, 1, big.vertices, big.indices), Error);
  EXPECT_EQ(buffers.pending_bytes(), 0u);                                        // nothing half-staged
  EXPECT_THROW(buffers.write(arenas, 1, wrong.vertices, wrong.indices), Error);  // page 1 holds 100 vertices
}

}  // namespace
}  // namespace myriad::test
