// Page-slot arenas (V10): slack, in-place reuse, relocation, new arenas, no growth, and randomized
// rebuild sequences that never overlap ranges and never lose a page.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/render/terrain/page_arenas.hpp"
#include "myriad/render/voxel/stream_terrain.hpp"
#include "error_where.hpp"

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

TEST(PageArenas, OutgrowingRangesRelocatesAndBucketsFollowThePage) {
  PageArenas arenas(8, small_config());
  arenas.place(0, 0, 100, 150);
  arenas.place(1, 0, 100, 150);
  EXPECT_EQ(arenas.arenas()[0].bucket_pages[draw_bucket_for(150)], 2u);
  // More vertices than the range holds: moves within the same arena.
  EXPECT_EQ(arenas.place(0, 0, 160, 180), PlaceOutcome::kMoved);
  EXPECT_EQ(arenas.arenas().size(), 1u);
  // A bigger bucket within the ranges stays in place: the bucket belongs to the page (60 -> 200
  // indices, 64 -> 256 bucket, within the 150 + 50 index range).
  arenas.place(2, 0, 10, 60);
  const PagePlacement small = arenas.placement(2);
  EXPECT_EQ(arenas.place(2, 0, 10, 110), PlaceOutcome::kInPlace);
  EXPECT_EQ(arenas.placement(2).indices, small.indices);
  EXPECT_EQ(draw_bucket_size(arenas.placement(2).bucket), 128u);
  EXPECT_EQ(arenas.arenas()[0].bucket_pages[draw_bucket_for(60)], 0u);
  EXPECT_EQ(arenas.arenas()[0].bucket_pages[draw_bucket_for(110)], 1u);
  // Another category or another region never shares an arena.
  EXPECT_EQ(arenas.place(3, 1, 10, 30), PlaceOutcome::kNewArena);
  EXPECT_EQ(arenas.arenas()[arenas.placement(3).arena].category, 1u);
  EXPECT_EQ(arenas.place(4, 0, 10, 30, 5), PlaceOutcome::kNewArena);
  EXPECT_EQ(arenas.arenas()[arenas.placement(4).arena].region, 5u);
  // Moving a page to another region moves it to an arena of that region.
  EXPECT_EQ(arenas.place(1, 0, 100, 150, 5), PlaceOutcome::kMoved);
  EXPECT_EQ(arenas.placement(1).arena, arenas.placement(4).arena);
}

PageArenaOptions fitted_config() {
  PageArenaOptions c;
  c.vertex_capacity = 100000;  // the most an open arena takes
  c.index_capacity = 150000;
  c.fit_to_content = true;
  c.min_vertex_growth = 40;
  c.min_index_growth = 60;
  return c;
}

