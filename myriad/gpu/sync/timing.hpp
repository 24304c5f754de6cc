// Frame timing that says where its numbers come from: GPU timestamp queries on a real GPU, wall-clock
// around submit-and-wait elsewhere (lavapipe runs on the CPU, so its "GPU time" is CPU emulation).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/device/context.hpp"

namespace myriad::gpu {

enum class TimingSource { kGpuTimestamps, kWallClock };
const char* timing_source_name(TimingSource source);  // "gpu-timestamps" / "wall-clock"

// Named intervals inside one submission. Usage: begin_frame(cmd); mark(cmd, "cull"); ...;
// after the submission completed, resolve() gives each mark's duration since the previous mark.
class GpuTimer {
 public:
  GpuTimer(const Context& ctx, std::uint32_t max_marks = 32);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  TimingSource source() const { return source_; }
  void begin_frame(VkCommandBuffer cmd);
  void mark(VkCommandBuffer cmd, const char* name);

  struct Interval {
    std::string name;
    double ms;
  };
  // Call after the frame's submission completed. With wall-clock timing the intervals are empty and
  // only total_ms (set by the caller via set_wall_total) is meaningful.
  std::vector<Interval> resolve();
  void set_wall_total(double ms) { wall_total_ms_ = ms; }
  double wall_total_ms() const { return wall_total_ms_; }

 private:
  VkDevice device_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  TimingSource source_;
  double period_ns_ = 1.0;
  std::uint32_t max_marks_;
  std::vector<const char*> names_;
  double wall_total_ms_ = 0.0;
};

}  // namespace myriad::gpu
