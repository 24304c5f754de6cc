// Draw-command generation (SPEC B1-B3): visible draw instances are sorted by (batch type, mesh,
// material, slot) and runs with equal (type, mesh, material) merge into one instanced draw. Each
// draw names a range of `instances` (batch slots), which the vertex shader reads through
// gl_InstanceIndex, so all right upper arms of all avatars go out in one draw.
#pragma once

#include "myriad/batch/cull.hpp"

#include <cstdint>
#include <vector>

namespace myriad::batch {

struct DrawCommand {
  BatchType type;
  std::uint32_t mesh;
  std::uint32_t material;
  std::uint32_t first_instance;  // into DrawList::instances
  std::uint32_t instance_count;
};

struct DrawList {
  std::vector<DrawCommand> draws;
  std::vector<std::uint32_t> instances;    // batch slots, grouped per draw
  std::vector<std::uint32_t> renderers;    // the renderer of each instance (GPU occlusion tests it)
  std::size_t visible_draw_instances = 0;  // draws there would be without batching

  // Scratch reused across frames.
  struct Item {
    std::uint64_t key;
    std::uint32_t slot;
    std::uint32_t renderer;
  };
  std::vector<Item> items;
  std::vector<std::uint32_t> chunk_counts;
};

// Sort key: batch type in the top 16 bits, then mesh and material (24 bits each; BatchScene rejects
// larger ids).
inline std::uint64_t draw_key(BatchType type, std::uint32_t mesh, std::uint32_t material) {
  return (std::uint64_t{type} << 48) | (std::uint64_t{mesh & 0xFFFFFFu} << 24) |
         std::uint64_t{material & 0xFFFFFFu};
}

// Builds `out` from the culling result. Deterministic for any thread count.
void generate_draws(const BatchScene& scene, const CullResult& cull, DrawList& out);

}  // namespace myriad::batch
