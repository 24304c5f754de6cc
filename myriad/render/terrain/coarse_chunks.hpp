// The CPU level of two-level culling (V11): the world's sections grouped into chunks of 4x4 sections in
// XZ over the full height (1024 sections of the reference world = 16 chunks). A chunk outside the
// frustum or wholly above the slice contributes no arenas; an arena no visible chunk uses is not drawn.
// Also the change tracker that lets a frame skip culling when nothing it depends on changed (V13).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "myriad/core/cull/frustum.hpp"

namespace myriad::render {

class CoarseChunks {
 public:
  CoarseChunks(std::uint32_t sections_x, std::uint32_t sections_y, std::uint32_t sections_z,
               std::uint32_t chunk_sections = 4);

  // Section index = sx + sections_x * (sz + sections_z * sy) (the voxel module's order). `bounds` are
  // the page's world bounds; arena = kNoArena (0xffffffff) when the section has no page.
  void set_page(std::uint32_t section, const Aabb& bounds, std::uint32_t arena);

  // Sets arena_visible[a] = 1 for every arena used by a chunk that intersects the frustum and is not
  // wholly above `slice_height` (the vector is resized to arena_count and cleared first). Returns the
  // number of chunk tests made.
  std::uint32_t visible_arenas(const Frustum& frustum, float slice_height, std::uint32_t arena_count,
                               std::vector<std::uint8_t>& arena_visible) const;

  std::uint32_t chunk_count() const { return std::uint32_t(chunks_.size()); }
  std::uint32_t chunk_of_section(std::uint32_t section) const;
  const Aabb& chunk_bounds(std::uint32_t chunk) const { return chunks_.at(chunk).bounds; }

 private:
  struct Chunk {
    Aabb bounds;                                                  // union of its pages' bounds
    std::vector<std::pair<std::uint32_t, std::uint32_t>> arenas;  // (arena, pages in it)
  };
  void rebuild_bounds(std::uint32_t chunk);

  std::uint32_t sx_, sy_, sz_, chunk_sections_, chunks_x_;
  std::vector<Aabb> section_bounds_;
  std::vector<std::uint32_t> section_arena_;
  std::vector<Chunk> chunks_;
};

// What culling depends on; a frame whose inputs equal the last culled ones reuses its results.
struct CullInputs {
  glm::mat4 view_proj{1.0f};
  float slice_height = 0.0f;
  std::uint64_t page_set_version = 0;
  friend bool operator==(const CullInputs&, const CullInputs&) = default;
};

class CullTracker {
 public:
  bool needs_cull(const CullInputs& inputs) const { return !valid_ || !(inputs == last_); }
  void culled(const CullInputs& inputs) {
    last_ = inputs;
    valid_ = true;
  }
  void invalidate() { valid_ = false; }

 private:
  CullInputs last_;
  bool valid_ = false;
};

}  // namespace myriad::render
