// Worker threads of a stream's own (not the TBB pool: the frame thread never joins their work, and TBB's
// default limit would leave one worker on two cores), fed from a FIFO of launched jobs. A job carries
// `std::exception_ptr error` (what its run threw) and `std::atomic<bool> done` (set, with release order,
// when the run returned or threw); the owner polls `done` and never waits. Each thread keeps one Scratch.
// The threads run below the frame thread's priority (core/thread/thread_priority.hpp): a section being meshed
// waits for the frame, never the frame for it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "myriad/core/thread/thread_priority.hpp"

namespace myriad::voxel {

template <class Job, class Scratch>
class JobWorkers {
 public:
  // `capacity`: the most jobs ever queued at once (the owner's jobs in flight).
  JobWorkers(int thread_count, std::size_t capacity, std::function<void(Job&, Scratch&)> run)
      : run_(std::move(run)), ring_(capacity) {
    for (int t = 0; t < thread_count; ++t) threads_.emplace_back([this] { work(); });
  }
  // Runs what is queued, then joins.
  ~JobWorkers() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  JobWorkers(const JobWorkers&) = delete;
  JobWorkers& operator=(const JobWorkers&) = delete;

  void push(Job* job) {
    {
      std::lock_guard lock(mutex_);
      ring_[(head_ + count_) % ring_.size()] = job;  // never full: at most one entry per job
      ++count_;
    }
    wake_.notify_one();
  }

 private:
  void work() {
    lower_current_thread_priority();
    Scratch scratch;
    for (;;) {
      Job* job = nullptr;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || count_ != 0; });
        if (count_ == 0) return;  // stopping and nothing left
        job = ring_[head_];
        head_ = (head_ + 1) % ring_.size();
        --count_;
      }
      try {
        run_(*job, scratch);
      } catch (...) {
        job->error = std::current_exception();
      }
      job->done.store(true, std::memory_order_release);
    }
  }

  std::function<void(Job&, Scratch&)> run_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Job*> ring_;
  std::size_t head_ = 0, count_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;  // last: started after everything they use exists
};

}  // namespace myriad::voxel
