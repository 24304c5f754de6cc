// The upload queue: budgeted shares stage oldest first within their budget (a lone oversized item
// alone), all-or-none shares land whole or wait, dropped versions never land, device copies, clears,
// fills and staged copies land in that order (overlapping ones too), and the per-share figures (frame
// bytes, max, p99) follow the staging ring's frames; bytes written in place land like copied ones.
#include <cstring>
#include <numeric>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"

namespace myriad::test {
namespace {

class UploadQueueTest : public GpuTest {
 protected:
  gpu::Buffer make(VkDeviceSize bytes) {
    gpu::Buffer b = gpu::make_storage_buffer(ctx(), bytes);
    const std::vector<std::byte> zeros(bytes, std::byte{0});
    gpu::upload(ctx(), b, std::span<const std::byte>(zeros));
    return b;
  }
  static std::vector<std::byte> pattern(std::size_t n, int seed) {
    std::vector<std::byte> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = std::byte((i * 7 + std::size_t(seed) * 31 + 1) & 0xff);
    return v;
  }
  // One frame: begin, record, submit, complete.
  void frame(gpu::StagingRing& ring, gpu::UploadQueue& queue) {
    const std::uint64_t serial = queue.begin_frame();
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { queue.record(cmd); });
    ring.complete(serial);
  }
  std::vector<std::byte> read(const gpu::Buffer& b, VkDeviceSize offset, VkDeviceSize size) {
    return gpu::read_buffer(ctx(), b, offset, size);
  }
};

TEST_F(UploadQueueTest, BudgetedSharesStageOldestFirstWithinTheirBudgets) {
  gpu::StagingRing ring(ctx(), 1u << 20, 1u << 20);
  gpu::UploadQueue queue(ring);
  const gpu::UploadShare a = queue.share("a", 1000), b = queue.share("b", 500);
  gpu::Buffer x = make(1600), y = make(600);
  std::vector<std::vector<std::byte>> xs, ys;
  for (int i = 0; i < 4; ++i) {
    xs.push_back(pattern(400, i));
    queue.enqueue(a, x.handle(), VkDeviceSize(i) * 400, xs.back());
  }
  for (int i = 0; i < 2; ++i) {
    ys.push_back(pattern(300, 10 + i));
    queue.enqueue(b, y.handle(), VkDeviceSize(i) * 300, ys.back());
  }
  EXPECT_EQ(queue.queued_bytes(a), 1600u);
  frame(ring, queue);
  // a: 400 + 400 fit its 1000, the third waits; b: 300, the second would pass 500.
  EXPECT_EQ(queue.frame_bytes(a), 800u);
  EXPECT_EQ(queue.frame_bytes(b), 300u);
  EXPECT_EQ(queue.queued_copies(a), 2u);
  EXPECT_EQ(queue.queued_copies(b), 1u);
  EXPECT_EQ(read(x, 0, 400), xs[0]);
  EXPECT_EQ(read(x, 400, 400), xs[1]);
  EXPECT_EQ(read(x, 800, 400), std::vector<std::byte>(400, std::byte{0}));  // not yet
  EXPECT_EQ(read(y, 300, 300), std::vector<std::byte>(300, std::byte{0}));
  frame(ring, queue);
  EXPECT_FALSE(queue.pending());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(read(x, VkDeviceSize(i) * 400, 400), xs[std::size_t(i)]) << i;
  EXPECT_EQ(read(y, 300, 300), ys[1]);
  frame(ring, queue);  // closes the second frame's figures
  for (const gpu::UploadShareStats& s : queue.stats()) {
    EXPECT_EQ(s.max_frame_bytes, s.name == "a" ? 800u : 300u) << s.name;
    EXPECT_EQ(s.frames_over_budget, 0u) << s.name;
  }
}

TEST_F(UploadQueueTest, AnOversizedItemGoesAloneAndIsCountedOverBudget) {
  gpu::StagingRing ring(ctx(), 1u << 20, 1u << 20);
  gpu::UploadQueue queue(ring);
  const gpu::UploadShare s = queue.share("s", 100);
  gpu::Buffer x = make(400);
  const std::vector<std::byte> big = pattern(300, 1), small = pattern(40, 2);
  queue.enqueue(s, x.handle(), 0, big);
  queue.enqueue(s, x.handle(), 320, small);
  frame(ring, queue);
  EXPECT_EQ(read(x, 0, 300), big);
  EXPECT_EQ(queue.queued_copies(s), 1u);  // the small one waits for the next frame
  frame(ring, queue);
  EXPECT_EQ(read(x, 320, 40), small);
  EXPECT_EQ(queue.stats().at(0).frames_over_budget, 1u);
}

TEST_F(UploadQueueTest, AllOrNoneLandsWholeOrWaits) {
  gpu::StagingRing ring(ctx(), 1024, 1024);
  gpu::UploadQueue queue(ring);
  const gpu::UploadShare s = queue.share("geometry", 0, gpu::UploadPolicy::kAllOrNone);
  gpu::Buffer x = make(800);
  const std::vector<std::byte> p0 = pattern(400, 3), p1 = pattern(400, 4);
  // A frame still in flight holds 600 of the ring's 1024 bytes: 800 queued bytes cannot go.
  const std::uint64_t busy = queue.begin_frame();
  ASSERT_TRUE(ring.allocate(600));
  queue.enqueue(s, x.handle(), 0, p0);
  queue.enqueue(s, x.handle(), 400, p1);
  const std::uint64_t waiting = queue.begin_frame();
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { queue.record(cmd); });
  EXPECT_EQ(queue.queued_bytes(s), 800u);  // none of it, not half
  EXPECT_EQ(read(x, 0, 400), std::vector<std::byte>(400, std::byte{0}));
  ring.complete(busy);
  ring.complete(waiting);
  frame(ring, queue);
  EXPECT_EQ(queue.queued_bytes(s), 0u);
  EXPECT_EQ(read(x, 0, 400), p0);
  EXPECT_EQ(read(x, 400, 400), p1);
}

