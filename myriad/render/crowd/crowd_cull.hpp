// GPU per-entity culling and LOD choice for VAT crowds (SPEC C8): one compute pass fills one
// DrawIndexedCommand per (enemy type, LOD) and the visible entity list each command's instances read.
// crowd::cull_entities is its exact CPU reference (same lists, up to order within a slot; the same LOD
// state word per entity: level, cross-fade band and fade), the pyramid test included. The LOD state
// (one word per entity, crowd::decide_lod) stays on the GPU from cull to cull: each cull reads it as
// the previous frame's and rewrites it; repeating a cull with the same eye (shadow, early and late
// culls of one frame) leaves it unchanged. Two command sets: set 0 for the single and early passes (and
// shadow culls), set 1 for the late pass of two-phase occlusion, so both phases' draws stand in the frame.
#pragma once

#include "myriad/crowd/entity_cull.hpp"
#include "myriad/gpu/memory/append_overflow.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/passes/mesh_range.hpp"
#include "myriad/render/passes/two_phase_cull.hpp"

#include <cstdint>
#include <span>

namespace myriad::render {

class CrowdCull {
 public:
  // `types[t]` are the culling bounds of type t, `lods[t*3 + level]` its meshes, `type_counts[t]` the
  // number of entities of type t (each slot of that type reserves that many list entries).
  CrowdCull(gpu::Context& ctx, std::span<const crowd::CrowdTypeBounds> types, std::span<const MeshRange> lods,
            std::span<const std::uint32_t> type_counts);

  std::uint32_t slot_count() const { return slot_count_; }
  std::uint32_t list_capacity() const { return list_capacity_; }
  // The command set a phase fills: 0 for kSingle and kEarly, 1 for kLate.
  static std::uint32_t command_set(FramePhase phase) { return phase == FramePhase::kLate ? 1u : 0u; }
  const gpu::Buffer& commands(std::uint32_t set = 0) const { return commands_[set]; }  // per slot
  const gpu::Buffer& visible(std::uint32_t set = 0) const { return visible_[set]; }    // ids per slot
  // After the frame completed: entities dropped because their slot's list was full in its single or
  // early and late passes (0 unless the entities do not match the type counts given at construction).
  std::uint32_t overflow() const { return overflow_.read(); }
  // After the frame completed: visible entities the last camera cull listed inside a cross-fade band
  // (each drawn in two LODs).
  std::uint32_t fading() const { return fading_.read(); }
  // One CROWD_LOD_* word per entity (crowd::decide_lod), as the last cull left it.
  const gpu::Buffer& lod_state() const { return lod_state_; }
  // Forgets every entity's level: the next cull decides as on a first frame.
  void reset_lod_state() { lod_state_clear_ = true; }
  // After the frame completed: what the last camera cull (kSingle, or kEarly + kLate) counted.
  shader::CullCounters counters() const { return two_phase_.read(); }

  // Records: reset the phase's command set and cull `entity_count` entities of `entities`
  // (CrowdEntity bytes) with the two-phase rule of `phase`; kLate tests `pyramid`. On return the
  // commands are visible to indirect reads and the list to vertex shaders and copies.
  void record(VkCommandBuffer cmd, const gpu::Buffer& entities, std::uint32_t entity_count,
              const crowd::CrowdCullParams& params, FramePhase phase = FramePhase::kSingle,
              const DepthPyramid* pyramid = nullptr);
  std::uint64_t gpu_bytes() const;

 private:
  void reserve_lod_state(std::uint32_t entities);

  gpu::Context& ctx_;
  gpu::Pipeline pipeline_, hiz_pipeline_;
  std::uint32_t type_count_ = 0;
  std::uint32_t slot_count_ = 0;
  std::uint32_t list_capacity_ = 0;
  gpu::Buffer types_;
  gpu::Buffer command_template_;  // instance_count 0, copied over commands_ each frame
  gpu::Buffer commands_[2];
  gpu::Buffer visible_[2];
  gpu::AppendOverflow overflow_;
  gpu::AppendOverflow fading_;  // the same reset and read-back shape, counting fading entities
  gpu::Buffer lod_state_;
  std::uint32_t lod_state_capacity_ = 0;
  bool lod_state_clear_ = false;  // fill with CROWD_LOD_NONE at the next record
  TwoPhaseCull two_phase_;
};

}  // namespace myriad::render
