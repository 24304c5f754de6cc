// The one calling shape of every system a scene frame draws (terrain, voxel grass and trees, the
// vegetation field, the crowd, the avatars, the ground, ...). The scene frame owns the passes and
// calls every system in them, in this order:
//
//   update (CPU) → upload → shadow: cull_shadow, draw_shadow → phase 1: cull(kEarly), draw(kEarly)
//   → depth pyramid of phase 1's depth → phase 2: cull(kLate, pyramid), draw(kLate)
//
// A frame without occlusion runs one phase, kSingle. A system that does not test occlusion culls and
// draws everything in phase 1 (or kSingle) and nothing in phase 2; one that does (two-phase Hi-Z)
// draws in phase 1 what was visible last frame and in phase 2 what the pyramid newly shows.
#pragma once

#include <cstdint>

#include "myriad/gpu/device/vk.hpp"
#include "myriad/render/frame/frame_view.hpp"

namespace myriad::render {

class DepthPyramid;
class ShadowMap;

enum class FramePhase : std::uint32_t { kSingle = 0, kEarly = 1, kLate = 2 };

// One system's share of the last finished frame (FrameSystem::read_frame_stats).
struct SystemFrameStats {
  std::uint64_t objects = 0;  // candidates: pages, instances, entities, avatars
  std::uint64_t visible = 0;  // drawn after culling
  // Of the candidates: dropped by frustum, slice, distance or LOD tests, and (two-phase Hi-Z) hidden
  // behind this frame's depth. Occlusion is tested on those that passed the first tests.
  std::uint64_t frustum_culled = 0;
  std::uint64_t occlusion_culled = 0;
  std::uint64_t draws = 0;
  std::uint64_t pipeline_binds = 0;
  std::uint64_t vertices = 0;  // vertex shader invocations of the draws (indexed: indices drawn)
  std::uint64_t triangles = 0;
  std::uint64_t gpu_bytes = 0;
  // Entries the system's GPU culling dropped because an append list was full (the lists are sized
  // for every candidate, so anything but 0 is a bug; the draws stay in bounds either way).
  std::uint64_t overflow = 0;
};

class FrameSystem {
 public:
  virtual ~FrameSystem() = default;
  // Whether cull(kLate) tests the depth pyramid (two-phase Hi-Z); without any such system a scene frame
  // runs one phase and builds no pyramid.
  virtual bool occlusion_culled() const { return false; }
  // CPU, while recording, before upload(): animation, CPU culling, staging (`dt` seconds since the
  // last update).
  virtual void update(const FrameView& view, float dt) {
    (void)view;
    (void)dt;
  }
  // Outside rendering, first: this frame's uploads.
  virtual void upload(VkCommandBuffer cmd) { (void)cmd; }
  // Outside rendering: culling for a phase; kLate gets the pyramid of phase 1's depth.
  virtual void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                    const DepthPyramid* pyramid) = 0;
  // Inside the phase's rendering pass (colour + depth); `shadow` null without shadows.
  virtual void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                    const ShadowMap* shadow) = 0;
  // Outside rendering, before the shadow pass: culling against the shadow view (the camera's LOD).
  virtual void cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
    (void)cmd;
    (void)shadow_view;
  }
  // One phase without occlusion (kSingle): what tools and tests that draw one system call.
  void cull(VkCommandBuffer cmd, const FrameView& view) { cull(cmd, view, FramePhase::kSingle, nullptr); }
  void draw(VkCommandBuffer cmd, const FrameView& view, const ShadowMap* shadow = nullptr) {
    draw(cmd, view, FramePhase::kSingle, shadow);
  }
  // After the frame's submission completed: the system's figures for it, from the frame's own
  // read-backs. Candidates and memory always; with `drawn` (the system took part in the frame) also
  // what culling kept and what was drawn.
  virtual SystemFrameStats read_frame_stats(bool drawn) {
    (void)drawn;
    return {};
  }
  // Inside the shadow map's pass: the casters' depth. Returns the draws recorded.
  virtual std::uint32_t draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
    (void)cmd;
    (void)shadow_view;
    return 0;
  }
};

// Phase 1 or the single phase: what a system without occlusion culling culls and draws in.
inline bool first_phase(FramePhase phase) { return phase != FramePhase::kLate; }

}  // namespace myriad::render
