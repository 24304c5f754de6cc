// RangeAllocator: slack, best fit, coalescing, exhaustion and bad frees, then a long random run
// checked step by step against a brute-force occupancy bitmap.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/range_allocator.hpp"

namespace myriad {
namespace {

TEST(RangeAllocator, SlackIsAddedToEveryRange) {
  RangeAllocator a(1000, 50);
  const auto r = a.allocate(10);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (Range{0, 60}));
  EXPECT_EQ(a.used(), 60u);
  EXPECT_TRUE(RangeAllocator::fits_in_place(*r, 60));
  EXPECT_FALSE(RangeAllocator::fits_in_place(*r, 61));
  EXPECT_FALSE(a.allocate(0));
  EXPECT_FALSE(a.allocate(951));  // 951 + 50 > 940 left
  EXPECT_TRUE(a.allocate(890));   // exactly the rest
  EXPECT_EQ(a.free_total(), 0u);
  EXPECT_EQ(a.largest_free(), 0u);
}

TEST(RangeAllocator, EndFollowsTheLastAllocation) {
  RangeAllocator a(100, 2);
  EXPECT_EQ(a.end(), 0u);
  const Range r1 = *a.allocate(10);  // [0, 12)
  const Range r2 = *a.allocate(20);  // [12, 34)
  EXPECT_EQ(a.end(), 34u);
  a.free(r2);
  EXPECT_EQ(a.end(), 12u);
  a.free(r1);
  EXPECT_EQ(a.end(), 0u);
}

TEST(RangeAllocator, ShrinkToDropsTheFreeTailOnly) {
  RangeAllocator a(1000, 0);
  const Range r1 = *a.allocate(100);  // [0, 100)
  const Range r2 = *a.allocate(50);   // [100, 150)
  a.free(r1);                         // a hole below end()
  EXPECT_THROW(a.shrink_to(149), Error);
  EXPECT_EQ(a.capacity(), 1000u);
  a.shrink_to(170);
  EXPECT_EQ(a.capacity(), 170u);
  EXPECT_EQ(a.free_total(), 120u);
  EXPECT_EQ(a.largest_free(), 100u);
  EXPECT_FALSE(a.allocate(101));                // only the hole and 20 past end() remain
  EXPECT_EQ(a.allocate(20), (Range{150, 20}));  // the tail, best fit
  EXPECT_EQ(a.allocate(100), (Range{0, 100}));  // the hole
  EXPECT_FALSE(a.allocate(1));
  a.shrink_to(500);  // never grows
  EXPECT_EQ(a.capacity(), 170u);
  a.free(r2);
  RangeAllocator full(64, 0);
  ASSERT_TRUE(full.allocate(64));
  full.shrink_to(64);  // nothing free past end()
  EXPECT_EQ(full.capacity(), 64u);
}

TEST(RangeAllocator, BestFitPicksSmallestThenLowestOffset) {
  RangeAllocator a(100);
  std::vector<Range> r;
  for (std::uint32_t size : {10u, 5u, 10u, 3u, 10u, 5u, 10u}) r.push_back(*a.allocate(size));
  // Holes: [10,15) size 5, [25,28) size 3, [38,43) size 5, and the tail [53,100) size 47.
  a.free(r[1]);
  a.free(r[3]);
  a.free(r[5]);
  EXPECT_EQ(a.free_range_count(), 4u);
  EXPECT_EQ(*a.allocate(4), (Range{10, 4}));  // sizes 5 and 5 fit best; the lower offset wins
  EXPECT_EQ(*a.allocate(3), (Range{25, 3}));  // the exact fit
  EXPECT_EQ(*a.allocate(5), (Range{38, 5}));
  EXPECT_EQ(*a.allocate(6), (Range{53, 6}));  // only the tail fits
}

TEST(RangeAllocator, FreeCoalescesWithBothNeighbours) {
  RangeAllocator a(30);
  const Range x = *a.allocate(10), y = *a.allocate(10), z = *a.allocate(10);
  EXPECT_FALSE(a.allocate(1));
  a.free(x);
  a.free(z);
  EXPECT_EQ(a.free_range_count(), 2u);
  EXPECT_EQ(a.largest_free(), 10u);
  a.free(y);  // joins [0,10) + [10,20) + [20,30)
  EXPECT_EQ(a.free_range_count(), 1u);
  EXPECT_EQ(a.largest_free(), 30u);
  EXPECT_EQ(a.used(), 0u);
  EXPECT_EQ(*a.allocate(30), (Range{0, 30}));
}

TEST(RangeAllocator, ExhaustionAndZeroCapacity) {
  RangeAllocator a(64);
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(a.allocate(8));
  EXPECT_FALSE(a.allocate(1));
  EXPECT_EQ(a.allocation_count(), 8u);
  RangeAllocator empty(0);
  EXPECT_FALSE(empty.allocate(1));
  EXPECT_EQ(empty.largest_free(), 0u);
  RangeAllocator big(0xffffffffu, 0xffffffffu);
  EXPECT_FALSE(big.allocate(1));  // count + slack overflows 32 bits: must not wrap
}

TEST(RangeAllocator, BadFreeThrowsAndChangesNothing) {
  RangeAllocator a(100, 2);
  const Range r = *a.allocate(10);             // {0, 12}
  EXPECT_THROW(a.free(Range{0, 10}), Error);   // size without slack
  EXPECT_THROW(a.free(Range{1, 12}), Error);   // wrong offset
  EXPECT_THROW(a.free(Range{50, 12}), Error);  // never handed out
  EXPECT_EQ(a.used(), 12u);
  EXPECT_EQ(a.allocation_count(), 1u);
  a.free(r);
  EXPECT_THROW(a.free(r), Error);  // double free
  EXPECT_EQ(a.used(), 0u);
  EXPECT_EQ(a.free_range_count(), 1u);
  try {
    a.free(Range{7, 3});
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("offset 7"), std::string::npos) << e.what();
  }
}

