// The passes of one frame, owned by the scene and run over its systems (FrameSystem), in order:
// CPU update → uploads → shadow (cull_shadow, draw_shadow) → cull phase 1 → draw phase 1 → depth
// pyramid of phase 1's depth → cull phase 2 (occlusion) → draw phase 2. Phase 2 and the pyramid run
// only when a system tests occlusion; otherwise the frame is one kSingle phase. The sky pass closes the
// last phase's rendering, and every receiver binds one light block: the shadow map's, or without one the
// frame's own light-only block, filled from the view (its sun, sky, fog and shading mode).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "myriad/gpu/device/context.hpp"
#include "myriad/gpu/sync/timing.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/passes/sky_pass.hpp"

namespace myriad::render {

class SceneFrame {
 public:
  explicit SceneFrame(gpu::Context& ctx);

  // Records the frame into `target` (cleared to `clear`, then the sky drawn where nothing else was; on
  // return target.end() was recorded).
  // `systems` in draw order within a phase (blended decals after the opaque systems they cover);
  // `shadow`, when given, was fitted to `view` (ShadowMap::fit). `dt` goes to every system's update.
  // With `timer`, marks "shadow" (when drawn), "cull" and "draw".
  void record(VkCommandBuffer cmd, const FrameView& view, std::span<FrameSystem* const> systems,
              OffscreenTarget& target, glm::vec4 clear, ShadowMap* shadow, float dt,
              gpu::GpuTimer* timer = nullptr);

  // Of the last record(): draws into the shadow map, and whether phase 2 ran.
  std::uint64_t shadow_draws() const { return shadow_draws_; }
  bool two_phase() const { return two_phase_; }
  // Bytes the systems staged through the context's staging ring in the last frame's uploads.
  std::uint64_t uploaded_bytes() const { return uploaded_bytes_; }
  // Off: one phase even when systems can test occlusion (every object that passes frustum and LOD
  // tests is drawn; diagnostics, and the reference that occlusion loses nothing visible). On by default.
  void set_occlusion(bool on) { occlusion_ = on; }
  // Off: pixels no geometry covers keep the clear colour instead of the sky (instance-id images, whose
  // clear colour is id 0; a scene whose clear colour stands for a ground under everything). On by default.
  void set_sky(bool on) { sky_on_ = on; }
  // The pyramid of the last two-phase frame (null before one).
  const DepthPyramid* pyramid() const { return pyramid_.get(); }

 private:
  gpu::Context& ctx_;
  std::unique_ptr<DepthPyramid> pyramid_;
  std::unique_ptr<ShadowMap> light_only_;  // the light block of frames drawn without a shadow map
  std::unique_ptr<SkyPass> sky_;
  std::uint64_t shadow_draws_ = 0;
  bool two_phase_ = false;
  bool occlusion_ = true;
  bool sky_on_ = true;
  std::uint64_t uploaded_bytes_ = 0;
};

}  // namespace myriad::render
