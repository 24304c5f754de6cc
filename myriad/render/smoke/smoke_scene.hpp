// The GPU smoke scene: a field of boxes culled on the GPU (SphereCull), drawn with
// vkCmdDrawIndexedIndirectCount (a frame system recorded by SceneFrame), followed by a depth pyramid
// of the frame. It exercises every
// foundation pattern end to end and is what `myriad render --scene smoke` draws.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "myriad/gpu/device/context.hpp"
#include "myriad/gpu/sync/timing.hpp"
#include "myriad/render/frame/scene_image.hpp"

namespace myriad::render {

// 16 M boxes: the instance count stays far inside 32 bits.
inline constexpr std::uint32_t kMaxSmokeGrid = 4096;

struct SmokeSceneOptions : SceneImageSize {
  std::uint32_t grid = 256;  // grid x grid boxes (1..kMaxSmokeGrid)
  std::uint32_t seed = 1;

  // Throws myriad::Error naming the first invalid field (render_smoke_scene calls it).
  void validate() const;
};

struct SmokeSceneResult : SceneImage {
  std::uint32_t instances = 0;
  std::uint32_t visible = 0;      // survivors of GPU culling (read back)
  std::uint32_t visible_cpu = 0;  // the CPU reference's count for the same frustum
  std::uint32_t pyramid_levels = 0;
  std::uint64_t triangles = 0;   // drawn
  std::uint32_t draw_calls = 1;  // one vkCmdDrawIndexedIndirectCount
  std::uint32_t pipeline_binds = 0;
  double record_ms = 0.0;  // CPU time to record the frame's commands
  double frame_ms = 0.0;   // submit to completion, wall clock
  gpu::TimingSource timing = gpu::TimingSource::kWallClock;
  std::vector<gpu::GpuTimer::Interval> gpu_intervals;  // per pass, with GPU timestamps only
};

SmokeSceneResult render_smoke_scene(gpu::Context& ctx, const SmokeSceneOptions& options);

}  // namespace myriad::render
