// The machine's own frame-time noise, measured in the same run as a frame loop: fixed CPU workloads (the
// same every frame: hashing a buffer that stays in cache) timed right after each frame's CPU work, so under
// the same conditions (the same threads runnable, the same GPU work between frames, the same scheduler
// and host). A fixed workload's p99 / p50 is about the best ratio any frame loop of that size can show on
// this machine; a flight's ratio is read against it (a shared VM with an emulated GPU is noisy).
//
// Why a ladder of sizes, not one: the noise here is mostly added time (an interrupt, a cache refill, a
// neighbour on the core), about the same tens of microseconds whatever the work, so the same fixed work's
// p99 / p50 falls as it grows (measured on the 2-core development machine: 0.03 ms 1.8-2.7, 0.1 ms 1.4-1.6,
// 0.3 ms 1.2, 1 ms 1.1). A frame is read against the probe of its own median size: the rungs' ratios
// interpolated at the frame's p50 (`matched_noise_ratio`), each rung reported beside it.
//
// The hashing stays in cache, and a frame that streams does not: it copies meshes the workers wrote and
// walks tables larger than the cache. A second ladder copies blocks (64 KiB to 4 MiB) out of a 64 MiB
// buffer, a different part each frame, so it misses the cache as the frame's copies do; it is reported
// beside the first (`noise_copy_*`, `cpu_thread_ratio_over_copy_noise`) to show how much of a flight's
// spread this machine gives work that reads memory. The target is read against the first ladder.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "myriad/core/thread/stopwatch.hpp"
#include "suite.hpp"

namespace myriad::bench {

// One rung of the ladder as measured: its workload's p50 (ms) and p99 / p50.
struct NoiseRung {
  double p50_ms = 0.0;
  double ratio = 0.0;
};

// The noise ratio of a fixed workload as long as `frame_p50_ms`: linear in log(size) between the two
// rungs around it (rungs in any order), the nearest rung's ratio outside the ladder; 0 with no rungs.
inline double matched_noise_ratio(std::span<const NoiseRung> rungs, double frame_p50_ms) {
  const NoiseRung* lo = nullptr;  // the longest rung not longer than the frame
  const NoiseRung* hi = nullptr;  // the shortest rung not shorter
  for (const NoiseRung& r : rungs) {
    if (r.p50_ms <= frame_p50_ms && (!lo || r.p50_ms > lo->p50_ms)) lo = &r;
    if (r.p50_ms >= frame_p50_ms && (!hi || r.p50_ms < hi->p50_ms)) hi = &r;
  }
  if (!lo) return hi ? hi->ratio : 0.0;
  if (!hi || hi->p50_ms <= lo->p50_ms) return lo->ratio;
  const double t = std::log(frame_p50_ms / lo->p50_ms) / std::log(hi->p50_ms / lo->p50_ms);
  return lo->ratio + (hi->ratio - lo->ratio) * t;
}

class NoiseProbe {
 public:
  static constexpr std::array<double, 4> kRungMs = {0.03, 0.1, 0.3, 1.0};
  static constexpr std::array<std::size_t, 4> kCopyKiB = {64, 256, 1024, 4096};

  NoiseProbe()
      : buffer_(4096), copy_from_(std::size_t(64) << 20, std::byte{1}), copy_to_(kCopyKiB.back() << 10) {
    for (std::size_t i = 0; i < buffer_.size(); ++i) buffer_[i] = (i + 1) * 0x9E3779B97F4A7C15ull;
    double fastest = 1e30;
    for (int i = 0; i < 7; ++i) {  // one pass's cost (the fastest of a few, once warm)
      ThreadStopwatch clock;
      work(buffer_.size());
      fastest = std::min(fastest, clock.elapsed_ms());
    }
    const double per_value_ms = std::max(fastest, 1e-6) / double(buffer_.size());
    for (std::size_t k = 0; k < kRungMs.size(); ++k)
      values_[k] = std::max<std::size_t>(1, std::size_t(kRungMs[k] / per_value_ms + 0.5));
  }

  // Every rung timed once (the thread's CPU time), starting from a different rung each frame so no rung
  // always runs first after the frame's work.
  void run() {
    for (std::size_t i = 0; i < kRungMs.size(); ++i) {
      const std::size_t k = (i + runs_) % kRungMs.size();
      ThreadStopwatch cpu;
      work(values_[k]);
      thread_ms_[k].push_back(cpu.elapsed_ms());
    }
    for (std::size_t i = 0; i < kCopyKiB.size(); ++i) {
      const std::size_t k = (i + runs_) % kCopyKiB.size(), bytes = kCopyKiB[k] << 10;
      if (copy_at_ + bytes > copy_from_.size()) copy_at_ = 0;
      ThreadStopwatch cpu;
      std::memcpy(copy_to_.data(), copy_from_.data() + copy_at_, bytes);
      copy_ms_[k].push_back(cpu.elapsed_ms());
      copy_at_ += bytes;
    }
    ++runs_;
  }

