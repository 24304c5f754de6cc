#include "myriad/render/voxel/stream_terrain.hpp"

#include <cmath>

#include "myriad/core/io/error.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

namespace myriad::render {
namespace {

int wrap(int v, int n) {
  const int m = v % n;
  return m < 0 ? m + n : m;
}

// A FIFO kept as a vector and a head: what was taken is dropped once it is all, or most of a long one (no
// shifting per item).
void drop_taken(std::vector<std::int32_t>& fifo, std::size_t& head) {
  if (head == fifo.size()) {
    fifo.clear();
    head = 0;
  } else if (head > 4096 && head * 2 > fifo.size()) {
    fifo.erase(fifo.begin(), fifo.begin() + std::ptrdiff_t(head));
    head = 0;
  }
}

std::uint64_t mesh_bytes(const voxel::SectionMesh& m) {
  return (m.vertices.size() + m.atlas.size()) * sizeof(voxel::TerrainVertex) +
         m.indices.size() * sizeof(std::uint32_t);
}

}  // namespace

PageArenaOptions stream_arena_options() {
  PageArenaOptions c;
  c.vertex_capacity = 256u << 10;
  c.index_capacity = 384u << 10;
  c.fit_to_content = false;
  return c;
}

void StreamTerrainOptions::validate() const {
  if (window < 1) throw Error("the window must be at least 1 unit", "StreamTerrainOptions::window");
  if (sections_y < 1) throw Error("a column needs sections", "StreamTerrainOptions::sections_y");
  if (unit_cells < 1) throw Error("a unit must be at least 1 cell", "StreamTerrainOptions::unit_cells");
  if (!(cell_scale > 0.0f) || !std::isfinite(cell_scale))
    throw Error("the cell scale must be a finite number > 0", "StreamTerrainOptions::cell_scale");
  arenas.validate();
  if (workers && arenas.fit_to_content)
    throw Error("a spare arena needs fixed arena capacities", "StreamTerrainOptions::workers",
                "leave workers unset, or turn fit_to_content off");
}

StreamTerrain::StreamTerrain(gpu::Context& ctx, const StreamTerrainOptions& options, VkFormat color_format,
                             VkFormat depth_format)
    : options_(options) {
  options.validate();
  terrain_ = std::make_unique<TerrainRenderer>(
      ctx, glm::ivec3(options.window, options.sections_y, options.window), color_format, depth_format,
      options.arenas, options.tiles ? &options.tiles->texture : nullptr);
  terrain_->set_cell_scale(options.cell_scale);
  if (options.workers) terrain_->keep_spare_arena(options.workers);
  slots_.resize(std::size_t(options.window) * std::size_t(options.window) * std::size_t(options.sections_y));
}

int StreamTerrain::slot_of(glm::ivec3 s) const {
  // The voxel module's section order (x fastest, then z, then y), as TerrainRenderer's regions expect.
  return int(unit_base({s.x, s.z})) + int(layer()) * s.y;
}

glm::vec3 StreamTerrain::origin_of(glm::ivec3 s) const {
  const auto unit = float(options_.unit_cells);
  return {float(s.x) * unit, float(s.y) * 16.0f * options_.cell_scale, float(s.z) * unit};
}

void StreamTerrain::changed(glm::ivec3 section) {
  if (section.y < 0 || section.y >= options_.sections_y)
    throw Error("section y out of range", "StreamTerrain::changed");
  const int s = slot_of(section);
  Slot& slot = slots_[std::size_t(s)];
  const bool was_queued = slot.queued != glm::ivec3(kNone);
  slot.queued = section;
  if (!was_queued) queue_.push_back(s);
}

void StreamTerrain::evicted(glm::ivec3 section) {
  if (section.y < 0 || section.y >= options_.sections_y) return;
  const int s = slot_of(section);
  Slot& slot = slots_[std::size_t(s)];
  if (slot.queued == section) slot.queued = glm::ivec3(kNone);  // its queue entry is skipped
  if (slot.owner == section) {
    // Not drawn from now on, and no longer the unit's: the level choice leaves it alone.
    terrain_->set_section_hidden(s, true);
    slot.owner = glm::ivec3(kNone);
    slot.stale = true;
    ++stale_;
    evictions_.push_back(s);
  }
}

void StreamTerrain::replaced(Slot& slot) {
  if (!slot.stale) return;
  slot.stale = false;
  --stale_;
}

const StreamTerrainStats& StreamTerrain::apply(const MeshSource& source, std::uint64_t budget,
                                               std::uint64_t used, std::uint32_t max_sections,
                                               std::uint32_t max_removals) {
  stats_ = {};
  taken_.clear();
  static const voxel::SectionMesh kEmpty;
  while (evictions_head_ < evictions_.size() && stats_.removed_sections < max_removals) {
    const std::int32_t s = evictions_[evictions_head_++];
    Slot& slot = slots_[std::size_t(s)];
    if (!slot.stale) continue;  // a section took the slot since
    replaced(slot);
    terrain_->set_section(s, glm::vec3(0.0f), kEmpty);
    terrain_->set_section_hidden(s, false);
    ++stats_.removed_sections;
  }
  drop_taken(evictions_, evictions_head_);
  while (queue_head_ < queue_.size()) {
    const std::int32_t s = queue_[queue_head_];
    Slot& slot = slots_[std::size_t(s)];
    if (slot.queued == glm::ivec3(kNone)) {  // evicted while it waited
      ++queue_head_;
      continue;
    }
    const glm::ivec3 section = slot.queued;
    const voxel::SectionMesh* mesh = source(section);
    if (mesh && stats_.uploaded_sections >= max_sections) break;
    if (mesh) {
      const std::uint64_t bytes = mesh_bytes(*mesh);
      if (used + stats_.uploaded_bytes + bytes > budget) {
        if (stats_.uploaded_sections > 0 || used > 0) break;
        stats_.over_budget = 1;
      }
      // A slot that still holds another unit's page (evicted and waiting for removal, or its eviction
      // never came) is simply re-placed.
      if (slot.owner != section) terrain_->set_section_hidden(s, false);
      replaced(slot);
      terrain_->set_section(s, origin_of(section), *mesh);
      slot.owner = mesh->indices.empty() ? glm::ivec3(kNone) : section;
      if (!mesh->indices.empty()) {
        if (slot.last != glm::ivec3(kNone) && slot.last != section) ++slot_reuses_;
        slot.last = section;
      }
      stats_.uploaded_bytes += bytes;
      ++stats_.uploaded_sections;
    }
    slot.queued = glm::ivec3(kNone);
    taken_.push_back({section.x, section.z});
    ++queue_head_;
  }
  drop_taken(queue_, queue_head_);
  stats_.pending = std::uint32_t(pending());
  return stats_;
}

// A unit's sections lie a window's area apart in the slots (slot_of), so the wrap is computed once: the
// level choice asks this and sets hiding for about a thousand units per frame.
std::size_t StreamTerrain::unit_base(glm::ivec2 unit) const {
  const int w = options_.window;
  return std::size_t(wrap(unit.x, w) + w * wrap(unit.y, w));
}

bool StreamTerrain::unit_current(glm::ivec2 unit) const {
  const std::size_t base = unit_base(unit);
  for (int y = 0; y < options_.sections_y; ++y)
    if (slots_[base + layer() * std::size_t(y)].queued == glm::ivec3(unit.x, y, unit.y)) return false;
  return true;
}

bool StreamTerrain::shows(glm::ivec3 section) const {
  if (section.y < 0 || section.y >= options_.sections_y) return false;
  const int s = slot_of(section);
  return slots_[std::size_t(s)].owner == section && !terrain_->section_hidden(s);
}

bool StreamTerrain::unit_hidden_is(glm::ivec2 unit, bool hidden) const {
  const std::size_t base = unit_base(unit);
  for (int y = 0; y < options_.sections_y; ++y) {
    const std::size_t s = base + layer() * std::size_t(y);
    if (slots_[s].owner == glm::ivec3(unit.x, y, unit.y) && terrain_->section_hidden(int(s)) != hidden)
      return false;
  }
  return true;
}

void StreamTerrain::set_unit_hidden(glm::ivec2 unit, bool hidden) {
  const std::size_t base = unit_base(unit);
  for (int y = 0; y < options_.sections_y; ++y) {
    const std::size_t s = base + layer() * std::size_t(y);
    if (slots_[s].owner == glm::ivec3(unit.x, y, unit.y)) terrain_->set_section_hidden(int(s), hidden);
  }
}

}  // namespace myriad::render
