// Page-slot arenas (V10): slack, in-place reuse, relocation, new arenas, no growth, and randomized
// rebuild sequences that never overlap ranges and never lose a page.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "myriad/core/error.hpp"
#include "myriad/render/terrain/page_arenas.hpp"

namespace myriad::render {
namespace {

PageArenaOptions small_config() {
  PageArenaOptions c;
  c.vertex_capacity = 4000;
  c.index_capacity = 6000;
  return c;
}

TEST(DrawBucket, BoundsTheIndexCountWithLessThanHalfSurplus) {
  for (std::uint32_t n = 1; n < 200000; n += 7) {
    const std::uint32_t size = draw_bucket_size(draw_bucket_for(n));
    ASSERT_GE(size, n);
    if (n > 64) {
      ASSERT_LT(size - n, n / 2 + 1) << n;
    }
  }
  EXPECT_EQ(draw_bucket_size(0), 64u);
  EXPECT_EQ(draw_bucket_size(1), 96u);
  EXPECT_EQ(draw_bucket_size(2), 128u);
}

TEST(PageArenas, AllocationCarriesSlackAndRebuildsInPlace) {
  PageArenas arenas(8, small_config());
  EXPECT_EQ(arenas.place(0, 0, 100, 150), PlaceOutcome::kNewArena);
  const PagePlacement first = arenas.placement(0);
  EXPECT_EQ(first.vertices.size, 150u);  // 100 + 50 slack
  EXPECT_EQ(first.indices.size, 200u);   // 150 + 50 slack
  // Grows within the slack and within the bucket (150 -> 190, bucket 192): same ranges.
  EXPECT_EQ(arenas.place(0, 0, 140, 190), PlaceOutcome::kInPlace);
  EXPECT_EQ(arenas.placement(0).vertices, first.vertices);
  EXPECT_EQ(arenas.placement(0).indices, first.indices);
  EXPECT_EQ(arenas.placement(0).index_count, 190u);
}

TEST(PageArenas, OutgrowingRangesOrBucketRelocates) {
  PageArenas arenas(8, small_config());
  arenas.place(0, 0, 100, 150);
  arenas.place(1, 0, 100, 150);
  // More vertices than the range holds: moves within the same category and bucket.
  EXPECT_EQ(arenas.place(0, 0, 160, 180), PlaceOutcome::kMoved);
  EXPECT_EQ(arenas.arenas().size(), 1u);
  // More indices than the bucket bounds (150 -> 300 needs bucket 384): a new arena of that bucket.
  EXPECT_EQ(arenas.place(1, 0, 100, 300), PlaceOutcome::kNewArena);
  EXPECT_EQ(arenas.arenas().size(), 2u);
  EXPECT_EQ(draw_bucket_size(arenas.arenas()[1].bucket), 384u);
  // Another category never shares an arena.
  EXPECT_EQ(arenas.place(2, 1, 10, 30), PlaceOutcome::kNewArena);
  EXPECT_EQ(arenas.arenas()[arenas.placement(2).arena].category, 1u);
}

TEST(PageArenas, FullArenaSpillsIntoANewOneAndNeverGrows) {
  PageArenas arenas(64, small_config());
  for (std::uint32_t p = 0; p < 40; ++p) arenas.place(p, 0, 450, 180);
  for (const PageArena& a : arenas.arenas()) {
    EXPECT_EQ(a.vertices.capacity(), 4000u);
    EXPECT_EQ(a.indices.capacity(), 6000u);
    EXPECT_LE(a.page_count, 8u);  // 4000 / (450 + 50)
  }
  EXPECT_EQ(arenas.arenas().size(), 5u);
  EXPECT_THROW(arenas.place(41, 0, 5000, 10), Error);
}

TEST(PageArenas, EmptyGeometryRemovesThePage) {
  PageArenas arenas(4, small_config());
  arenas.place(3, 0, 10, 12);
  EXPECT_EQ(arenas.place(3, 0, 0, 0), PlaceOutcome::kRemoved);
  EXPECT_FALSE(arenas.placement(3).placed());
  EXPECT_EQ(arenas.arenas()[0].page_count, 0u);
  EXPECT_EQ(arenas.arenas()[0].vertices.used(), 0u);
}

TEST(PageArenas, RandomizedRebuildsNeverOverlapOrLosePages) {
  constexpr std::uint32_t kPages = 300;
  PageArenas arenas(kPages, small_config());
  std::mt19937 rng(42);
  std::uniform_int_distribution<std::uint32_t> page(0, kPages - 1), verts(0, 600), category(0, 2);
  std::vector<std::uint32_t> cat(kPages, 0), vc(kPages, 0), ic(kPages, 0);
  std::size_t arenas_before = 0;
  for (int step = 0; step < 20000; ++step) {
    const std::uint32_t p = page(rng);
    // Mostly small edits of an existing page (what voxel edits do), sometimes a category change.
    if (rng() % 10 == 0) cat[p] = category(rng);
    vc[p] = (rng() % 8 == 0) ? 0 : verts(rng);
    ic[p] = vc[p] == 0 ? 0 : vc[p] * 3 / 2 + std::uint32_t(rng() % 40);
    arenas.place(p, cat[p], vc[p], ic[p]);
    ASSERT_GE(arenas.arenas().size(), arenas_before);  // arenas are never destroyed or shrunk
    arenas_before = arenas.arenas().size();
  }
  // Every page is where it should be, with its counts; ranges never overlap within an arena.
  std::vector<std::vector<std::uint8_t>> vused(arenas.arenas().size()), iused(arenas.arenas().size());
  std::vector<std::uint32_t> pages_in(arenas.arenas().size(), 0);
  for (std::size_t a = 0; a < arenas.arenas().size(); ++a) {
    vused[a].assign(arenas.config().vertex_capacity, 0);
    iused[a].assign(arenas.config().index_capacity, 0);
  }
  for (std::uint32_t p = 0; p < kPages; ++p) {
    const PagePlacement& pl = arenas.placement(p);
    if (vc[p] == 0) {
      ASSERT_FALSE(pl.placed()) << p;
      continue;
    }
    ASSERT_TRUE(pl.placed()) << p;
    const PageArena& a = arenas.arenas()[pl.arena];
    EXPECT_EQ(a.category, cat[p]);
    EXPECT_LE(ic[p], draw_bucket_size(a.bucket));
    EXPECT_EQ(pl.vertex_count, vc[p]);
    EXPECT_EQ(pl.index_count, ic[p]);
    ASSERT_LE(vc[p], pl.vertices.size);
    ASSERT_LE(ic[p], pl.indices.size);
    ++pages_in[pl.arena];
    for (std::uint32_t i = pl.vertices.offset; i < pl.vertices.offset + pl.vertices.size; ++i) {
      ASSERT_EQ(vused[pl.arena][i]++, 0) << "vertex overlap in arena " << pl.arena;
    }
    for (std::uint32_t i = pl.indices.offset; i < pl.indices.offset + pl.indices.size; ++i) {
      ASSERT_EQ(iused[pl.arena][i]++, 0) << "index overlap in arena " << pl.arena;
    }
  }
  for (std::size_t a = 0; a < arenas.arenas().size(); ++a) {
    EXPECT_EQ(arenas.arenas()[a].page_count, pages_in[a]);
    EXPECT_EQ(arenas.arenas()[a].vertices.allocation_count(), pages_in[a]);
  }
}

}  // namespace
}  // namespace myriad::render
