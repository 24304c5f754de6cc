// One value made on a worker thread ahead of need, so the frame that needs one takes it ready instead of
// paying for it on the frame thread: device buffers (a few tenths of a millisecond to allocate), or host
// memory written once so its pages are mapped (a page fault per 4 KiB on first touch, each tens of
// microseconds on a virtual machine). keep() starts the first; take() hands over a ready value and, when
// kept with `refill`, starts the next (without, the owner calls keep() again when it wants another, e.g.
// of a new size). A value not made yet is never waited for: take() says so (counted as missed) and the
// caller makes its own, as without a spare, so the result never depends on the worker's timing. A spare
// whose making threw is not tried again: every later take() misses and the caller's own making reports
// the failure. A copy keeps no spare (a world copied whole has no worker behind it).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "myriad/core/thread/worker_pool.hpp"

namespace myriad {

template <class T>
class WorkerSpare {
 public:
  struct Stats {
    std::uint64_t taken = 0;   // takes that got a ready value
    std::uint64_t missed = 0;  // takes that found none (not made yet, or its making threw)
  };

  WorkerSpare() = default;
  // A job still making a value writes into it: it finishes first.
  ~WorkerSpare() { wait(); }
  WorkerSpare(const WorkerSpare&) {}
  WorkerSpare& operator=(const WorkerSpare&) { return *this; }
  WorkerSpare(WorkerSpare&& other) noexcept = default;  // the job writes its slot, which keeps its address
  WorkerSpare& operator=(WorkerSpare&& other) noexcept {
    if (this != &other) {
      wait();
      workers_ = std::move(other.workers_);
      slot_ = std::move(other.slot_);
      refill_ = other.refill_;
      stats_ = other.stats_;
    }
    return *this;
  }

  // From now on a value is made by `make` on `workers` (priority 0: ahead of the streamers' work, which
  // goes by distance, as a spare is brief to make); the first starts now, and with `refill` the next
  // whenever one is taken. Waits for one still being made (check making() first to never wait); drops
  // one made and not taken.
  void keep(std::shared_ptr<WorkerPool> workers, std::function<T()> make, bool refill = true) {
    wait();
    workers_ = std::move(workers);
    slot_ = std::make_unique<Slot>();
    slot_->make = std::move(make);
    refill_ = refill;
    start();
  }
  bool kept() const { return slot_ != nullptr; }
  // A value is being made (not done yet).
  bool making() const { return slot_ && !slot_->job.done.load(std::memory_order_acquire); }
  // A value is made and may be taken.
  bool ready() const {
    return slot_ && slot_->job.done.load(std::memory_order_acquire) && !slot_->job.error && slot_->value;
  }
  // The ready value (with refill another is started), or nullopt without waiting: the caller makes its
  // own.
  std::optional<T> take() {
    if (!slot_) return std::nullopt;
    if (!ready()) {
      ++stats_.missed;
      return std::nullopt;
    }
    std::optional<T> out = std::move(slot_->value);
    slot_->value.reset();
    ++stats_.taken;
    if (refill_)
      start();
    else
      slot_.reset();  // done: nothing of it runs
    return out;
  }
  // The ready value, left in place (e.g. to count its memory), or null.
  const T* peek() const { return ready() ? &*slot_->value : nullptr; }
  const Stats& stats() const { return stats_; }

 private:
  struct Slot {
    WorkerPool::Job job;
    std::function<T()> make;
    std::optional<T> value;
  };
  void start() {
    slot_->job.done.store(false, std::memory_order_relaxed);
    Slot* slot = slot_.get();  // the job writes only its slot, whose address stays put until it is done
    workers_->push(
        slot->job, [slot](WorkerPool::Local&) { slot->value.emplace(slot->make()); }, 0);
  }
  void wait() const {
    if (slot_)
      while (!slot_->job.done.load(std::memory_order_acquire)) std::this_thread::yield();
  }

  std::shared_ptr<WorkerPool> workers_;
  std::unique_ptr<Slot> slot_;
  bool refill_ = true;
  Stats stats_;
};

}  // namespace myriad
