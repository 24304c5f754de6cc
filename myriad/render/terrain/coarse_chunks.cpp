#include "myriad/render/terrain/coarse_chunks.hpp"

#include <algorithm>

#include "myriad/core/io/error.hpp"

namespace myriad::render {

CoarseChunks::CoarseChunks(std::uint32_t sections_x, std::uint32_t sections_y, std::uint32_t sections_z,
                           std::uint32_t chunk_sections)
    : sx_(sections_x), sy_(sections_y), sz_(sections_z), chunk_sections_(chunk_sections) {
  if (sx_ == 0 || sy_ == 0 || sz_ == 0 || chunk_sections_ == 0) {
    throw Error("coarse chunks need a non-empty section grid and chunk size", "CoarseChunks");
  }
  chunks_x_ = (sx_ + chunk_sections_ - 1) / chunk_sections_;
  const std::uint32_t chunks_z = (sz_ + chunk_sections_ - 1) / chunk_sections_;
  chunks_.resize(std::size_t(chunks_x_) * chunks_z);
  section_bounds_.resize(std::size_t(sx_) * sy_ * sz_);
  section_arena_.assign(section_bounds_.size(), 0xffffffffu);
}

std::uint32_t CoarseChunks::chunk_of_section(std::uint32_t section) const {
  if (section >= section_arena_.size()) throw Error("section index out of range", "CoarseChunks");
  const std::uint32_t x = section % sx_;
  const std::uint32_t z = (section / sx_) % sz_;
  return (z / chunk_sections_) * chunks_x_ + x / chunk_sections_;
}

void CoarseChunks::rebuild_bounds(std::uint32_t chunk) {
  Chunk& c = chunks_[chunk];
  c.bounds = Aabb{};
  const std::uint32_t cx = chunk % chunks_x_, cz = chunk / chunks_x_;
  for (std::uint32_t y = 0; y < sy_; ++y) {
    for (std::uint32_t z = cz * chunk_sections_; z < std::min(sz_, (cz + 1) * chunk_sections_); ++z) {
      for (std::uint32_t x = cx * chunk_sections_; x < std::min(sx_, (cx + 1) * chunk_sections_); ++x) {
        const std::uint32_t s = x + sx_ * (z + sz_ * y);
        if (section_arena_[s] != 0xffffffffu) c.bounds.expand(section_bounds_[s]);
      }
    }
  }
}

void CoarseChunks::set_page(std::uint32_t section, const Aabb& bounds, std::uint32_t arena) {
  const std::uint32_t chunk = chunk_of_section(section);
  Chunk& c = chunks_[chunk];
  const std::uint32_t old = section_arena_[section];
  if (old != 0xffffffffu) {
    auto it = std::find_if(c.arenas.begin(), c.arenas.end(), [&](const auto& e) { return e.first == old; });
    if (--it->second == 0) c.arenas.erase(it);
  }
  if (arena != 0xffffffffu) {
    auto it = std::find_if(c.arenas.begin(), c.arenas.end(), [&](const auto& e) { return e.first == arena; });
    if (it == c.arenas.end()) {
      c.arenas.emplace_back(arena, 1u);
    } else {
      ++it->second;
    }
  }
  section_arena_[section] = arena;
  section_bounds_[section] = bounds;
  rebuild_bounds(chunk);
}

std::uint32_t CoarseChunks::visible_arenas(const Frustum& frustum, float slice_height,
                                           std::uint32_t arena_count,
                                           std::vector<std::uint8_t>& arena_visible) const {
  arena_visible.assign(arena_count, 0);
  std::uint32_t tests = 0;
  for (const Chunk& c : chunks_) {
    if (c.arenas.empty()) continue;
    ++tests;
    if (c.bounds.min.y > slice_height || !frustum.intersects(c.bounds)) continue;
    for (const auto& [arena, pages] : c.arenas) {
      if (arena < arena_count) arena_visible[arena] = 1;
    }
  }
  return tests;
}

}  // namespace myriad::render
