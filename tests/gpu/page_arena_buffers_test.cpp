// Page geometry reaches exactly its arena ranges on the GPU; a frame with no change uploads nothing;
// rebuilding one page uploads only that page's bytes (V10, V13).
#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/thread/worker_pool.hpp"
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

bool wait_for_spare(const render::PageArenaBuffers& buffers) {
  for (int i = 0; i < 10000 && !buffers.spare_ready(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return buffers.spare_ready();
}

// With fixed arena capacities the next arena's buffers are made on a worker: an arena opened while the
// spare is not ready makes its own (counted as missed), one opened after takes the spare; every page's
// geometry lands in its ranges either way, and the memory figures count the spare.
TEST_F(PageArenaBuffersTest, ArenasTakeTheSpareMadeOnAWorkerOrMakeTheirOwn) {
  render::PageArenaOptions config;  // fixed capacities
  config.vertex_capacity = 3000;
  config.index_capacity = 5000;
  const VkDeviceSize vertex_bytes = VkDeviceSize(config.vertex_capacity) * kStride;
  const VkDeviceSize index_bytes = VkDeviceSize(config.index_capacity) * 4;
  auto pool = std::make_shared<WorkerPool>(1);  // outlives `buffers`, which waits for its spare job
  // The pool's one thread is held until `release`: the first spare cannot be made yet.
  std::atomic<bool> release{false};
  WorkerPool::Job blocker;
  pool->push(
      blocker,
      [&release](WorkerPool::Local&) {
        while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      },
      -1);
  render::PageArenas arenas(64, config);
  render::PageArenaBuffers buffers(ctx(), kStride, 4u << 20);
  buffers.keep_spare(pool, vertex_bytes, index_bytes);
  EXPECT_FALSE(buffers.spare_ready());

  std::mt19937 rng(3);
  std::vector<PageData> pages;
  auto add_page = [&] {
    const auto p = std::uint32_t(pages.size());
    const std::uint32_t vc = 300 + std::uint32_t(rng() % 200), ic = vc * 3 / 2;
    pages.push_back(random_page(rng, vc, ic));
    arenas.place(p, 0, vc, ic);
    buffers.write(arenas, p, pages[p].vertices, pages[p].indices);
  };
  add_page();  // opens the first arena while the spare waits behind the blocker
  EXPECT_EQ(buffers.spare_stats().missed, 1u);
  EXPECT_EQ(buffers.spare_stats().taken, 0u);
  EXPECT_EQ(buffers.arena_count(), 1u);
  release = true;
  ASSERT_TRUE(wait_for_spare(buffers));
  EXPECT_EQ(buffers.gpu_vertex_bytes(), 2 * vertex_bytes);  // the arena's and the spare's
  EXPECT_EQ(buffers.gpu_index_bytes(), 2 * index_bytes);

  for (std::uint64_t opened = 1; opened <= 3; ++opened) {
    const std::size_t arenas_before = arenas.arenas().size();
    while (arenas.arenas().size() == arenas_before) add_page();
    EXPECT_EQ(buffers.spare_stats().taken, opened);
    EXPECT_EQ(buffers.spare_stats().missed, 1u);
    ASSERT_TRUE(wait_for_spare(buffers));  // the next spare was started when this one was taken
  }
  EXPECT_EQ(buffers.arena_count(), 4u);
  EXPECT_EQ(buffers.gpu_vertex_bytes(), 5 * vertex_bytes);
  for (std::uint32_t a = 1; a < 4; ++a)
    for (std::uint32_t b = 0; b < a; ++b) {
      EXPECT_NE(buffers.vertex_buffer(a).handle(), buffers.vertex_buffer(b).handle());
      EXPECT_NE(buffers.index_buffer(a).handle(), buffers.index_buffer(b).handle());
    }
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { (void)buffers.record_uploads(cmd, arenas); });
  for (std::uint32_t p = 0; p < pages.size(); ++p) {
    const render::PagePlacement& pl = arenas.placement(p);
    EXPECT_EQ(gpu::read_buffer(ctx(), buffers.vertex_buffer(pl.arena),
                               VkDeviceSize(pl.vertices.offset) * kStride, pages[p].vertices.size()),
              pages[p].vertices)
        << "page " << p;
    EXPECT_EQ(
        gpu::read_buffer_as<std::uint32_t>(ctx(), buffers.index_buffer(pl.arena), pages[p].indices.size(),
                                           VkDeviceSize(pl.indices.offset) * 4),
        pages[p].indices)
        << "page " << p;
  }
}

}  // namespace
}  // namespace myriad::test