TEST(PageArenas, SealingFitsOpenArenasToTheirContentPlusAReserve) {
  PageArenas arenas(64, fitted_config());
  for (std::uint32_t p = 0; p < 20; ++p) arenas.place(p, 0, 400, 600, p % 2);  // two regions
  ASSERT_EQ(arenas.arenas().size(), 2u);
  EXPECT_FALSE(arenas.arenas()[0].sealed);
  EXPECT_EQ(arenas.seal(), 2u);
  EXPECT_EQ(arenas.seal(), 0u);  // nothing left open
  for (const PageArena& a : arenas.arenas()) {
    EXPECT_TRUE(a.sealed);
    // 10 pages of 400 + 50 vertices and 600 + 50 indices, plus an eighth.
    EXPECT_EQ(a.vertices.capacity(), 4500u + 562u);
    EXPECT_EQ(a.indices.capacity(), 6500u + 812u);
    EXPECT_GE(double(a.vertices.used()) / a.vertices.capacity(), 0.85);
  }
  // An edit that outgrows its range moves into the reserve of its region's arena.
  EXPECT_EQ(arenas.place(0, 0, 480, 700, 0), PlaceOutcome::kMoved);
  EXPECT_EQ(arenas.placement(0).arena, 0u);
  // The reserve is used up: a spill arena of the region, open until the next seal, then at least a
  // quarter of the region's sealed capacity.
  EXPECT_EQ(arenas.place(2, 0, 900, 1000, 0), PlaceOutcome::kNewArena);
  const std::uint32_t spill = arenas.placement(2).arena;
  EXPECT_EQ(arenas.arenas()[spill].region, 0u);
  EXPECT_FALSE(arenas.arenas()[spill].sealed);
  // A page too big for the holes of the sealed arena goes into the open spill arena.
  EXPECT_EQ(arenas.place(40, 0, 100, 110, 2), PlaceOutcome::kNewArena);  // another region's
  EXPECT_EQ(arenas.place(41, 0, 950, 1000, 0), PlaceOutcome::kMoved);
  EXPECT_EQ(arenas.placement(41).arena, spill);
  arenas.remove(41);
  arenas.seal();
  EXPECT_EQ(arenas.arenas()[spill].vertices.capacity(), (4500u + 562u) / 4);
  EXPECT_EQ(arenas.arenas()[spill].indices.capacity(), (6500u + 812u) / 4);
  // Sealed capacities never change again.
  for (std::uint32_t p = 0; p < 20; ++p) arenas.place(p, 0, 300 + p, 450 + p, p % 2);
  arenas.seal();
  EXPECT_EQ(arenas.arenas()[0].vertices.capacity(), 4500u + 562u);
  EXPECT_EQ(arenas.arenas()[spill].vertices.capacity(), (4500u + 562u) / 4);
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

void randomized_rebuilds(const PageArenaOptions& config) {
  constexpr std::uint32_t kPages = 300;
  PageArenas arenas(kPages, config);
  std::mt19937 rng(42);
  std::uniform_int_distribution<std::uint32_t> page(0, kPages - 1), verts(0, 600), category(0, 2);
  std::vector<std::uint32_t> cat(kPages, 0), reg(kPages, 0), vc(kPages, 0), ic(kPages, 0);
  std::vector<std::uint32_t> sealed_capacity;
  for (int step = 0; step < 20000; ++step) {
    const std::uint32_t p = page(rng);
    // Mostly small edits of an existing page (what voxel edits do), sometimes a category or region
    // change.
    if (rng() % 10 == 0) cat[p] = category(rng);
    if (rng() % 10 == 0) reg[p] = std::uint32_t(rng() % 3);
    vc[p] = (rng() % 8 == 0) ? 0 : verts(rng);
    ic[p] = vc[p] == 0 ? 0 : vc[p] * 3 / 2 + std::uint32_t(rng() % 40);
    arenas.place(p, cat[p], vc[p], ic[p], reg[p]);
    if (rng() % 500 == 0) arenas.seal();
    // Arenas are never destroyed, and a sealed arena's capacity never changes.
    ASSERT_GE(arenas.arenas().size(), sealed_capacity.size());
    for (std::size_t a = 0; a < sealed_capacity.size(); ++a) {
      if (sealed_capacity[a]) {
        ASSERT_EQ(arenas.arenas()[a].vertices.capacity(), sealed_capacity[a]);
      }
    }
    sealed_capacity.resize(arenas.arenas().size(), 0);
    for (std::size_t a = 0; a < sealed_capacity.size(); ++a) {
      if (arenas.arenas()[a].sealed) sealed_capacity[a] = arenas.arenas()[a].vertices.capacity();
    }
  }
  // Every page is where it should be, with its counts; ranges never overlap within an arena.
  std::vector<std::vector<std::uint8_t>> vused(arenas.arenas().size()), iused(arenas.arenas().size());
  std::vector<std::uint32_t> pages_in(arenas.arenas().size(), 0);
  for (std::size_t a = 0; a < arenas.arenas().size(); ++a) {
    vused[a].assign(arenas.arenas()[a].vertices.capacity(), 0);
    iused[a].assign(arenas.arenas()[a].indices.capacity(), 0);
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
    EXPECT_EQ(a.region, reg[p]);
    EXPECT_LE(ic[p], draw_bucket_size(pl.bucket));
    EXPECT_EQ(pl.bucket, draw_bucket_for(ic[p]));
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
    const PageArena& arena = arenas.arenas()[a];
    EXPECT_EQ(arena.page_count, pages_in[a]);
    EXPECT_EQ(arena.vertices.allocation_count(), pages_in[a]);
    std::uint32_t bucketed = 0;
    for (const std::uint32_t n : arena.bucket_pages) bucketed += n;
    EXPECT_EQ(bucketed, pages_in[a]);
  }
}

TEST(PageArenas, RandomizedRebuildsNeverOverlapOrLosePages) { randomized_rebuilds(small_config()); }

TEST(PageArenas, RandomizedRebuildsWithSealingNeverOverlapOrLosePages) {
  randomized_rebuilds(fitted_config());
}

// The arenas' options check themselves in one place (PageArenas' constructor calls it), and a streamed
// terrain's options check the arenas they nest.
TEST(PageArenas, OptionsNameTheInvalidField) {
  PageArenaOptions o;
  o.index_slack = o.index_capacity;  // no page fits beside its own slack
  EXPECT_EQ(myriad::test::where_of([&] { PageArenas arenas(4, o); }), "PageArenaOptions::index_capacity");
  StreamTerrainOptions t;
  EXPECT_NO_THROW(t.validate());
  t.arenas = o;
  EXPECT_EQ(myriad::test::where_of([&] { t.validate(); }),
            "PageArenaOptions::index_capacity");  // the nested ones
  t = {};
  t.cell_scale = 0.0f;
  EXPECT_THROW(t.validate(), Error);
}

}  // namespace
}  // namespace myriad::render