// Bytes written in place (enqueue_space) land like copied ones, in a store that grows past its first
// block while earlier entries wait in it, and is reused the next frame.
TEST_F(UploadQueueTest, BytesWrittenInPlaceLandAcrossTheStoresGrowth) {
  gpu::StagingRing ring(ctx(), 4u << 20, 4u << 20);
  gpu::UploadQueue queue(ring);
  const gpu::UploadShare s = queue.share("pages", 0, gpu::UploadPolicy::kAllOrNone);
  constexpr VkDeviceSize kPiece = 48u << 10;  // five pieces pass the store's first 64 KiB twice
  gpu::Buffer x = make(5 * kPiece);
  std::vector<std::vector<std::byte>> sent;
  for (int frame_index = 0; frame_index < 2; ++frame_index) {
    sent.clear();
    for (int i = 0; i < 5; ++i) {
      const std::vector<std::byte> head = pattern(std::size_t(kPiece) / 3, 10 * frame_index + i),
                                   tail = pattern(std::size_t(kPiece) - head.size(), 50 + i);
      if (i % 2 == 0) {  // gathered from two arrays, written in place
        const std::span<std::byte> to = queue.enqueue_space(s, x.handle(), VkDeviceSize(i) * kPiece, kPiece);
        ASSERT_EQ(to.size(), kPiece);
        std::memcpy(to.data(), head.data(), head.size());
        std::memcpy(to.data() + head.size(), tail.data(), tail.size());
      } else {
        std::vector<std::byte> whole = head;
        whole.insert(whole.end(), tail.begin(), tail.end());
        queue.enqueue(s, x.handle(), VkDeviceSize(i) * kPiece, whole);
      }
      sent.push_back(head);
      sent.back().insert(sent.back().end(), tail.begin(), tail.end());
    }
    EXPECT_EQ(queue.queued_bytes(s), 5 * kPiece);
    frame(ring, queue);
    EXPECT_FALSE(queue.pending());
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(read(x, VkDeviceSize(i) * kPiece, kPiece), sent[std::size_t(i)])
          << "frame " << frame_index << " piece " << i;
  }
  EXPECT_TRUE(queue.enqueue_space(s, x.handle(), 0, 0).empty());  // nothing to write, nothing queued
  EXPECT_FALSE(queue.pending());
}

