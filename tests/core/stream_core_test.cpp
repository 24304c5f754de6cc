// The streamer core: the ring's order and bands, slots reused with their buffers, the grid of slots, jobs
// collected in launch order within a per-call budget (the rest wait, done), their errors, the destructor
// waiting for jobs in flight (the worker pool's own tests are in tests/voxel/worker_pool_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "myriad/core/stream/slot_pool.hpp"
#include "myriad/core/stream/stream_jobs.hpp"
#include "myriad/core/stream/stream_ring.hpp"
#include "myriad/core/thread/worker_pool.hpp"

namespace myriad {
namespace {

TEST(StreamRing, HoldsTheSquareNearestFirstAndItsBands) {
  const StreamRing ring(4);
  ASSERT_EQ(ring.offsets().size(), 81u);
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < ring.offsets().size(); ++i) {
    const glm::ivec2 o = ring.offsets()[i];
    seen.insert({o.x, o.y});
    if (i > 0) {
      EXPECT_LE(chebyshev(ring.offsets()[i - 1]), chebyshev(o)) << i;
    }
  }
  EXPECT_EQ(seen.size(), 81u);
  EXPECT_EQ(ring.offsets()[0], glm::ivec2(0, 0));
  for (int from = 0; from <= 5; ++from)
    for (int to = from; to <= 6; ++to) {
      std::size_t expected = 0;
      for (const glm::ivec2 o : ring.offsets()) expected += chebyshev(o) >= from && chebyshev(o) <= to;
      const auto band = ring.band(from, to);
      EXPECT_EQ(band.size(), expected) << from << ".." << to;
      for (const glm::ivec2 o : band) {
        EXPECT_GE(chebyshev(o), from);
        EXPECT_LE(chebyshev(o), to);
      }
    }
  EXPECT_TRUE(StreamRing().band(0, 3).empty());
  EXPECT_EQ(StreamRing(0).offsets().size(), 1u);
}

TEST(SlotPool, ReusesReleasedSlotsWithTheirBuffers) {
  SlotPool<std::vector<int>> pool;
  bool fresh = false;
  const std::int32_t a = pool.acquire(&fresh);
  EXPECT_TRUE(fresh);
  pool[a].resize(1000);
  const std::int32_t b = pool.acquire(&fresh);
  EXPECT_TRUE(fresh);
  EXPECT_NE(a, b);
  pool.release(a);
  EXPECT_EQ(pool.held(), 1u);
  const std::int32_t c = pool.acquire(&fresh);
  EXPECT_FALSE(fresh);
  EXPECT_EQ(c, a);
  EXPECT_GE(pool[c].capacity(), 1000u);  // what the caller left: no allocation on reuse
  EXPECT_EQ(pool.size(), 2u);
}

TEST(GridSlots, MapsInsideCellsAndAnswersMinusOneElsewhere) {
  GridSlots grid({3, 2});
  EXPECT_EQ(grid.cells(), 6u);
  EXPECT_EQ(grid[glm::ivec2(2, 1)], -1);
  grid.set({2, 1}, 7);
  EXPECT_EQ(grid[glm::ivec2(2, 1)], 7);
  EXPECT_EQ(grid.index({2, 1}), 5u);
  EXPECT_EQ(grid[glm::ivec2(3, 1)], -1);
  EXPECT_EQ(grid[glm::ivec2(-1, 0)], -1);
  EXPECT_FALSE(grid.inside({0, 2}));
  grid.clear({2, 1});
  EXPECT_EQ(grid[glm::ivec2(2, 1)], -1);
}

struct CountJob : WorkerPool::Job {
  int id = 0;
  int result = 0;
};

void wait_until(const std::function<bool()>& ready) {
  for (int i = 0; i < 200000 && !ready(); ++i) std::this_thread::sleep_for(std::chrono::microseconds(50));
  ASSERT_TRUE(ready());
}

TEST(StreamJobs, CollectsInLaunchOrderWithinTheBudgetAndKeepsErrors) {
  StreamJobs<CountJob> jobs(std::make_shared<WorkerPool>(2), 4);
  for (int i = 0; i < 4; ++i) {
    ASSERT_FALSE(jobs.full());
    CountJob& job = jobs.next();
    job.id = i;
    jobs.launch(0, [](CountJob& j, WorkerPool::Local&) {
      if (j.id == 2) throw std::runtime_error("job 2");
      j.result = 10 * j.id;
    });
  }
  EXPECT_TRUE(jobs.full());
  EXPECT_EQ(jobs.in_flight(), 4u);
  std::vector<int> order;
  std::exception_ptr error;
  wait_until([&] {
    std::size_t done = 0;
    jobs.for_each_in_flight([&](const CountJob& j) { done += j.done.load() ? 1 : 0; });
    return done == 4;
  });
  // A budget of 3: three jobs, oldest first; the fourth waits, done, for the next call.
  error = jobs.collect(3, [&](CountJob& j) {
    order.push_back(j.id);
    EXPECT_EQ(bool(j.error), j.id == 2);
    if (!j.error) {
      EXPECT_EQ(j.result, 10 * j.id);
    }
  });
  EXPECT_TRUE(error);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(jobs.in_flight(), 1u);
  EXPECT_FALSE(jobs.full());
  error = jobs.collect(0, [&](CountJob& j) { order.push_back(j.id); });
  EXPECT_FALSE(error);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(jobs.in_flight(), 0u);
  // Collected jobs are clean for their next launch.
  std::size_t free_jobs = 0;
  jobs.for_each_free([&](const CountJob& j) {
    EXPECT_FALSE(j.error);
    EXPECT_FALSE(j.done.load());
    ++free_jobs;
  });
  EXPECT_EQ(free_jobs, 4u);
}

TEST(StreamJobs, TheDestructorWaitsForJobsInFlightOnASharedPool) {
  const auto pool = std::make_shared<WorkerPool>(1);
  auto finished = std::make_shared<std::atomic<int>>(0);
  {
    StreamJobs<CountJob> jobs(pool, 3);
    for (int i = 0; i < 3; ++i) {
      jobs.next().id = i;
      jobs.launch(0, [finished](CountJob&, WorkerPool::Local&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        finished->fetch_add(1);
      });
    }
  }
  EXPECT_EQ(finished->load(), 3);  // the pool lives on; every job ran before the jobs went
}

TEST(StreamJobs, LaunchesInABatchWakeThePoolOnceWhenItEnds) {
  const auto pool = std::make_shared<WorkerPool>(2);
  StreamJobs<CountJob> jobs(pool, 8);
  const auto run = [](CountJob& j, WorkerPool::Local&) { j.result = j.id + 1; };
  const std::uint64_t before = pool->wakes();
  {
    const auto batch = jobs.batch();
    for (int i = 0; i < 4; ++i) {
      jobs.next().id = i;
      jobs.launch(0, run);
    }
    {
      const auto inner = jobs.batch();  // nested: the outer one wakes
      jobs.next().id = 4;
      jobs.launch(0, run);
    }
    EXPECT_EQ(pool->wakes(), before);  // nothing woken while the batch is open
  }
  EXPECT_EQ(pool->wakes(), before + 1);
  wait_until([&] {
    std::size_t done = 0;
    jobs.for_each_in_flight([&](const CountJob& j) { done += j.done.load() ? 1 : 0; });
    return done == 5;
  });
  std::vector<int> results;
  EXPECT_FALSE(jobs.collect(0, [&](CountJob& j) { results.push_back(j.result); }));
  EXPECT_EQ(results, (std::vector<int>{1, 2, 3, 4, 5}));
  // Outside a batch every launch wakes at once.
  jobs.next().id = 9;
  jobs.launch(0, run);
  EXPECT_EQ(pool->wakes(), before + 2);
  const auto empty = jobs.batch();  // a batch without launches wakes nobody
  EXPECT_EQ(pool->wakes(), before + 2);
}

}  // namespace
}  // namespace myriad
