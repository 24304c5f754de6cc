#include "myriad/core/thread/worker_pool.hpp"

#include <algorithm>
#include <utility>

#include "myriad/core/thread/parallel.hpp"
#include "myriad/core/thread/thread_priority.hpp"

namespace myriad {

WorkerPool::WorkerPool(int thread_count) : ring_(64) {
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

void WorkerPool::push(Job& job, std::function<void(Local&)> run) {
  {
    std::lock_guard lock(mutex_);
    if (count_ == ring_.size()) {  // full: unrolled into a ring twice the size
      std::vector<Entry> grown(ring_.size() * 2);
      for (std::size_t i = 0; i < count_; ++i) grown[i] = std::move(ring_[(head_ + i) % ring_.size()]);
      ring_ = std::move(grown);
      head_ = 0;
    }
    ring_[(head_ + count_) % ring_.size()] = {&job, std::move(run)};
    ++count_;
  }
  wake_.notify_one();
}

void WorkerPool::work() {
  lower_current_thread_priority();
  Local local;
  for (;;) {
    Entry entry;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || count_ != 0; });
      if (count_ == 0) return;  // stopping and nothing left
      entry = std::move(ring_[head_]);
      head_ = (head_ + 1) % ring_.size();
      --count_;
    }
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
