// The streamers' shared worker pool: jobs run by priority, equal ones in push order (past the queue's first
// size too), one wake runs a quiet batch on every sleeping worker, a job's error is kept, each thread keeps
// one scratch object per type, and a fine stream and a far stream on one pool both settle, equal to streams
// of their own, while a stream destroyed with jobs in flight leaves the pool working (the destructor waits
// for its jobs: under ASan a job on a dead stream would fail); and the streams' options name the field they
// reject.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/stream/far_stream.hpp"
#include "myriad/core/thread/worker_pool.hpp"
#include "error_where.hpp"
#include "stream_test_support.hpp"

namespace myriad::voxel {
namespace {

void wait_done(const WorkerPool::Job& job) {
  for (int i = 0; i < 200000 && !job.done.load(std::memory_order_acquire); ++i)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  ASSERT_TRUE(job.done.load(std::memory_order_acquire));
}

// A first job that holds the pool's one thread until opened: what is pushed behind it queues up.
struct Gate {
  std::atomic<bool> open{false};
  WorkerPool::Job job;
  explicit Gate(WorkerPool& pool) {
    pool.push(job, [this](WorkerPool::Local&) {
      while (!open.load()) std::this_thread::yield();
    });
  }
};

TEST(WorkerPool, RunsInPushOrderKeepsErrorsAndOneScratchPerTypeAndThread) {
  WorkerPool pool(1);
  Gate gate(pool);
  // 200 jobs queued behind the gate: the queue grows past its first 64 entries and keeps the order.
  std::vector<std::unique_ptr<WorkerPool::Job>> jobs;
  std::vector<int> order;
  std::vector<const void*> ints, doubles;
  for (int i = 0; i < 200; ++i) {
    jobs.push_back(std::make_unique<WorkerPool::Job>());
    pool.push(*jobs.back(), [&order, &ints, &doubles, i](WorkerPool::Local& local) {
      order.push_back(i);
      ints.push_back(&local.scratch<int>());
      doubles.push_back(&local.scratch<double>());
      if (i == 7) throw std::runtime_error("job 7");
    });
  }
  gate.open = true;
  for (const auto& j : jobs) wait_done(*j);
  ASSERT_EQ(order.size(), 200u);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(order[std::size_t(i)], i);
  EXPECT_TRUE(jobs[7]->error);
  EXPECT_FALSE(jobs[8]->error);
  for (std::size_t i = 1; i < ints.size(); ++i) {
    EXPECT_EQ(ints[i], ints[0]);  // one thread: the same scratch each time
    EXPECT_EQ(doubles[i], doubles[0]);
  }
  EXPECT_NE(ints[0], static_cast<const void*>(doubles[0]));
}

TEST(WorkerPool, RunsTheLowestPriorityFirstAndEqualOnesInPushOrder) {
  WorkerPool pool(1);
  Gate gate(pool);
  std::vector<std::unique_ptr<WorkerPool::Job>> jobs;
  std::vector<int> order;
  const int priority[] = {50, 10, 30, 10, -5, 30};
  for (int i = 0; i < 6; ++i) {
    jobs.push_back(std::make_unique<WorkerPool::Job>());
    pool.push(
        *jobs.back(), [&order, i](WorkerPool::Local&) { order.push_back(i); }, priority[i]);
  }
  gate.open = true;
  for (const auto& j : jobs) wait_done(*j);
  EXPECT_EQ(order, (std::vector<int>{4, 1, 3, 2, 5, 0}));
}

// Jobs queued quietly wait for wake(), which wakes one sleeping worker; a worker that takes a job and
// leaves more queued wakes the next, so two jobs that each wait for the other to start both run.
TEST(WorkerPool, OneWakeRunsAQuietBatchOnEverySleepingWorker) {
  WorkerPool pool(2);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // both workers asleep on an empty queue
  std::atomic<int> started{0};
  std::atomic<int> met{0};
  WorkerPool::Job jobs[2];
  for (WorkerPool::Job& job : jobs) {
    pool.push_quiet(job, [&](WorkerPool::Local&) {
      started.fetch_add(1);
      // Up to 5 s for the other job to start: it can only on the other worker.
      for (int i = 0; i < 100000 && started.load() < 2; ++i)
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      if (started.load() == 2) met.fetch_add(1);
    });
  }
  const std::uint64_t wakes = pool.wakes();
  pool.wake();
  EXPECT_EQ(pool.wakes(), wakes + 1);
  for (const WorkerPool::Job& job : jobs) wait_done(job);
  EXPECT_EQ(met.load(), 2);  // both ran at once: the first worker woke the second
}

TEST(WorkerPool, FineAndFarStreamsShareOnePoolAndLeaveItWorking) {
  const auto pool = std::make_shared<WorkerPool>(2);
  StreamOptions so;
  so.world_size = {256, 32, 256};
  so.radius = 3;
  so.worker_threads = 1;
  so.workers = pool;
  FarStreamOptions fo;
  fo.world_size = so.world_size;
  fo.levels = 1;
  fo.inner_radius = so.radius;
  fo.radius = {3, 3, 3};
  fo.workers = pool;
  const glm::dvec3 camera{100.0, 20.0, 120.0};
  {
    // Destroyed with jobs in flight: its destructor waits for them, the pool goes on.
    StreamWorld early(so);
    early.update(camera);
    early.update(camera + glm::dvec3(40.0, 0.0, 0.0));
  }
  StreamWorld fine(so);
  FarStream far(fo);
  for (int i = 0; i < 200000 && !(fine.idle() && far.idle()); ++i) {
    fine.update(camera);
    far.update(camera);
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  ASSERT_TRUE(fine.idle() && far.idle());
  // The same as streams with pools of their own.
  StreamOptions own = so;
  own.workers = nullptr;
  StreamWorld alone(own);
  test_support::settle(alone, camera);
  int compared = 0;
  for (int cz = 0; cz < 16; ++cz)
    for (int cx = 0; cx < 16; ++cx)
      for (int sy = 0; sy < 2; ++sy) {
        const SectionMesh* a = fine.mesh({cx, sy, cz});
        const SectionMesh* b = alone.mesh({cx, sy, cz});
        ASSERT_EQ(a == nullptr, b == nullptr) << cx << " " << sy << " " << cz;
        if (!a) continue;
        EXPECT_TRUE(test_support::same(*a, *b));
        ++compared;
      }
  EXPECT_GT(compared, 20);
  EXPECT_TRUE(far.block_ready(1, {3, 3}));
}

}  // namespace
}  // namespace myriad::voxel

namespace myriad::voxel {
namespace {

// The streams' options validate themselves in one place, naming the field; the constructors call it.
TEST(StreamOptionsValidate, NamesTheFirstInvalidField) {
  StreamOptions s;
  EXPECT_EQ(myriad::test::where_of([&] { s.validate(); }), "");
  s.world_size = {1000, 128, 1024};
  EXPECT_EQ(myriad::test::where_of([&] { s.validate(); }), "StreamOptions::world_size");
  EXPECT_EQ(myriad::test::where_of([&] { StreamWorld w(s); }), "StreamOptions::world_size");
  s.world_size = {1024, 128, 1024};
  s.radius = 1001;
  EXPECT_EQ(myriad::test::where_of([&] { s.validate(); }), "StreamOptions::radius");
  FarStreamOptions f;
  EXPECT_EQ(myriad::test::where_of([&] { f.validate(); }), "");
  f.levels = kFarMaxLevel + 1;
  EXPECT_EQ(myriad::test::where_of([&] { f.validate(); }), "FarStreamOptions::levels");
  f.levels = 1;
  f.inner_radius = 100;  // level 1 (12 blocks = 24 columns) would not reach past it
  EXPECT_EQ(myriad::test::where_of([&] { FarStream fs(f); }), "FarStreamOptions::radius");
}

}  // namespace
}  // namespace myriad::voxel
