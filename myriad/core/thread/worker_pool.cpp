#include "myriad/core/thread/worker_pool.hpp"

#include <algorithm>
#include <utility>

#include "myriad/core/thread/parallel.hpp"
#include "myriad/core/thread/thread_priority.hpp"

namespace myriad {

namespace {

// The heap's order: the entry that runs first compares greatest.
struct RunsLater {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    return a.priority != b.priority ? a.priority > b.priority : a.order > b.order;
  }
};

}  // namespace

WorkerPool::WorkerPool(int thread_count) {
  queue_.reserve(64);
  const int n = thread_count > 0 ? thread_count : std::max(1, int(hardware_threads()) - 1);
  for (int t = 0; t < n; ++t) threads_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::push(Job& job, std::function<void(Local&)> run, std::int64_t priority) {
  push_quiet(job, std::move(run), priority);
  wakes_.fetch_add(1, std::memory_order_relaxed);
  wake_.notify_one();
}

void WorkerPool::push_quiet(Job& job, std::function<void(Local&)> run, std::int64_t priority) {
  std::lock_guard lock(mutex_);
  queue_.push_back({priority, pushed_++, &job, std::move(run)});
  std::push_heap(queue_.begin(), queue_.end(), RunsLater{});
}

void WorkerPool::wake() {
  wakes_.fetch_add(1, std::memory_order_relaxed);
  wake_.notify_one();  // the woken worker wakes the next while work is left (work())
}

void WorkerPool::work() {
  lower_current_thread_priority();
  Local local;
  for (;;) {
    Entry entry;
    bool more = false;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and nothing left
      std::pop_heap(queue_.begin(), queue_.end(), RunsLater{});
      entry = std::move(queue_.back());
      queue_.pop_back();
      more = !queue_.empty();
    }
    // Work left behind wakes the next worker: a woken worker passes the wake on, so the thread that
    // queued a batch wakes one (wake()) and never pays for the rest.
    if (more) wake_.notify_one();
    try {
      entry.run(local);
    } catch (...) {
      entry.job->error = std::current_exception();
    }
    entry.job->done.store(true, std::memory_order_release);
  }
}

std::shared_ptr<WorkerPool> worker_pool(std::shared_ptr<WorkerPool> shared, int thread_count) {
  return shared ? std::move(shared) : std::make_shared<WorkerPool>(thread_count);
}

}  // namespace myriad
