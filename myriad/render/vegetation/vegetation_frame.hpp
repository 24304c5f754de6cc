// Vegetation in a frame with two-phase Hi-Z occlusion tied to the real depth buffer: phase 1 culls
// (frustum + LOD) only what the previous frame found visible and draws it with the scene's other
// opaque geometry; the depth pyramid is rebuilt from that depth buffer; phase 2 tests every instance
// against it, records visibility for the next frame and draws the newly visible ones into the same
// target. Without occlusion: one cull pass, one draw pass.
//
// VegetationPasses is what a frame's phases do to a set of runtime types (the vegetation field runs
// it inside the scene frame); VegetationFrame is a whole frame of plants and a caller's occluders on
// its own (tools, tests), run by the same SceneFrame as every other scene.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/render/vegetation/vegetation_renderer.hpp"

namespace myriad::render {

struct VegetationFrameType {
  const VegetationGpuType* gpu = nullptr;
  std::uint32_t id_base = 0;  // instance ids of this type in VegetationDrawOptions::instance_ids output
};

// Instances drawn by the last recorded frame, per pass and LOD, summed over types.
struct VegetationFrameCounts {
  std::array<std::uint64_t, vegetation::kGpuMaxLods> early{};  // phase 1 (or the single pass)
  std::array<std::uint64_t, vegetation::kGpuMaxLods> late{};   // phase 2
  std::uint64_t triangles = 0;  // both phases: instances x their LOD mesh's triangles
  std::uint64_t indices = 0;    // both phases: index count x instances (vertex shader invocations)
  std::uint32_t draws = 0;      // indexed indirect draws recorded
  std::uint32_t binds = 0;      // pipeline binds recorded (one per type and pass)
  std::uint64_t overflow = 0;   // appends dropped because a list was full (0 unless something is wrong)
  // The camera's cull (single, or early + late): instances that passed group, LOD and frustum tests,
  // and those of them the pyramid hid.
  std::uint64_t frustum_passed = 0, occluded = 0;
  std::uint64_t total() const;
};

class VegetationPasses {
 public:
  VegetationPasses(gpu::Context& ctx, const VegetationCull& cull, const VegetationRenderer& renderer,
                   std::uint32_t max_types = 8);

  // Outside rendering, first in a frame: clears the counts of the frame's phases.
  void begin_frame(VkCommandBuffer cmd, std::span<const VegetationFrameType> types);
  // Outside rendering: every type culled for `phase` (kLate tests against `pyramid`, a MIN pyramid of
  // phase 1's depth for `view`); the draw arguments are kept for read_counts().
  void cull(VkCommandBuffer cmd, const FrameView& view, std::span<const VegetationFrameType> types,
            FramePhase phase, const DepthPyramid* pyramid);
  // Inside rendering, after cull() of the same phase: every type's indirect draws.
  void draw(VkCommandBuffer cmd, const FrameView& view, const VegetationDrawOptions& settings,
            std::span<const VegetationFrameType> types, const ShadowMap* shadow);

  // After the submission of the frame completed.
  VegetationFrameCounts read_counts() const;

 private:
  void copy_args(VkCommandBuffer cmd, std::span<const VegetationFrameType> types, std::uint32_t pass,
                 bool counters_valid);

  const VegetationCull& cull_;
  const VegetationRenderer& renderer_;
  gpu::Buffer counts_;    // readback: DrawIndexedCommand[2][max_types][kGpuMaxLods]
  gpu::Buffer counters_;  // readback: CullCounters[max_types] of the single or late pass
  std::uint32_t max_types_;
  std::uint32_t recorded_types_ = 0;
  std::uint32_t recorded_draws_ = 0;
  std::uint32_t recorded_binds_ = 0;
};

class VegetationFrame {
 public:
  using OpaqueFn = std::function<void(VkCommandBuffer)>;

  VegetationFrame(gpu::Context& ctx, const VegetationCull& cull, const VegetationRenderer& renderer,
                  OffscreenTarget& target, std::uint32_t max_types = 8);

  // Records the frame into `target` (cleared to `clear`) for `view` (relative to the types' render
  // origin); `opaque` draws the non-vegetation geometry in phase 1 (it occludes).
  void record(VkCommandBuffer cmd, const FrameView& view, const VegetationDrawOptions& settings,
              std::span<const VegetationFrameType> types, const OpaqueFn& opaque, bool occlusion,
              glm::vec4 clear = {0.55f, 0.7f, 0.9f, 1.0f}, const ShadowMap* shadow = nullptr);

  // After the submission of record() completed.
  VegetationFrameCounts read_counts() const { return passes_.read_counts(); }

  // The pyramid of the last two-phase frame (null before one).
  const DepthPyramid* pyramid() const { return frame_.pyramid(); }

 private:
  OffscreenTarget& target_;
  SceneFrame frame_;
  VegetationPasses passes_;
};

}  // namespace myriad::render
