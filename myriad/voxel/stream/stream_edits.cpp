// Edits of the streamed world and their persistence: StreamWorld::edit validates and queues, apply_edits
// writes each queued edit once no job reads its column (or the light around it), marks the sections that
// read the cell for re-meshing and the columns within light reach for relighting (drop_meshes / unlight
// discard what a change made stale); save_column / save_all write edited columns (stream_save.cpp holds
// the file format).
#include <algorithm>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/stream/stream_world.hpp"

namespace myriad::voxel {
namespace {

std::string coord_text(glm::ivec2 c) { return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")"; }

}  // namespace

void StreamWorld::edit(glm::ivec3 p, std::uint8_t material, std::uint8_t form) {
  const glm::ivec3 size = options_.world_size;
  if (p.x < 0 || p.y < 0 || p.z < 0 || p.x >= size.x || p.y >= size.y || p.z >= size.z)
    throw Error("voxel coordinate (" + std::to_string(p.x) + ", " + std::to_string(p.y) + ", " +
                    std::to_string(p.z) + ") is outside the streamed world",
                "StreamWorld::edit", "use coordinates 0 <= p < world size");
  if (!valid_material(material))
    throw Error("unknown material id " + std::to_string(material), "StreamWorld::edit",
                "use an id below " + std::to_string(int(kMaterialCount)));
  Column* col = column({p.x >> 4, p.z >> 4});
  if (!col || !col->generated)
    throw Error("column " + coord_text({p.x >> 4, p.z >> 4}) + " is not resident", "StreamWorld::edit",
                "edit near the camera (within the streamed radius), after the column has arrived");
  edits_.push_back({p, material, stored_form(material, form)});
  ++col->pending_edits;
  touch();
}

void StreamWorld::mark_mesh_dirty(glm::ivec3 s) {
  Column* col = column({s.x, s.z});
  if (col && col->meshed && s.y >= 0 && s.y < sections_y_) col->mesh_dirty.set(std::size_t(s.y));
}

void StreamWorld::drop_meshes(Column& col) {
  for (int sy = 0; sy < sections_y_; ++sy) {
    SectionMesh& m = col.meshes[std::size_t(sy)];
    if (col.meshed && !m.vertices.empty()) {
      update_.evicted.push_back({col.coord.x, sy, col.coord.y});
    } else if (col.meshed && options_.vegetation && has_plants(col.vegetation[std::size_t(sy)])) {
      update_.plants_only_evicted.push_back({col.coord.x, sy, col.coord.y});
    }
    m.clear();
    if (options_.vegetation) col.vegetation[std::size_t(sy)].clear();
  }
  if (col.meshed) update_.meshed_changed.push_back(col.coord);
  col.meshed = false;
  col.mesh_dirty.reset();
}

void StreamWorld::unlight(Column& col) {
  col.lit = false;
  col.light_dirty = false;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dx = -1; dx <= 1; ++dx)
      if (Column* n = column(col.coord + glm::ivec2(dx, dz)); n && n->meshed) drop_meshes(*n);
}

void StreamWorld::apply_edits() {
  std::size_t applied = 0;
  for (; applied < edits_.size(); ++applied) {
    const PendingEdit& e = edits_[applied];
    const glm::ivec2 c{e.p.x >> 4, e.p.z >> 4};
    Column* col = column(c);
    if (!col || col->job != JobKind::kNone || col->readers != 0) break;
    // Columns whose light can change (cells within 15 of the edit): no job may read their light.
    bool blocked = false;
    for (int kz = std::max(0, (e.p.z - kLightMax) >> 4);
         kz <= std::min(columns_.y - 1, (e.p.z + kLightMax) >> 4); ++kz)
      for (int kx = std::max(0, (e.p.x - kLightMax) >> 4);
           kx <= std::min(columns_.x - 1, (e.p.x + kLightMax) >> 4); ++kx)
        if (const Column* k = column({kx, kz}); k && (k->light_readers != 0 || k->job != JobKind::kNone))
          blocked = true;
    if (blocked) break;
    apply_edit(e);
  }
  edits_.erase(edits_.begin(), edits_.begin() + std::ptrdiff_t(applied));
}

void StreamWorld::apply_edit(const PendingEdit& e) {
  const glm::ivec3 p = e.p;
  const int slot = slot_of({p.x >> 4, p.z >> 4});
  if (slot < 0) return;  // apply_edits checked it
  Column& col = slots_[slot];
  const std::size_t i =
      std::size_t(p.y >> 4) * kSectionCells + std::size_t(cell_index(p.x & 15, p.y & 15, p.z & 15));
  col.materials[i] = e.material;
  col.forms[i] = e.material == kAir ? kFormEmpty : e.form;
  col.edited = true;
  --col.pending_edits;
  ++update_.edits_applied;
  touch();
  // Sections whose padded block holds the cell.
  const auto [lo, hi] = sections_around_cell(p);
  for (int y = lo.y; y <= hi.y; ++y)
    for (int z = lo.z; z <= hi.z; ++z)
      for (int x = lo.x; x <= hi.x; ++x) mark_mesh_dirty({x, y, z});
  // Light changes only within 15 cells (sky exposure changes only in the edited cell's own x, z).
  for (int kz = std::max(0, (p.z - kLightMax) >> 4); kz <= std::min(columns_.y - 1, (p.z + kLightMax) >> 4);
       ++kz)
    for (int kx = std::max(0, (p.x - kLightMax) >> 4); kx <= std::min(columns_.x - 1, (p.x + kLightMax) >> 4);
         ++kx) {
      Column* k = column({kx, kz});
      if (!k || !k->lit) continue;
      if (neighbourhood_generated({kx, kz}))
        k->light_dirty = true;
      else
        unlight(*k);  // a neighbour is gone: lit again when the neighbourhood is back
    }
  // The relights (and re-meshes) start with this update's launches, not when the scan reaches them.
  for (int kz = std::max(0, (p.z - kLightMax) >> 4); kz <= std::min(columns_.y - 1, (p.z + kLightMax) >> 4);
       ++kz)
    for (int kx = std::max(0, (p.x - kLightMax) >> 4); kx <= std::min(columns_.x - 1, (p.x + kLightMax) >> 4);
         ++kx)
      enqueue({kx, kz});
}

bool StreamWorld::edits_pending() const {
  if (!edits_.empty()) return true;
  for (const Column& col : slots_) {
    if (!col.used || chebyshev(col.coord - camera_column_) > options_.radius + 1) continue;
    if (col.light_dirty || col.job == JobKind::kLight ||
        (col.meshed && (col.mesh_dirty.any() || col.job == JobKind::kMesh)))
      return true;
  }
  return false;
}

int StreamWorld::save_all() {
  if (options_.save_directory.empty()) return 0;
  int written = 0;
  for (Column& col : slots_)
    if (col.used && col.generated && col.edited) {
      save_column(col);
      col.edited = false;
      ++written;
    }
  return written;
}

void StreamWorld::save_column(const Column& col) {
  write_column_file(save_path(col.coord), options_.world_size, col.coord, options_.generator, col.materials,
                    col.forms);
  saved_[std::size_t(col.coord.y) * std::size_t(columns_.x) + std::size_t(col.coord.x)] = 1;
}

}  // namespace myriad::voxel
