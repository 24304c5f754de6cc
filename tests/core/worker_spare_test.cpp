// A value made on a worker ahead of need (WorkerSpare): taken ready or missed without waiting, refilled
// or made once, a failed making never retried, copies without a spare, the destructor waiting for a value
// being made.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "myriad/core/thread/worker_pool.hpp"
#include "myriad/core/thread/worker_spare.hpp"

namespace myriad {
namespace {

using namespace std::chrono_literals;

// Polls (the owner never waits on the pool; a test may) until `ready` or about 10 s.
template <class F>
bool eventually(F ready) {
  for (int i = 0; i < 10000; ++i) {
    if (ready()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

TEST(WorkerSpare, HandsOverAReadyValueAndRefills) {
  auto pool = std::make_shared<WorkerPool>(1);
  std::atomic<int> made{0};
  WorkerSpare<int> spare;
  EXPECT_FALSE(spare.kept());
  EXPECT_FALSE(spare.take());  // nothing kept: no value, and no miss either
  EXPECT_EQ(spare.stats().missed, 0u);
  spare.keep(pool, [&made] { return 100 + made.fetch_add(1); });
  ASSERT_TRUE(eventually([&] { return spare.ready(); }));
  ASSERT_NE(spare.peek(), nullptr);
  EXPECT_EQ(*spare.peek(), 100);
  EXPECT_EQ(spare.take(), std::optional<int>(100));
  // Refilled: the next value is made without being asked for.
  ASSERT_TRUE(eventually([&] { return spare.ready(); }));
  EXPECT_EQ(spare.take(), std::optional<int>(101));
  EXPECT_EQ(spare.stats().taken, 2u);
  EXPECT_EQ(spare.stats().missed, 0u);
}

TEST(WorkerSpare, AValueNotMadeYetIsMissedWithoutWaiting) {
  auto pool = std::make_shared<WorkerPool>(1);
  std::atomic<bool> go{false};
  WorkerSpare<int> spare;
  spare.keep(pool, [&go] {
    while (!go.load()) std::this_thread::sleep_for(1ms);
    return 7;
  });
  EXPECT_TRUE(spare.making());
  EXPECT_FALSE(spare.ready());
  EXPECT_EQ(spare.peek(), nullptr);
  EXPECT_FALSE(spare.take());  // returns at once: the test would hang here if take() waited
  EXPECT_EQ(spare.stats().missed, 1u);
  go = true;
  ASSERT_TRUE(eventually([&] { return spare.ready(); }));
  EXPECT_FALSE(spare.making());
  EXPECT_EQ(spare.take(), std::optional<int>(7));
  EXPECT_EQ(spare.stats().taken, 1u);
}

TEST(WorkerSpare, WithoutRefillOneValueIsMadeAndKeepStartsAnother) {
  auto pool = std::make_shared<WorkerPool>(1);
  std::atomic<int> made{0};
  WorkerSpare<int> spare;
  spare.keep(
      pool, [&made] { return made.fetch_add(1); }, false);
  ASSERT_TRUE(eventually([&] { return spare.ready(); }));
  EXPECT_EQ(spare.take(), std::optional<int>(0));
  EXPECT_FALSE(spare.kept());
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(made.load(), 1);  // nothing started after the take
  // A new recipe (e.g. a new size) for the next one.
  spare.keep(
      pool, [] { return 42; }, false);
  ASSERT_TRUE(eventually([&] { return spare.ready(); }));
  EXPECT_EQ(spare.take(), std::optional<int>(42));
}

TEST(WorkerSpare, AFailedMakingIsNeverReadyNorRetried) {
  auto pool = std::make_shared<WorkerPool>(1);
  std::atomic<int> tries{0};
  WorkerSpare<int> spare;
  spare.keep(pool, [&tries]() -> int {
    ++tries;
    throw std::runtime_error("out of memory");
  });
  ASSERT_TRUE(eventually([&] { return !spare.making(); }));
  EXPECT_FALSE(spare.ready());
  EXPECT_FALSE(spare.take());
  EXPECT_FALSE(spare.take());
  EXPECT_EQ(spare.stats().missed, 2u);
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(tries.load(), 1);
}

TEST(WorkerSpare, ACopyKeepsNoSpareAndTheDestructorWaitsForTheMaking) {
  auto pool = std::make_shared<WorkerPool>(1);
  auto finished = std::make_shared<std::atomic<bool>>(false);
  {
    WorkerSpare<int> spare;
    spare.keep(pool, [finished] {
      std::this_thread::sleep_for(50ms);
      finished->store(true);
      return 1;
    });
    const WorkerSpare<int> copy(spare);
    EXPECT_FALSE(copy.kept());
    EXPECT_TRUE(spare.kept());
  }
  EXPECT_TRUE(finished->load());  // the spare's destructor returned only after its job did
}

}  // namespace
}  // namespace myriad
