// Wall-clock measurement for benchmarks and stats (never for pass/fail in tests).
#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

namespace myriad {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  void restart() { start_ = std::chrono::steady_clock::now(); }
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  double elapsed_ns() const {
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// CPU time of the calling thread (POSIX CLOCK_THREAD_CPUTIME_ID): unlike the wall clock it does not count
// the time the thread waited for a core while another thread ran. Benchmarks report both: the wall clock
// is what a frame costs on the machine at hand, this is what the frame's own work costs.
class ThreadStopwatch {
 public:
  ThreadStopwatch() : start_(now_ms()) {}
  void restart() { start_ = now_ms(); }
  double elapsed_ms() const { return now_ms() - start_; }
  static double now_ms() {
#if defined(CLOCK_THREAD_CPUTIME_ID)
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
#else
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
#endif
  }

 private:
  double start_;
};

// Median of repeated measurements (the figure every benchmark reports on this noisy machine).
inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace myriad
