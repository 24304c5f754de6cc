// The machine's own frame-time noise, measured in the same run as a frame loop: a fixed CPU workload (the
// same every frame: hashing a buffer that stays in cache, sized at start to about `target_ms`) timed right
// after each frame's CPU work, so under the same conditions (the same threads runnable, the same GPU work
// between frames, the same scheduler and host). Its p99 / p50 is about the best ratio any frame loop can
// show on this machine; a flight's ratio is read against it (a shared VM with an emulated GPU is noisy).
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/core/thread/stopwatch.hpp"
#include "suite.hpp"

namespace myriad::bench {

class NoiseProbe {
 public:
  explicit NoiseProbe(double target_ms) : buffer_(32u << 10) {
    for (std::size_t i = 0; i < buffer_.size(); ++i) buffer_[i] = (i + 1) * 0x9E3779B97F4A7C15ull;
    double fastest = 1e30;
    for (int i = 0; i < 7; ++i) {  // one round's cost (the fastest of a few, once warm)
      Stopwatch clock;
      work(1);
      fastest = std::min(fastest, clock.elapsed_ms());
    }
    rounds_ = std::max(1, int(target_ms / std::max(fastest, 1e-6) + 0.5));
  }

  // One timed workload (wall clock and the thread's CPU time).
  void run() {
    Stopwatch wall;
    ThreadStopwatch cpu;
    work(rounds_);
    thread_ms_.push_back(cpu.elapsed_ms());
    wall_ms_.push_back(wall.elapsed_ms());
  }

  double wall_ratio() const { return ratio(wall_ms_); }
  double thread_ratio() const { return ratio(thread_ms_); }
  double wall_p50_ms() const { return percentile(wall_ms_, 0.5); }

 private:
  static double ratio(const std::vector<double>& v) {
    const double p50 = percentile(v, 0.5);
    return p50 > 0.0 ? percentile(v, 0.99) / p50 : 0.0;
  }
  void work(int rounds) {
    std::uint64_t h = sink_;
    for (int r = 0; r < rounds; ++r)
      for (const std::uint64_t v : buffer_) h = (h ^ v) * 0x100000001B3ull;
    sink_ = h;  // kept, so the loop is not removed
  }

  std::vector<std::uint64_t> buffer_;  // 256 KiB
  int rounds_ = 1;
  std::uint64_t sink_ = 0;
  std::vector<double> wall_ms_, thread_ms_;
};

}  // namespace myriad::bench
