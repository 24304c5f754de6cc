// FrameArena: alignment and disjointness of what it hands out, the rewind once every allocation is
// released (and not before), block growth for large requests, and the limit that refuses instead of
// growing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/frame_arena.hpp"

namespace myriad {
namespace {

struct Taken {
  std::byte* p;
  std::size_t size;
  std::byte fill;
};

TEST(FrameArena, HandsOutAlignedDisjointMemory) {
  FrameArena arena(1024, std::size_t(1) << 20);
  std::mt19937 rng(7);
  std::vector<Taken> taken;
  for (int i = 0; i < 2000; ++i) {
    const std::size_t size = rng() % 700;
    const std::size_t align = std::size_t(1) << (rng() % 9);  // 1 .. 256
    auto* p = static_cast<std::byte*>(arena.allocate(size, align));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u) << "size " << size << " align " << align;
    EXPECT_TRUE(arena.owns(p));
    const auto fill = std::byte(i % 251);
    std::memset(p, int(fill), size);
    taken.push_back({p, size, fill});
  }
  // Had two allocations overlapped, the later fill would show in the earlier one.
  for (const Taken& t : taken) {
    for (std::size_t k = 0; k < t.size; ++k) ASSERT_EQ(t.p[k], t.fill);
  }
  const int local = 0;
  EXPECT_FALSE(arena.owns(&local));
  EXPECT_EQ(arena.stats().live, taken.size());
  EXPECT_GT(arena.stats().blocks, 1u);  // 2000 requests do not fit the first 1 KiB
}

TEST(FrameArena, RewindsOnceEveryAllocationIsReleasedAndThenAllocatesNothingNew) {
  FrameArena arena(4096, std::size_t(1) << 20);
  std::vector<void*> first;
  std::size_t bytes_after_first = 0;
  for (int frame = 0; frame < 50; ++frame) {
    std::vector<void*> pointers;
    for (int i = 0; i < 300; ++i) pointers.push_back(arena.allocate(std::size_t(16 + (i % 13) * 24), 8));
    if (frame == 0) {
      first = pointers;
      bytes_after_first = arena.stats().block_bytes;
    }
    // The same requests in the same order land where they did in the first frame: the arena rewound.
    EXPECT_EQ(pointers, first) << "frame " << frame;
    EXPECT_EQ(arena.stats().block_bytes, bytes_after_first) << "frame " << frame;
    for (std::size_t i = 0; i < pointers.size(); ++i) arena.release();
    EXPECT_EQ(arena.stats().live, 0u);
  }
  EXPECT_EQ(arena.stats().rewinds, 50u);
  EXPECT_EQ(arena.stats().allocations, 50u * 300u);
  EXPECT_GE(arena.stats().peak_used_bytes, 300u * 16u);
}

TEST(FrameArena, KeepsMemoryWhileOneAllocationIsLive) {
  FrameArena arena(256, 4096);
  auto* a = static_cast<std::byte*>(arena.allocate(64, 16));
  auto* b = static_cast<std::byte*>(arena.allocate(64, 16));
  std::memset(a, 0xAA, 64);
  arena.release();  // one of the two: `a` or `b` is still in use, so nothing may be handed out again
  auto* c = static_cast<std::byte*>(arena.allocate(64, 16));
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  std::memset(c, 0x55, 64);
  EXPECT_EQ(a[63], std::byte{0xAA});
  EXPECT_EQ(arena.stats().rewinds, 0u);
}

TEST(FrameArena, GrowsForLargeRequestsAndRefusesPastItsLimit) {
  FrameArena arena(1024, 16384);
  void* big = arena.allocate(6000, 64);
  ASSERT_NE(big, nullptr);
  EXPECT_GE(arena.stats().block_bytes, 6000u);
  EXPECT_LE(arena.stats().block_bytes, 16384u);
  EXPECT_EQ(arena.allocate(20000, 8), nullptr);  // more than the limit allows at all
  EXPECT_EQ(arena.stats().refused, 1u);
  // Filling up to the limit: every answer is null or inside a block, and the blocks stay within it.
  for (int i = 0; i < 100; ++i) {
    void* p = arena.allocate(500, 8);
    if (p) {
      EXPECT_TRUE(arena.owns(p));
    }
  }
  EXPECT_LE(arena.stats().block_bytes, 16384u);
  EXPECT_GT(arena.stats().refused, 1u);
}

TEST(FrameArena, RejectsBadSizesAlignmentsAndReleases) {
  EXPECT_THROW(FrameArena(0, 100), Error);
  EXPECT_THROW(FrameArena(200, 100), Error);
  FrameArena arena(256, 1024);
  EXPECT_THROW(arena.release(), Error);
  EXPECT_THROW(arena.allocate(8, 3), Error);
  void* zero = arena.allocate(0, 0);  // size 0 and alignment 0 (read as 1) still give a pointer
  EXPECT_TRUE(arena.owns(zero));
  EXPECT_NE(arena.allocate(0, 1), zero);
}

}  // namespace
}  // namespace myriad
