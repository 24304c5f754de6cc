// What the kernel counted against the calling thread (getrusage RUSAGE_THREAD): the times another thread
// took its core (involuntary context switches) and its page faults. A frame's CPU time (ThreadStopwatch)
// grows after either without the frame's work changing: a switch leaves the caches to refill, a fault is
// kernel time charged to the thread. Read before and after a frame, the difference says whether a slow
// frame was slow for one of these. Linux only; elsewhere every count reads 0.
#pragma once

#include <cstdint>

#if defined(__linux__)
#include <sys/resource.h>
#endif

namespace myriad::bench {

struct ThreadUsage {
  std::uint64_t preemptions = 0;  // involuntary context switches
  std::uint64_t page_faults = 0;  // minor and major

  static ThreadUsage now() {
    ThreadUsage u;
#if defined(__linux__) && defined(RUSAGE_THREAD)
    rusage r{};
    if (getrusage(RUSAGE_THREAD, &r) == 0) {
      u.preemptions = static_cast<std::uint64_t>(r.ru_nivcsw);
      u.page_faults = static_cast<std::uint64_t>(r.ru_minflt) + static_cast<std::uint64_t>(r.ru_majflt);
    }
#endif
    return u;
  }

  // What happened since `before` (counts only grow).
  ThreadUsage since(const ThreadUsage& before) const {
    return {preemptions - before.preemptions, page_faults - before.page_faults};
  }
};

}  // namespace myriad::bench
