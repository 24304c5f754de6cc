// Where one mesh lies in shared index/vertex buffers: what an indexed draw of it needs. Every system
// that packs several meshes (LODs of crowd types, plant LODs) into one arena hands these to its
// culling pass, which writes them into the draw commands.
#pragma once

#include <cstdint>

namespace myriad::render {

struct MeshRange {
  std::uint32_t index_count = 0;
  std::uint32_t first_index = 0;
  std::int32_t vertex_offset = 0;
};

}  // namespace myriad::render
