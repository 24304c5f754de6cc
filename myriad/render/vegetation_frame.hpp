// One rendered vegetation frame with two-phase Hi-Z occlusion tied to the real depth buffer: phase 1
// culls (frustum + LOD) only what the previous frame found visible and draws it with the scene's
// opaque geometry (ground, walls); the depth pyramid is rebuilt from that depth buffer; phase 2 tests
// every instance against it, records visibility for the next frame and draws the newly visible ones
// into the same target. Without occlusion: one cull pass, one draw pass.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "myriad/gpu/buffer.hpp"
#include "myriad/render/depth_pyramid.hpp"
#include "myriad/render/offscreen_target.hpp"
#include "myriad/render/vegetation_renderer.hpp"

namespace myriad::render {

struct VegetationFrameType {
  const VegetationGpuType* gpu = nullptr;
  std::uint32_t id_base = 0;  // instance ids of this type in VegetationDrawSettings::instance_ids output
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
  std::uint64_t total() const;
};

class VegetationFrame {
 public:
  using OpaqueFn = std::function<void(VkCommandBuffer, const VegetationDrawSettings&)>;

  VegetationFrame(gpu::Context& ctx, const VegetationCull& cull, const VegetationRenderer& renderer,
                  OffscreenTarget& target, std::uint32_t max_types = 8);

  // Records the frame into `target` (cleared to `clear`). `settings.view_proj` and `camera` are
  // relative to the render origin; `opaque` draws the non-vegetation geometry in phase 1 (it occludes).
  void record(VkCommandBuffer cmd, const VegetationDrawSettings& settings, glm::vec3 camera,
              std::span<const VegetationFrameType> types, const OpaqueFn& opaque, bool occlusion,
              glm::vec4 clear = {0.55f, 0.7f, 0.9f, 1.0f}, const ShadowMap* shadow = nullptr);

  // After the submission of record() completed.
  VegetationFrameCounts read_counts() const;

  const DepthPyramid& pyramid() const { return pyramid_; }

 private:
  void resume(VkCommandBuffer cmd);
  void copy_args(VkCommandBuffer cmd, std::span<const VegetationFrameType> types, std::uint32_t pass);

  gpu::Context& ctx_;
  const VegetationCull& cull_;
  const VegetationRenderer& renderer_;
  OffscreenTarget& target_;
  DepthPyramid pyramid_;
  gpu::Buffer counts_;  // readback: DrawIndexedCommand[2][max_types][kGpuMaxLods]
  std::uint32_t max_types_;
  std::uint32_t recorded_types_ = 0;
  std::uint32_t recorded_draws_ = 0;
  std::uint32_t recorded_binds_ = 0;
};

}  // namespace myriad::render