TEST_F(UploadQueueTest, DroppedVersionsNeverLand) {
  gpu::StagingRing ring(ctx(), 1u << 20, 1u << 20);
  gpu::UploadQueue queue(ring);
  const gpu::UploadShare s = queue.share("sections", 1u << 20);
  gpu::Buffer x = make(256), gone = make(64);
  const std::vector<std::byte> old7 = pattern(64, 7), old8 = pattern(64, 8), new7 = pattern(64, 9);
  queue.enqueue(s, x.handle(), 0, old7, 7);
  queue.enqueue(s, x.handle(), 64, old8, 8);
  queue.drop(x.handle(), 7);  // section 7 replaced: its new bytes go elsewhere
  queue.enqueue(s, x.handle(), 128, new7, 7);
  queue.enqueue(s, gone.handle(), 0, pattern(64, 1));
  queue.fill(gone.handle(), 0, 64, 0xabababab);
  queue.drop(gone.handle());  // the buffer goes away: nothing may touch it
  EXPECT_EQ(queue.queued_bytes(s), 128u);
  frame(ring, queue);
  EXPECT_EQ(read(x, 0, 64), std::vector<std::byte>(64, std::byte{0}));
  EXPECT_EQ(read(x, 64, 64), old8);
  EXPECT_EQ(read(x, 128, 64), new7);
  EXPECT_EQ(read(gone, 0, 64), std::vector<std::byte>(64, std::byte{0}));
}

TEST_F(UploadQueueTest, DeviceCopiesClearsFillsAndStagedCopiesLandInOrder) {
  gpu::StagingRing ring(ctx(), 1u << 20, 1u << 20);
  gpu::UploadQueue queue(ring);
  const gpu::UploadShare s = queue.share("pool", 1u << 20);
  gpu::Buffer old_pool = make(64), grown = make(256);
  const std::vector<std::byte> kept = pattern(64, 5), staged = pattern(32, 6);
  gpu::upload(ctx(), old_pool, std::span<const std::byte>(kept));
  queue.begin_frame();
  // Staged first in submission, recorded last: it lands over the fills.
  const std::optional<gpu::StagingRing::Span> span = queue.stage(s, staged.size());
  ASSERT_TRUE(span);
  std::memcpy(span->data, staged.data(), staged.size());
  queue.copy_from(*span, 0, grown.handle(), 96, staged.size());
  queue.clear(grown, 0xffffffffu);                            // the whole new buffer empty
  queue.copy(old_pool.handle(), grown.handle(), {0, 0, 64});  // the old contents over the clear
  queue.fill(grown.handle(), 80, 48, 0);   // [80, 128): overlaps the next fill and the copy
  queue.fill(grown.handle(), 120, 16, 0);  // [120, 136): merges with the one before
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { queue.record(cmd); });
  const std::vector<std::byte> got = read(grown, 0, 256);
  std::vector<std::byte> want(256, std::byte{0xff});
  // A device copy goes before a clear of the same group only in submission order: the clear was
  // queued first, so the copy lands on it.
  std::copy(kept.begin(), kept.end(), want.begin());
  std::fill(want.begin() + 80, want.begin() + 136, std::byte{0});
  std::copy(staged.begin(), staged.end(), want.begin() + 96);
  EXPECT_EQ(got, want);
}

TEST_F(UploadQueueTest, FiguresFollowTheRingsFramesWithMaxAndP99) {
  gpu::StagingRing ring(ctx(), 1u << 20, 1u << 20);
  gpu::UploadQueue queue(ring);
  const gpu::UploadShare a = queue.share("palettes", 0, gpu::UploadPolicy::kPerFrame);
  const gpu::UploadShare b = queue.share(
      "palettes", 0, gpu::UploadPolicy::kPerFrame);  // a second system of one kind: added together
  for (std::uint64_t f = 1; f <= 100; ++f) {
    ring.begin_frame();  // whoever begins the ring's frame begins the queue's
    (void)queue.reserve(a, f * 16);
    (void)queue.reserve(b, 16);
    ring.complete_all();
  }
  ring.begin_frame();
  const std::vector<gpu::UploadShareStats> stats = queue.stats();
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].name, "palettes");
  EXPECT_EQ(stats[0].frames, 100u);
  EXPECT_EQ(stats[0].frame_bytes, 0u);  // the new frame
  EXPECT_EQ(stats[0].p99_frame_bytes, 99u * 16u + 16u);
  queue.release(b);
  EXPECT_EQ(queue.stats().at(0).max_frame_bytes, 100u * 16u);
  EXPECT_THROW((void)queue.reserve(b, 16), Error);  // released
  EXPECT_THROW((void)queue.stage(a, 16), Error);    // a per-frame share has no budget
  EXPECT_THROW((void)queue.share("zero", 0, gpu::UploadPolicy::kBudgeted), Error);
}

}  // namespace
}  // namespace myriad::test
