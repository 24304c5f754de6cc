// The runtime pools. Pages are the unit of allocation and of change: a group's run of instances fills
// its last page before taking another, so a tile streamed in over several frames wastes at most one
// partial page per group.
#include "myriad/vegetation/runtime/runtime.hpp"

#include <algorithm>
#include <iterator>

#include "myriad/core/layout/packing.hpp"

namespace myriad::vegetation {

bool same_runtime_type(const Prefab& a, const Prefab& b) {
  if (a.lods.size() != b.lods.size()) return false;
  for (std::size_t i = 0; i < a.lods.size(); ++i)
    if (a.lods[i].mesh_id != b.lods[i].mesh_id || a.lods[i].material_id != b.lods[i].material_id ||
        a.lods[i].switch_distance != b.lods[i].switch_distance)
      return false;
  return true;
}

void RuntimeWorld::log(std::uint32_t type, std::uint32_t page, bool records) {
  // The log lists a page once; what changed (records, or the table entry alone) is its level here,
  // read when the log is taken.
  std::vector<std::uint8_t>& logged = logged_[type];
  if (logged.size() <= page) logged.resize(page + 1, 0);
  if (logged[page] == 0) changes_.push_back({type, page, false});
  logged[page] = std::max<std::uint8_t>(logged[page], records ? 2 : 1);
}

void RuntimeWorld::take_changes(std::vector<PageChange>& out) {
  out.clear();
  out.swap(changes_);
  for (PageChange& c : out) {
    c.records = logged_[c.type][c.page] == 2;
    logged_[c.type][c.page] = 0;
  }
}

void RuntimeWorld::keep_spare_block(std::shared_ptr<WorkerPool> workers) {
  spare_block_.keep(std::move(workers), [] {
    RecordBlock block;
    std::memset(block.data(), 0, RecordBlock::kRecords * sizeof(PlantRecord));  // maps its pages here
    return block;
  });
}

RuntimeWorld::RecordBlock RuntimeWorld::take_block() {
  if (!kept_blocks_.empty()) {
    RecordBlock block = std::move(kept_blocks_.back());
    kept_blocks_.pop_back();
    ++block_stats_.kept;
    return block;
  }
  if (spare_block_.ready()) {  // the worker starts the next
    ++block_stats_.made_ahead;
    return std::move(*spare_block_.take());
  }
  ++block_stats_.made_here;
  return RecordBlock();
}

void RuntimeWorld::give_back_blocks(Type& type, std::size_t keep) {
  while (type.record_blocks.size() > keep) {
    if (kept_blocks_.size() < kKeptBlocks) kept_blocks_.push_back(std::move(type.record_blocks.back()));
    type.record_blocks.pop_back();
  }
}

std::uint32_t RuntimeWorld::take_page(std::uint32_t type) {
  Type& t = types_[type];
  std::uint32_t page = 0;
  if (!t.free_pages.empty()) {
    page = t.free_pages.back();
    t.free_pages.pop_back();
  } else {
    page = t.page_count();
    t.pages.push_back({});
    if (page / kBlockPages == t.record_blocks.size()) t.record_blocks.push_back(take_block());
  }
  // Slots past the count are copied to the GPU with the page: zero, not a former tile's records.
  std::fill_n(t.page_records(page), kPageSlots, PlantRecord{});
  return page;
}

void RuntimeWorld::append(const std::shared_ptr<const Tile>& tile, std::uint32_t group, std::uint32_t first,
                          std::uint32_t count) {
  if (count == 0) return;
  const Group& g = tile->groups[group];
  const Prefab& prefab = tile->prefabs[g.prefab];
  auto it = std::find_if(types_.begin(), types_.end(),
                         [&](const Type& t) { return same_runtime_type(t.prefab, prefab); });
  if (it == types_.end()) {
    Type t;
    t.prefab = prefab;
    t.shape = plant_sphere_shape(prefab.bounds);
    types_.push_back(std::move(t));
    logged_.emplace_back();
    it = types_.end() - 1;
  }
  const auto type_index = static_cast<std::uint32_t>(it - types_.begin());
  Type& type = *it;
  const TileKey key{tile->x, tile->z};
  // A run continues the segment its group's earlier instances made, which a streamer copying one tile at a
  // time finds last in its type: searched from the back. A run from the group's start makes a new one (no
  // segment ends at 0), so it searches nothing: a frame's copy costs what it copies, not the pool's size.
  auto seg = type.segments.end();
  if (first > 0) {
    const auto from_back = std::find_if(type.segments.rbegin(), type.segments.rend(), [&](const Segment& s) {
      return s.tile == key && s.group == group && s.group_first + s.count == first;
    });
    if (from_back != type.segments.rend()) seg = std::prev(from_back.base());
  }
  if (seg == type.segments.end()) {
    const glm::vec3 shift(tile->origin() - origin_);
    const std::uint64_t id = next_segment_id_++;
    type.segments.push_back(
        {key, group, first, 0, {}, {g.bounds.min + shift, g.bounds.max + shift}, 0.0f, id});
    seg = type.segments.end() - 1;
    const auto at = std::lower_bound(tile_ids_.begin(), tile_ids_.end(), key,
                                     [](const auto& e, TileKey k) { return e.first < k; });
    if (at != tile_ids_.end() && at->first == key)
      at->second.last = id;
    else
      tile_ids_.insert(at, {key, {id, id}});
  }
  std::uint32_t done = 0;
  while (done < count) {
    // The segment's last page has room, or a new one is taken.
    std::uint32_t page = 0;
    if (!seg->pages.empty() && type.pages[seg->pages.back()].count < kPageSlots) {
      page = seg->pages.back();
    } else {
      page = take_page(type_index);
      seg->pages.push_back(page);
      type.pages[page] = make_plant_page(*tile, group, first + done, 0, origin_);
    }
    PlantPage& p = type.pages[page];
    const std::uint32_t n = std::min(count - done, kPageSlots - p.count);
    PlantRecord* records = type.page_records(page) + p.count;
    for (std::uint32_t k = 0; k < n; ++k) {
      const InstanceRecord& r = g.instances[first + done + k];
      records[k] = to_plant_record(r);
      seg->max_scale = std::max(seg->max_scale, unpack_half(r.scale));
    }
    p.count += n;
    done += n;
    log(type_index, page, true);
  }
  seg->count += count;
  type.instances += count;
  if (std::none_of(tiles_.begin(), tiles_.end(), [&](const auto& t) { return t.get() == tile.get(); }))
    tiles_.push_back(tile);
}

void RuntimeWorld::remove_tile(TileKey key) {
  ++structure_version_;
  const std::optional<SegmentIds> ids = segment_ids(key);
  for (std::uint32_t t = 0; t < types_.size(); ++t) {
    Type& type = types_[t];
    if (ids) {
      // A type's segments are in id order, so the tile's lie within its id range: found by two binary
      // searches instead of a walk over every segment of the type.
      const auto lo = std::lower_bound(type.segments.begin(), type.segments.end(), ids->first,
                                       [](const Segment& s, std::uint64_t id) { return s.id < id; });
      const auto hi = std::upper_bound(lo, type.segments.end(), ids->last,
                                       [](std::uint64_t id, const Segment& s) { return id < s.id; });
      for (auto s = lo; s != hi; ++s) {
        if (s->tile != key) continue;
        // A freed page is not logged: nothing reads it until a tile takes it, which logs it then.
        for (std::uint32_t page : s->pages) {
          type.pages[page] = PlantPage{};
          type.free_pages.push_back(page);
        }
        type.instances -= s->count;
      }
      type.segments.erase(std::remove_if(lo, hi, [&](const Segment& s) { return s.tile == key; }), hi);
    }
    // Free pages at the end are given back, so memory follows what is resident.
    while (!type.pages.empty() && type.pages.back().count == 0) {
      const auto last = static_cast<std::uint32_t>(type.pages.size() - 1);
      std::erase(type.free_pages, last);
      type.pages.pop_back();
    }
    give_back_blocks(type, (type.pages.size() + kBlockPages - 1) / kBlockPages);
    if (type.pages.empty()) {
      type.record_blocks.shrink_to_fit();
      type.pages.shrink_to_fit();
      type.free_pages.shrink_to_fit();
    }
  }
  std::erase_if(tiles_, [&](const auto& t) { return t->x == key.x && t->z == key.z; });
  std::erase_if(tile_ids_, [&](const auto& e) { return e.first == key; });
}

std::optional<RuntimeWorld::SegmentIds> RuntimeWorld::segment_ids(TileKey key) const {
  const auto at = std::lower_bound(tile_ids_.begin(), tile_ids_.end(), key,
                                   [](const auto& e, TileKey k) { return e.first < k; });
  if (at == tile_ids_.end() || at->first != key) return std::nullopt;
  return at->second;
}

void RuntimeWorld::rebase(glm::dvec3 render_origin) {
  origin_ = render_origin;
  ++structure_version_;
  for (std::uint32_t t = 0; t < types_.size(); ++t) {
    Type& type = types_[t];
    for (Segment& s : type.segments) {
      const auto tile = std::find_if(tiles_.begin(), tiles_.end(), [&](const auto& p) {
        return TileKey{p->x, p->z} == s.tile;
      });
      const glm::dvec3 tile_origin = (*tile)->origin();
      const glm::vec3 shift(tile_origin - origin_);
      const Aabb& b = (*tile)->groups[s.group].bounds;
      s.bounds = {b.min + shift, b.max + shift};
      for (std::uint32_t page : s.pages) {
        type.pages[page].offset = shift;
        log(t, page, false);
      }
    }
  }
}

const Tile* RuntimeWorld::tile(TileKey key) const {
  for (const auto& t : tiles_)
    if (t->x == key.x && t->z == key.z) return t.get();
  return nullptr;
}

std::size_t RuntimeWorld::instance_count() const {
  std::size_t n = 0;
  for (const Type& t : types_) n += t.instances;
  return n;
}

std::size_t RuntimeWorld::kept_block_bytes() const {
  const std::size_t block = RecordBlock::kRecords * sizeof(PlantRecord);
  return kept_blocks_.size() * block + (spare_block_.peek() ? block : 0);
}

std::size_t RuntimeWorld::resident_bytes() const {
  std::size_t bytes = 0;
  for (const Type& t : types_) {
    bytes += t.record_blocks.size() * std::size_t(kBlockPages) * kPageSlots * sizeof(PlantRecord) +
             t.pages.size() * sizeof(PlantPage);
    for (const Segment& s : t.segments) bytes += sizeof(Segment) + s.pages.size() * sizeof(std::uint32_t);
  }
  for (const auto& tile : tiles_)
    for (const Group& g : tile->groups)
      bytes += g.instances.size() * sizeof(InstanceRecord) + g.nodes.size() * sizeof(QuadNode);
  return bytes;
}

ExpandedType expand_type(const RuntimeWorld::Type& type) {
  ExpandedType e;
  const std::uint32_t slots = type.slot_count();
  e.instances.assign(slots, RuntimeInstance{});
  for (std::uint32_t i = 0; i < slots; ++i) {
    const PlantPage& page = type.pages[i / kPageSlots];
    if (i % kPageSlots >= page.count) {
      e.spheres.push_back(Sphere{});
      continue;
    }
    const ExpandedPlant p = type.expand(i);
    e.instances[i] = p.instance;
    e.spheres.push_back(p.sphere);
  }
  return e;
}

}  // namespace myriad::vegetation
