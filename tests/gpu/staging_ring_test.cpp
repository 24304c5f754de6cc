// The upload paths: the staging ring (alignment, wrap-around, frames held until complete, the frame
// budget) and upload batches (every setup upload in one submission, in order, with the data intact).
#include <numeric>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"

namespace myriad::test {
namespace {

class StagingRingTest : public GpuTest {};

TEST_F(StagingRingTest, AlignsWrapsAndHoldsFramesUntilComplete) {
  gpu::StagingRing ring(ctx(), 1000, 400);
  const std::uint64_t f1 = ring.begin_frame();
  const auto a = ring.allocate(10, 4);
  const auto b = ring.allocate(100, 64);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->offset, 0u);
  EXPECT_EQ(b->offset, 64u);  // aligned up
  EXPECT_EQ(b->data, static_cast<std::byte*>(ring.buffer().mapped()) + 64);
  const std::uint64_t f2 = ring.begin_frame();
  const auto c = ring.allocate(700, 16);  // 164 .. 864
  ASSERT_TRUE(c);
  EXPECT_EQ(c->offset, 176u);
  ring.begin_frame();
  EXPECT_FALSE(ring.allocate(200, 16));  // 124 left at the end, nothing free before frame 1 completes
  ring.complete(f1);                     // frees [0, 164): a wrap fits 150 at the start
  const auto d = ring.allocate(150, 16);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset, 0u);
  EXPECT_FALSE(ring.allocate(20, 16));  // frame 2's bytes start at 176
  ring.complete(f2);
  EXPECT_TRUE(ring.allocate(20, 16));
  ring.complete_all();
  EXPECT_EQ(ring.in_flight_bytes(), 0u);
  EXPECT_FALSE(ring.allocate(1001, 16));  // never fits
}

TEST_F(StagingRingTest, FrameBudgetDefersAndGrantsOneOversizedAllocationAlone) {
  gpu::StagingRing ring(ctx(), 1u << 20, 1000);
  ring.begin_frame();
  EXPECT_TRUE(ring.allocate_budgeted(600));
  EXPECT_TRUE(ring.allocate_budgeted(400));
  EXPECT_FALSE(ring.allocate_budgeted(1));
  EXPECT_TRUE(ring.allocate(5000));  // outside the budget, still counted
  EXPECT_EQ(ring.stats().budgeted_bytes, 1000u);
  EXPECT_EQ(ring.stats().frame_bytes, 6000u);
  EXPECT_EQ(ring.stats().deferred, 1u);
  ring.begin_frame();                         // a fresh budget
  EXPECT_TRUE(ring.allocate_budgeted(3000));  // larger than the budget: granted when it comes first
  EXPECT_FALSE(ring.allocate_budgeted(1));
  EXPECT_EQ(ring.stats().deferred, 1u);
}

TEST_F(StagingRingTest, UploadBatchSubmitsOnceAndKeepsOrder) {
  std::vector<gpu::Buffer> buffers;
  std::vector<std::vector<std::uint32_t>> data;
  for (std::uint32_t i = 0; i < 6; ++i) {
    // Sizes around and past a chunk (16 MiB) exercise chunk changes and a dedicated buffer.
    const std::size_t words = i == 3 ? (17u << 20) / 4 : (std::size_t(1) << (10 + 2 * i)) + 3;
    data.emplace_back(words);
    std::iota(data.back().begin(), data.back().end(), i * 1000u);
    buffers.push_back(gpu::make_storage_buffer(ctx(), words * 4));
  }
  const std::uint64_t before = ctx().submit_count();
  {
    gpu::UploadBatchScope batch(ctx());
    for (std::size_t i = 0; i < buffers.size(); ++i)
      gpu::upload(ctx(), buffers[i], std::span<const std::uint32_t>(data[i]));
    // A second upload to the first buffer lands after the first one.
    data[0][5] = 77;
    gpu::upload(ctx(), buffers[0], std::span<const std::uint32_t>(&data[0][5], 1), 5 * 4);
    EXPECT_EQ(ctx().submit_count(), before);  // nothing submitted yet
    batch.submit();
  }
  EXPECT_EQ(ctx().submit_count(), before + 1);
  for (std::size_t i = 0; i < buffers.size(); ++i)
    EXPECT_EQ(gpu::read_buffer_as<std::uint32_t>(ctx(), buffers[i], data[i].size()), data[i])
        << "buffer " << i;

  // Work inside a batch that needs the uploads (a read-back) sees them: the queued copies go first.
  gpu::UploadBatchScope batch(ctx());
  const std::vector<std::uint32_t> words{1, 2, 3, 4};
  gpu::upload(ctx(), buffers[1], std::span<const std::uint32_t>(words));
  EXPECT_EQ(gpu::read_buffer_as<std::uint32_t>(ctx(), buffers[1], 4), words);
  batch.submit();  // nothing left: no further submission
}

TEST_F(StagingRingTest, AbandonedBatchDropsItsCopies) {
  gpu::Buffer buffer = gpu::make_storage_buffer(ctx(), 16);
  const std::vector<std::uint32_t> zeros(4, 0u), ones(4, 1u);
  gpu::upload(ctx(), buffer, std::span<const std::uint32_t>(zeros));
  {
    gpu::UploadBatchScope batch(ctx());
    gpu::upload(ctx(), buffer, std::span<const std::uint32_t>(ones));
  }  // left without submit (as on an exception)
  EXPECT_FALSE(ctx().upload_batch_open());
  EXPECT_EQ(gpu::read_buffer_as<std::uint32_t>(ctx(), buffer, 4), zeros);
}

}  // namespace
}  // namespace myriad::test
