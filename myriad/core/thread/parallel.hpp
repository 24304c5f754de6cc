// Data-parallel loops over oneTBB. Chunks are fixed by (begin, end, grain), never by the thread
// count, so any computation whose chunks write disjoint outputs — and any reduction combined in chunk
// order with parallel_reduce_ordered — gives the same bytes on 1 thread and on all threads.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace myriad {

// Calls body(chunk_begin, chunk_end) for disjoint chunks covering [begin, end), each at most `grain`
// long, possibly concurrently. grain 0 is treated as 1.
template <class Body>
void parallel_for(std::size_t begin, std::size_t end, std::size_t grain, Body&& body) {
  if (end <= begin) return;
  if (grain == 0) grain = 1;
  const std::size_t chunks = (end - begin + grain - 1) / grain;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, chunks, 1),
      [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t c = r.begin(); c != r.end(); ++c) {
          const std::size_t b = begin + c * grain;
          const std::size_t e = b + grain < end ? b + grain : end;
          body(b, e);
        }
      },
      tbb::simple_partitioner());
}

// Reduces fixed chunks in parallel, then combines the chunk results in chunk order on the calling
// thread, so floating-point sums are identical for any thread count.
template <class T, class ChunkFn, class Combine>
T parallel_reduce_ordered(std::size_t begin, std::size_t end, std::size_t grain, T identity,
                          ChunkFn&& chunk_fn, Combine&& combine) {
  if (end <= begin) return identity;
  if (grain == 0) grain = 1;
  const std::size_t chunks = (end - begin + grain - 1) / grain;
  std::vector<T> partial(chunks, identity);
  parallel_for(0, chunks, 1, [&](std::size_t cb, std::size_t ce) {
    for (std::size_t c = cb; c < ce; ++c) {
      const std::size_t b = begin + c * grain;
      const std::size_t e = b + grain < end ? b + grain : end;
      partial[c] = chunk_fn(b, e);
    }
  });
  T acc = identity;
  for (const T& p : partial) acc = combine(acc, p);
  return acc;
}

// Limits the worker threads of every parallel loop while it lives (0 = hardware concurrency).
class ThreadLimit {
 public:
  explicit ThreadLimit(std::size_t threads);
  ~ThreadLimit();
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::size_t hardware_threads();

}  // namespace myriad
