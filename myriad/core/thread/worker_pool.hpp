// The streamers' worker threads: one pool a scene's streamers share (the voxel world's fine columns and far
// levels, the vegetation tiles), not the TBB pool: the frame thread never joins their work, and TBB's
// default limit would leave one worker on two cores. Jobs run by priority (lowest first: the streamers
// give their distance to the camera in metres, so the nearest work of every streamer on the pool goes
// first), equal priorities in the order they were pushed. A job's
// owner keeps a WorkerPool::Job (its error and done flag) and polls `done`, never waiting on the pool;
// each worker thread keeps one scratch object per type a job asks for (Local::scratch<T>), made on first
// use. The threads run below the frame thread's priority (thread_priority.hpp): a section being meshed
// or a tile being read waits for the frame, never the frame for it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace myriad {

class WorkerPool {
 public:
  // What the pool sets for a job: `error` (what its run threw) and `done` (release order, after the
  // run returned or threw). The owner clears `done` before pushing the job again.
  struct Job {
    std::exception_ptr error;
    std::atomic<bool> done{false};
  };

  // One worker thread's scratch objects.
  class Local {
   public:
    template <class T>
    T& scratch() {
      static const char tag = 0;  // one per type
      for (Item& i : items_)
        if (i.tag == &tag) return *static_cast<T*>(i.object.get());
      items_.push_back({&tag, Owned(new T(), [](void* p) { delete static_cast<T*>(p); })});
      return *static_cast<T*>(items_.back().object.get());
    }

   private:
    using Owned = std::unique_ptr<void, void (*)(void*)>;
    struct Item {
      const char* tag;
      Owned object;
    };
    std::vector<Item> items_;
  };

  // `thread_count` threads (0: the hardware threads less one, at least one).
  explicit WorkerPool(int thread_count);
  // Runs what is queued, then joins.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `run` for `job` (which must stay alive until job.done), behind every queued job of a lower
  // or equal priority, and wakes a worker.
  void push(Job& job, std::function<void(Local&)> run, std::int64_t priority = 0);
  // Queues like push() without waking anyone: a frame's launches go in quietly, then one wake() for all.
  // (A wake per push hands the pool's lock back and forth with each woken worker, a system call per job
  // on the pushing thread: on two cores, about 1 ms for a frame's 8 launches.) Workers that
  // are running take quiet jobs as they finish; sleeping ones only after wake().
  void push_quiet(Job& job, std::function<void(Local&)> run, std::int64_t priority = 0);
  // Wakes a sleeping worker for what push_quiet() queued; each worker that takes a job and leaves more
  // queued wakes the next, so the caller pays for one wake.
  void wake();
  // Wakes so far (push() and wake() each count one).
  std::uint64_t wakes() const { return wakes_.load(std::memory_order_relaxed); }
  int thread_count() const { return int(threads_.size()); }

 private:
  struct Entry {
    std::int64_t priority = 0;
    std::uint64_t order = 0;  // push order, among equal priorities
    Job* job = nullptr;
    std::function<void(Local&)> run;
  };
  void work();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Entry> queue_;  // a binary heap, first to run on top (owners bound their jobs in flight)
  std::uint64_t pushed_ = 0;
  std::atomic<std::uint64_t> wakes_{0};
  bool stop_ = false;
  std::vector<std::thread> threads_;  // last: started after everything they use exists
};

// The pool a streamer uses: `shared` when given, else one of its own with `thread_count` threads.
std::shared_ptr<WorkerPool> worker_pool(std::shared_ptr<WorkerPool> shared, int thread_count);

}  // namespace myriad
