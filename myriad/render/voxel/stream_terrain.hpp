// The GPU side of a streamed voxel world: a window of section slots over the world's grid of units
// (columns of sections, or far LOD blocks), mapped by unit coordinate modulo the window, so a unit
// streaming in takes the slot of one that left on the far side (a torus: the slot of (x, sy, z) is
// (x mod W, sy, z mod W)). The slots are the pages of a TerrainRenderer, so a unit's geometry goes into
// page-slot arenas whose ranges the evicted unit freed (V10). Mesh changes queue here and are uploaded
// within a byte budget per frame, the newest mesh read from the stream when its turn comes (never a stale
// copy). An evicted unit's page is hidden at once and removed when its turn comes, a paced share per frame
// (a row of columns leaving together would otherwise free a hundred ranges in one frame); a unit that takes
// the slot first simply replaces it. A slot holds one page at most, so what waits is bounded by the window.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "myriad/gpu/device/context.hpp"
#include "myriad/render/terrain/terrain_renderer.hpp"
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/tiles/tile_pack.hpp"

namespace myriad::render {

struct StreamTerrainOptions {
  // Window edge in units: at least 2 * (eviction radius) + 1 so two resident units never share a slot;
  // a multiple of 4 keeps the renderer's coarse chunks aligned with the world grid.
  int window = 32;
  int sections_y = 8;
  int unit_cells = 16;      // world cells per unit along x and z (16 << level for far blocks)
  float cell_scale = 1.0f;  // world cells per mesh unit (1 << level for far blocks)
  PageArenaOptions arenas;  // fixed-capacity arenas (pages come and go forever)
  std::shared_ptr<const voxel::TileSet> tiles;  // block textures; null = the built-in tiles
  // When set, the next arena's buffers are made here ahead of need (TerrainRenderer::keep_spare_arena);
  // the scene gives its streamers' pool.
  std::shared_ptr<WorkerPool> workers;

  // Throws myriad::Error naming the first invalid field, the arenas' included (the constructor calls it).
  void validate() const;
};

// Fixed arenas sized for a window of streamed columns: 256 Ki vertices (7 MiB) and 384 Ki indices each;
// a region outgrowing its arena gets another.
PageArenaOptions stream_arena_options();

struct StreamTerrainStats {
  std::uint32_t uploaded_sections = 0, removed_sections = 0;
  std::uint64_t uploaded_bytes = 0;  // vertices, atlas records and indices queued this frame
  std::uint32_t over_budget = 0;     // 1 when a single section larger than the budget went alone
  std::uint32_t pending = 0;         // sections still waiting after this frame
};

class StreamTerrain {
 public:
  // The current mesh of a unit section (null when it has none now).
  using MeshSource = std::function<const voxel::SectionMesh*(glm::ivec3)>;

  StreamTerrain(gpu::Context& ctx, const StreamTerrainOptions& options, VkFormat color_format,
                VkFormat depth_format);

  // `section` = (unit x, section y, unit z). Its mesh changed: upload the source's current mesh.
  void changed(glm::ivec3 section);
  // Its unit left: its page (if the slot still holds it) is hidden now and waits for removal.
  void evicted(glm::ivec3 section);
  // Removes at most `max_removals` evicted pages, oldest first, then uploads queued meshes in order while
  // `used` (bytes other windows uploaded this frame) plus this call's bytes fit `budget`, and at most
  // `max_sections` of them; when nothing was uploaded yet this frame (used 0), a first section larger
  // than the whole budget goes alone, so streaming never stalls. A queued section whose source mesh is
  // null keeps what its slot shows and waits for its next change.
  const StreamTerrainStats& apply(const MeshSource& source, std::uint64_t budget, std::uint64_t used = 0,
                                  std::uint32_t max_sections = ~0u, std::uint32_t max_removals = ~0u);

  // Nothing waits here for this unit: each of its slots shows its section's latest queued-or-uploaded
  // geometry, or has nothing.
  bool unit_current(glm::ivec2 unit) const;
  // Hides or shows every section of a unit whose page a slot holds (the level choice works by unit).
  void set_unit_hidden(glm::ivec2 unit, bool hidden);
  // The slot holds this section's page and it is not hidden: the section is drawn.
  bool shows(glm::ivec3 section) const;
  // Every section of the unit whose page a slot holds is hidden (or shown) as given.
  bool unit_hidden_is(glm::ivec2 unit, bool hidden) const;
  int slot_of(glm::ivec3 section) const;
  glm::vec3 origin_of(glm::ivec3 section) const;

  TerrainRenderer& renderer() { return *terrain_; }
  const TerrainRenderer& renderer() const { return *terrain_; }
  const StreamTerrainOptions& options() const { return options_; }
  std::size_t pending() const { return queue_.size() - queue_head_; }
  // Evicted pages still held (hidden) until their removal.
  std::size_t removals_pending() const { return stale_; }
  // Units whose waiting change the last apply() took (uploaded, or dropped for a null mesh), once per
  // section: what unit_current() answers for them may have changed (as it may for the units given to
  // changed() and evicted(), which their caller knows).
  const std::vector<glm::ivec2>& taken_units() const { return taken_; }
  // Placements so far into a slot that last held another section (a unit that left on the far side).
  std::uint64_t slot_reuses() const { return slot_reuses_; }

 private:
  std::size_t unit_base(glm::ivec2 unit) const;  // the slot of the unit's section 0
  std::size_t layer() const { return std::size_t(options_.window) * std::size_t(options_.window); }
  static constexpr std::int32_t kNone = -1;
  struct Slot {
    glm::ivec3 owner{kNone};   // the section whose page the slot holds (kNone: no page)
    glm::ivec3 queued{kNone};  // the section whose change waits (kNone: nothing waits)
    glm::ivec3 last{kNone};    // the last section placed here (kept after its eviction)
    bool stale = false;        // holds a hidden page of a section that left, to be removed
  };
  void replaced(Slot& slot);  // the slot's stale page, if any, is gone or about to be overwritten

  StreamTerrainOptions options_;
  std::unique_ptr<TerrainRenderer> terrain_;
  std::vector<Slot> slots_;
  std::vector<std::int32_t> queue_;  // slots with a queued change, FIFO
  std::size_t queue_head_ = 0;
  std::vector<std::int32_t> evictions_;  // slots made stale, in eviction order (some replaced since)
  std::size_t evictions_head_ = 0;
  std::size_t stale_ = 0;
  StreamTerrainStats stats_;
  std::uint64_t slot_reuses_ = 0;
  std::vector<glm::ivec2> taken_;
};

}  // namespace myriad::render
