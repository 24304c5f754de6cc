// Two-phase Hi-Z occlusion for the batch renderer (SPEC B1-B3 on the GPU side): the CPU culls renderers
// by layer, LOD and frustum and builds the draw list (batch::cull, batch::generate_draws); each frame
// those results are staged here, and per phase two compute passes run: batch_cull*.comp tests every
// renderer the CPU passed against the depth pyramid with the two-phase rule (one visibility word per
// renderer index, kept across frames), and batch_compact.comp writes each draw's surviving instances
// into an indirect command and its part of a slot list. batch::cull with CullCamera::occlusion is the
// exact CPU reference of a late pass.
//
// Per frame: stage (CPU, after the draw list is built) → record(kSingle), or record(kEarly), draws of
// set 0, depth pyramid, record(kLate), draws of set 1. Draw d of the list is drawn with
// vkCmdDrawIndexedIndirect(commands(set), command_offset(d), 1, ...) and reads slots(set) at
// gl_InstanceIndex, as the CPU list's direct draws read it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "myriad/batch/cull.hpp"
#include "myriad/batch/draw_commands.hpp"
#include "myriad/gpu/memory/append_overflow.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/host_readback.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/passes/mesh_range.hpp"
#include "myriad/render/passes/two_phase_cull.hpp"
#include "myriad/render/shaders/batch_cull_layout.h"

namespace myriad::render {

// What the GPU drew of a list in the last frame: per draw of the list, instances of both phases.
struct BatchDrawnCounts {
  std::vector<std::uint32_t> instances;  // per draw
  std::uint64_t total = 0;
};

class BatchOcclusion {
 public:
  // Room for `scene`'s renderers, and for as many list entries and draws as it has draw instances.
  BatchOcclusion(gpu::Context& ctx, const batch::BatchScene& scene);

  // Room for a scene of this size (see the constructor). Growing makes new GPU lists: call it outside
  // any recording, when no submitted frame still uses them; the next frame draws only what the
  // pyramid shows (nothing counts as drawn last frame).
  void reserve(const batch::BatchScene& scene);

  // CPU, once per frame after culling and the draw list: stages every renderer's bounds and CPU
  // outcome, the list's entries and one command per draw (`meshes[mesh]` is where a mesh lies in the
  // index buffer) through the context's staging ring. Throws when the scene outgrew the lists
  // (reserve()) or a draw names a mesh `meshes` does not hold.
  void stage(const batch::BatchScene& scene, const batch::CullResult& cull, const batch::DrawList& list,
             std::span<const MeshRange> meshes);

  // Outside rendering: the pass of `phase` over what stage() staged last; kLate tests `pyramid`
  // (`view_proj` is the frame the bounds are in). On return the phase's commands and slots are visible
  // to indirect draws and vertex shaders.
  void record(VkCommandBuffer cmd, FramePhase phase, const glm::mat4& view_proj, const DepthPyramid* pyramid);

  // The command set a phase fills: 0 for kSingle and kEarly, 1 for kLate.
  static std::uint32_t command_set(FramePhase phase) { return phase == FramePhase::kLate ? 1u : 0u; }
  const gpu::Buffer& commands(std::uint32_t set) const { return commands_[set]; }  // BatchDrawCommand
  const gpu::Buffer& slots(std::uint32_t set) const { return slots_[set]; }
  static VkDeviceSize command_offset(std::uint32_t draw) {
    return VkDeviceSize(draw) * sizeof(shader::BatchDrawCommand);
  }
  static constexpr std::uint32_t kCommandStride = sizeof(shader::BatchDrawCommand);

  // After the frame completed: what the last camera cull (kSingle, or kEarly + kLate) counted, in
  // renderers; the instances drawn per draw; entries dropped for want of room (0 unless stage() and the
  // GPU disagree).
  shader::CullCounters counters() const { return two_phase_.read(); }
  BatchDrawnCounts drawn() const;
  // Whether the last camera cull ran two phases (set 1 holds its late draws).
  bool two_phase() const { return two_phase_frame_; }
  std::uint32_t overflow() const { return overflow_.read(); }
  std::uint64_t gpu_bytes() const;

 private:
  void reserve(std::uint32_t renderers, std::uint32_t entries, std::uint32_t draws);
  static std::uint32_t renderers_of(const batch::BatchScene& scene);
  static std::uint32_t draw_instances_of(const batch::BatchScene& scene);

  gpu::Context& ctx_;
  gpu::OwnedUploadShare upload_share_;
  gpu::Pipeline cull_, cull_hiz_, compact_;
  TwoPhaseCull two_phase_;
  gpu::AppendOverflow overflow_;
  std::uint32_t renderer_capacity_ = 0, entry_capacity_ = 0, draw_capacity_ = 0;
  gpu::Buffer keep_;         // per renderer: drawn in the current phase
  gpu::Buffer commands_[2];  // per draw, per set
  gpu::Buffer slots_[2];     // per list entry, per set
  gpu::HostReadback drawn_;  // both sets' commands after the last single or late pass
  // This frame's staged arrays (ring ranges the passes read directly).
  gpu::StagingRing::Span renderers_{}, entries_{}, template_{};
  shader::BatchCullPush push_{};
  bool two_phase_frame_ = false;   // the last drawn_ copy holds set 1 too
  std::uint32_t drawn_draws_ = 0;  // draws the last drawn_ copy holds
};

}  // namespace myriad::render
