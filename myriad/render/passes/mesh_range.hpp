// Where one mesh lies in shared index/vertex buffers: what an indexed draw of it needs. Every system
// that packs several meshes (LODs of crowd types, plant LODs, avatar parts) into one arena hands these
// to its culling pass, which starts each indirect command from indexed_command().
#pragma once

#include <cstdint>

#include "myriad/render/shaders/shared_types.h"

namespace myriad::render {

struct MeshRange {
  std::uint32_t index_count = 0;
  std::uint32_t first_index = 0;
  std::int32_t vertex_offset = 0;
};

// The indirect command drawing `instance_count` instances of `mesh` whose instance list starts at
// `first_instance` (culling passes start from 0 instances and count the visible ones in).
inline shader::DrawIndexedCommand indexed_command(const MeshRange& mesh, std::uint32_t first_instance,
                                                  std::uint32_t instance_count = 0) {
  return {mesh.index_count, instance_count, mesh.first_index, mesh.vertex_offset, first_instance};
}

}  // namespace myriad::render