  std::array<NoiseRung, kRungMs.size()> rungs() const { return measure(thread_ms_); }
  // The latest run()'s time of hash rung `k` and of copy rung `k` (ms; 0 before the first run): a frame's
  // own probe, beside the frame in a per-frame table.
  double last_rung_ms(std::size_t k) const { return thread_ms_[k].empty() ? 0.0 : thread_ms_[k].back(); }
  double last_copy_ms(std::size_t k) const { return copy_ms_[k].empty() ? 0.0 : copy_ms_[k].back(); }
  std::array<NoiseRung, kCopyKiB.size()> copy_rungs() const { return measure(copy_ms_); }

  // Reports the matched ratio, the flight's ratio over it, and each rung, under `at` ("speed200.").
  void report(Report& report, const std::string& at, double frame_p50_ms, double frame_p99_ms,
              const std::string& target) const {
    const auto measured = rungs();
    const double noise = matched_noise_ratio(measured, frame_p50_ms);
    report.add(at + "noise_thread_p99_over_p50", noise, "",
               "fixed workloads timed in every frame, read at the frame's p50: this machine's floor");
    report.add(at + "cpu_thread_ratio_over_noise",
               frame_p50_ms > 0.0 && noise > 0.0 ? frame_p99_ms / frame_p50_ms / noise : 0.0, "", target);
    for (std::size_t k = 0; k < kRungMs.size(); ++k) {
      const std::string rung =
          at + "noise_rung_" + std::to_string(int(std::lround(kRungMs[k] * 1000.0))) + "us";
      report.add(rung + "_p50_ms", measured[k].p50_ms, "ms", "one fixed workload, this size nominally");
      report.add(rung + "_p99_over_p50", measured[k].ratio, "");
    }
    const auto copies = copy_rungs();
    const double copy_noise = matched_noise_ratio(copies, frame_p50_ms);
    report.add(at + "noise_copy_p99_over_p50", copy_noise, "",
               "fixed copies out of memory not in cache, timed in every frame, read at the frame's p50");
    report.add(at + "cpu_thread_ratio_over_copy_noise",
               frame_p50_ms > 0.0 && copy_noise > 0.0 ? frame_p99_ms / frame_p50_ms / copy_noise : 0.0, "",
               "beside the target: the spread this machine gives work that reads memory");
    for (std::size_t k = 0; k < kCopyKiB.size(); ++k) {
      const std::string rung = at + "noise_copy_" + std::to_string(kCopyKiB[k]) + "k";
      report.add(rung + "_p50_ms", copies[k].p50_ms, "ms", "one fixed copy of this many KiB");
      report.add(rung + "_p99_over_p50", copies[k].ratio, "");
    }
  }

 private:
  template <std::size_t N>
  static std::array<NoiseRung, N> measure(const std::array<std::vector<double>, N>& ms) {
    std::array<NoiseRung, N> out{};
    for (std::size_t k = 0; k < N; ++k) {
      const double p50 = percentile(ms[k], 0.5);
      out[k] = {p50, p50 > 0.0 ? percentile(ms[k], 0.99) / p50 : 0.0};
    }
    return out;
  }

  void work(std::size_t values) {
    std::uint64_t h = sink_;
    for (std::size_t done = 0; done < values;) {  // whole passes over the buffer, then the rest
      const std::size_t n = std::min(values - done, buffer_.size());
      for (std::size_t i = 0; i < n; ++i) h = (h ^ buffer_[i]) * 0x100000001B3ull;
      done += n;
    }
    sink_ = h;  // kept, so the loop is not removed
  }

  std::vector<std::uint64_t> buffer_;  // 32 KiB: stays in cache, so the work is the same every frame
  std::array<std::size_t, kRungMs.size()> values_{};
  std::array<std::vector<double>, kRungMs.size()> thread_ms_;
  std::vector<std::byte> copy_from_, copy_to_;  // the copies' source is far larger than the caches
  std::size_t copy_at_ = 0;
  std::array<std::vector<double>, kCopyKiB.size()> copy_ms_;
  std::size_t runs_ = 0;
  std::uint64_t sink_ = 0;
};

}  // namespace myriad::bench
