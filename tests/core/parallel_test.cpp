// parallel_for covers every index exactly once with chunks fixed by (begin, end, grain);
// parallel_reduce_ordered gives the same bits on one thread and on all; ThreadLimit limits.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "myriad/core/thread/parallel.hpp"

namespace myriad {
namespace {

TEST(Parallel, ForCoversEveryIndexOnceInFixedChunks) {
  for (std::size_t begin : {0u, 1u, 5u, 1000u}) {
    for (std::size_t length : {0u, 1u, 2u, 7u, 64u, 1000u, 10007u}) {
      for (std::size_t grain : {0u, 1u, 3u, 16u, 1000u, 20000u}) {
        SCOPED_TRACE(testing::Message() << "begin " << begin << " length " << length << " grain " << grain);
        const std::size_t end = begin + length;
        const std::size_t g = grain == 0 ? 1 : grain;
        std::vector<std::atomic<int>> hits(end + 1);
        std::atomic<int> bad_chunks{0};
        parallel_for(begin, end, grain, [&](std::size_t b, std::size_t e) {
          // Chunk boundaries depend only on (begin, end, grain).
          if (b >= e || e > end || b < begin || (b - begin) % g != 0 || (e - b != g && e != end))
            ++bad_chunks;
          for (std::size_t i = b; i < e && i < hits.size(); ++i) hits[i].fetch_add(1);
        });
        EXPECT_EQ(bad_chunks.load(), 0);
        for (std::size_t i = 0; i < hits.size(); ++i) {
          ASSERT_EQ(hits[i].load(), i >= begin && i < end ? 1 : 0) << "index " << i;
        }
      }
    }
  }
  int calls = 0;
  parallel_for(10, 5, 1, [&](std::size_t, std::size_t) { ++calls; });  // end < begin: nothing
  EXPECT_EQ(calls, 0);
}

float chunk_sum(const std::vector<float>& v, std::size_t b, std::size_t e) {
  float s = 0.0f;
  for (std::size_t i = b; i < e; ++i) s += v[i];
  return s;
}

TEST(Parallel, ReduceOrderedIsBitIdenticalForAnyThreadCount) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> exponent(-20.0f, 20.0f);
  std::vector<float> values(1'000'003);
  for (float& v : values) v = std::exp2(exponent(rng)) * (rng() & 1 ? 1.0f : -1.0f);

  const auto reduce = [&](std::size_t grain) {
    return parallel_reduce_ordered(
        0, values.size(), grain, 0.0f, [&](std::size_t b, std::size_t e) { return chunk_sum(values, b, e); },
        [](float a, float b) { return a + b; });
  };
  for (std::size_t grain : {1000u, 4096u, 77777u}) {
    float one_thread = 0.0f;
    {
      const ThreadLimit limit(1);
      one_thread = reduce(grain);
    }
    const float many = reduce(grain);
    // The serial reference: chunk sums combined left to right.
    float serial = 0.0f;
    for (std::size_t b = 0; b < values.size(); b += grain)
      serial = serial + chunk_sum(values, b, std::min(b + grain, values.size()));
    EXPECT_EQ(std::memcmp(&one_thread, &many, sizeof(float)), 0) << one_thread << " vs " << many;
    EXPECT_EQ(std::memcmp(&serial, &many, sizeof(float)), 0) << serial << " vs " << many;
  }
  // A plain sum in another order would differ for this data: the check is not vacuous.
  float backwards = 0.0f;
  for (std::size_t i = values.size(); i-- > 0;) backwards += values[i];
  EXPECT_NE(backwards, reduce(1000));
  EXPECT_EQ(parallel_reduce_ordered(
                5, 5, 1, 42, [](std::size_t, std::size_t) { return 1; }, [](int a, int b) { return a + b; }),
            42);
}

TEST(Parallel, ThreadLimitOneRunsOnTheCallingThread) {
  std::mutex mutex;
  std::set<std::thread::id> ids;
  const auto spin = [&](std::size_t b, std::size_t e) {
    volatile double x = 0.0;
    for (std::size_t i = b * 1000; i < e * 1000; ++i) x = x + 1.0;
    const std::lock_guard lock(mutex);
    ids.insert(std::this_thread::get_id());
  };
  {
    const ThreadLimit limit(1);
    parallel_for(0, 4096, 1, spin);
  }
  EXPECT_EQ(ids.size(), 1u);
  EXPECT_EQ(*ids.begin(), std::this_thread::get_id());
  EXPECT_GE(hardware_threads(), 1u);
  ids.clear();
  {
    const ThreadLimit two(2);
    parallel_for(0, 4096, 1, spin);
  }
  EXPECT_LE(ids.size(), 2u);
}

}  // namespace
}  // namespace myriad