// Brute-force model: one bool per element.
struct Gap {
  std::uint32_t offset, size;
};
std::vector<Gap> gaps_of(const std::vector<bool>& used) {
  std::vector<Gap> gaps;
  for (std::uint32_t i = 0; i < used.size();) {
    if (used[i]) {
      ++i;
      continue;
    }
    std::uint32_t j = i;
    while (j < used.size() && !used[j]) ++j;
    gaps.push_back({i, j - i});
    i = j;
  }
  return gaps;
}

void random_run(std::uint32_t capacity, std::uint32_t slack, std::uint32_t seed, int operations) {
  SCOPED_TRACE(testing::Message() << "capacity " << capacity << " slack " << slack << " seed " << seed);
  RangeAllocator a(capacity, slack);
  std::vector<bool> model(capacity, false);
  std::vector<Range> live;
  std::mt19937 rng(seed);
  int failed_allocations = 0, frees = 0;
  for (int op = 0; op < operations; ++op) {
    const bool do_alloc = live.empty() || rng() % 100 < 55;
    if (do_alloc) {
      // Mostly small requests, sometimes large ones that need coalesced space.
      const auto count =
          static_cast<std::uint32_t>(rng() % 10 == 0 ? 1 + rng() % (capacity / 4) : 1 + rng() % 40);
      const std::uint32_t need = count + slack;
      const auto gaps = gaps_of(model);
      const Gap* best = nullptr;
      for (const Gap& g : gaps)
        if (g.size >= need && (!best || g.size < best->size)) best = &g;  // first of equal size = lowest
      const auto r = a.allocate(count);
      if (!best) {
        ASSERT_FALSE(r) << "allocated " << count << " but no gap is large enough";
        ++failed_allocations;
        continue;
      }
      ASSERT_TRUE(r) << "failed to allocate " << count << " although a gap of " << best->size << " exists";
      ASSERT_EQ(r->size, need);
      ASSERT_EQ(r->offset, best->offset) << "not the best fit";
      ASSERT_LE(std::uint64_t{r->offset} + r->size, capacity);
      for (std::uint32_t i = r->offset; i < r->offset + r->size; ++i) {
        ASSERT_FALSE(model[i]) << "overlap at " << i;
        model[i] = true;
      }
      live.push_back(*r);
    } else {
      const std::size_t k = rng() % live.size();
      a.free(live[k]);
      for (std::uint32_t i = live[k].offset; i < live[k].offset + live[k].size; ++i) model[i] = false;
      live[k] = live.back();
      live.pop_back();
      ++frees;
    }
    const auto gaps = gaps_of(model);
    std::uint32_t largest = 0;
    for (const Gap& g : gaps) largest = std::max(largest, g.size);
    ASSERT_EQ(a.used(), static_cast<std::uint32_t>(std::count(model.begin(), model.end(), true)));
    ASSERT_EQ(a.largest_free(), largest);
    ASSERT_EQ(a.free_range_count(), gaps.size()) << "free ranges not coalesced";
    ASSERT_EQ(a.allocation_count(), live.size());
  }
  // The run must have exercised both failure and freeing.
  EXPECT_GT(failed_allocations, 10);
  EXPECT_GT(frees, operations / 4);
}

TEST(RangeAllocator, RandomOperationsMatchBitmapModel) {
  random_run(1500, 0, 1, 12'000);
  random_run(1500, 5, 2, 12'000);
  random_run(3000, 50, 3, 6'000);
}

}  // namespace
}  // namespace myriad
