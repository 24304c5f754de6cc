// GPU per-entity culling and LOD choice for VAT crowds (SPEC C8): one compute pass fills one
// DrawIndexedCommand per (enemy type, LOD) and the visible entity list each command's instances read.
// crowd::cull_entities is its exact CPU reference (same lists, up to order within a slot).
#pragma once

#include "myriad/crowd/entity_cull.hpp"
#include "myriad/gpu/append_overflow.hpp"
#include "myriad/gpu/buffer.hpp"
#include "myriad/gpu/pipeline.hpp"

#include <cstdint>
#include <span>

namespace myriad::render {

// The LOD meshes of one enemy type inside shared vertex/index buffers.
struct CrowdLodRange {
  std::uint32_t index_count = 0;
  std::uint32_t first_index = 0;
  std::int32_t vertex_offset = 0;
};

class CrowdCull {
 public:
  // `types[t]` are the culling bounds of type t, `lods[t*3 + level]` its meshes, `type_counts[t]` the
  // number of entities of type t (each slot of that type reserves that many list entries).
  CrowdCull(gpu::Context& ctx, std::span<const crowd::CrowdTypeBounds> types,
            std::span<const CrowdLodRange> lods, std::span<const std::uint32_t> type_counts);

  std::uint32_t slot_count() const { return slot_count_; }
  std::uint32_t list_capacity() const { return list_capacity_; }
  const gpu::Buffer& commands() const { return commands_; }  // DrawIndexedCommand per slot
  const gpu::Buffer& visible() const { return visible_; }    // entity ids, per slot from first_instance
  // After the last recorded pass completed: entities dropped because their slot's list was full (0
  // unless the entities do not match the type counts given at construction).
  std::uint32_t overflow() const { return overflow_.read(); }

  // Records: reset the commands, cull `entity_count` entities of `entities` (CrowdEntity bytes). On
  // return the commands are visible to indirect reads and the list to vertex shaders and copies.
  void record(VkCommandBuffer cmd, const gpu::Buffer& entities, std::uint32_t entity_count,
              const crowd::CrowdCullParams& params) const;

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_;
  std::uint32_t type_count_ = 0;
  std::uint32_t slot_count_ = 0;
  std::uint32_t list_capacity_ = 0;
  gpu::Buffer types_;
  gpu::Buffer command_template_;  // instance_count 0, copied over commands_ each frame
  gpu::Buffer commands_;
  gpu::Buffer visible_;
  gpu::AppendOverflow overflow_;
};

}  // namespace myriad::render
