// A streamer's jobs: a fixed set of job objects (sized once, so a launch allocates nothing and the jobs in
// flight are bounded) run on the scene's shared worker pool (core/thread/worker_pool.hpp) below the frame
// thread, nearest first by the priority each launch gives. The owner's thread launches and collects; a job
// writes only its own object until it is done, and collect() hands it back to the owner's `finish` in
// launch order, at most a given number per call: the per-frame work budget that keeps a burst of finished
// jobs from landing in one frame (the rest wait, done, for the next call). An owner launches a frame's jobs
// inside one batch(): they go on the pool quietly and wake its workers once when the batch ends
// (WorkerPool::push_quiet says why).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "myriad/core/thread/worker_pool.hpp"

namespace myriad {

template <class J>  // J derives from WorkerPool::Job
class StreamJobs {
 public:
  // `count` jobs (at least one) on `pool`.
  StreamJobs(std::shared_ptr<WorkerPool> pool, int count) : pool_(std::move(pool)) {
    const std::size_t n = std::size_t(count > 0 ? count : 1);
    jobs_.reserve(n);
    launched_.reserve(n);
    for (std::size_t j = 0; j < n; ++j) {
      jobs_.push_back(std::make_unique<J>());
      free_.push_back(int(n - 1 - j));
    }
  }
  // Waits (yielding) for every job in flight: the pool may be shared and outlive the streamer, and a
  // job reads its owner. Declare this member last, so it goes before everything its jobs read.
  ~StreamJobs() {
    for (int j : launched_)
      while (!jobs_[std::size_t(j)]->done.load(std::memory_order_acquire)) std::this_thread::yield();
  }
  StreamJobs(const StreamJobs&) = delete;
  StreamJobs& operator=(const StreamJobs&) = delete;

  // Visits every job, e.g. to size their buffers once before the first launch.
  template <class F>
  void for_each_job(F f) {
    for (auto& job : jobs_) f(*job);
  }

  // Every job has been launched and not collected yet.
  bool full() const { return free_.empty(); }
  // Launched and not collected (running, queued, or done and waiting for collect()).
  std::size_t in_flight() const { return launched_.size(); }
  std::size_t size() const { return jobs_.size(); }

  // The job the next launch takes (requires !full()): the owner fills in its inputs, then launches it.
  J& next() { return *jobs_[std::size_t(free_.back())]; }
  // Launches within a batch wake the pool once, when the last open batch ends (a scope: the wake cannot
  // be forgotten).
  class [[nodiscard]] LaunchBatch {
   public:
    explicit LaunchBatch(StreamJobs& jobs) : jobs_(jobs) { ++jobs_.batches_; }
    ~LaunchBatch() {
      if (--jobs_.batches_ == 0 && jobs_.unwoken_) {
        jobs_.unwoken_ = false;
        jobs_.pool_->wake();
      }
    }
    LaunchBatch(const LaunchBatch&) = delete;
    LaunchBatch& operator=(const LaunchBatch&) = delete;

   private:
    StreamJobs& jobs_;
  };
  LaunchBatch batch() { return LaunchBatch(*this); }

  // Launches next() with `run(J&, WorkerPool::Local&)`, `priority` lowest first (metres to the camera).
  // Outside a batch it wakes a worker at once.
  template <class Run>
  void launch(std::int64_t priority, Run run) {
    const int j = free_.back();
    free_.pop_back();
    launched_.push_back(j);
    J& job = *jobs_[std::size_t(j)];
    auto task = [run = std::move(run), &job](WorkerPool::Local& local) { run(job, local); };
    if (batches_ == 0) {
      pool_->push(job, std::move(task), priority);
      return;
    }
    pool_->push_quiet(job, std::move(task), priority);
    unwoken_ = true;
  }

  // Hands at most `max_jobs` finished jobs (0: all) to `finish(J&)`, oldest launch first; job.error holds
  // what its run threw. Each job is free again after its finish. Returns the first error, for the owner to
  // rethrow once its bookkeeping is done.
  template <class Finish>
  std::exception_ptr collect(std::size_t max_jobs, Finish finish) {
    std::exception_ptr first_error;
    std::size_t taken = 0, kept = 0;
    for (std::size_t i = 0; i < launched_.size(); ++i) {
      const int j = launched_[i];
      J& job = *jobs_[std::size_t(j)];
      if ((max_jobs != 0 && taken == max_jobs) || !job.done.load(std::memory_order_acquire)) {
        launched_[kept++] = j;
        continue;
      }
      ++taken;
      if (job.error && !first_error) first_error = job.error;
      finish(job);
      job.error = nullptr;
      job.done.store(false, std::memory_order_relaxed);
      free_.push_back(j);
    }
    launched_.resize(kept);
    return first_error;
  }

  // Visits every job not in flight (their buffers are the owner's to count or reuse).
  template <class F>
  void for_each_free(F f) const {
    for (int j : free_) f(static_cast<const J&>(*jobs_[std::size_t(j)]));
  }
  // Visits every job in flight (e.g. to cancel what has not begun; a job's own flags only).
  template <class F>
  void for_each_in_flight(F f) {
    for (int j : launched_) f(*jobs_[std::size_t(j)]);
  }
  template <class F>
  void for_each_in_flight(F f) const {
    for (int j : launched_) f(static_cast<const J&>(*jobs_[std::size_t(j)]));
  }

 private:
  std::shared_ptr<WorkerPool> pool_;
  std::vector<std::unique_ptr<J>> jobs_;
  std::vector<int> free_;      // a stack: the most recently freed job goes next
  std::vector<int> launched_;  // in launch order
  int batches_ = 0;            // open LaunchBatch scopes
  bool unwoken_ = false;       // launched quietly since the last wake
};

}  // namespace myriad
