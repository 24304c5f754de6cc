// Runtime form of loaded vegetation (G4, G5): per plant type a pool of pages of kPageSlots slots
// holding the instances in their compact form (PlantRecord, the disk record's bytes) and one table
// entry per page (PlantPage: tile origin relative to the render origin, the group's quantization box,
// the hash key), as the GPU keeps them. A tile's groups take free pages; unloading frees them; a rebase
// rewrites only the page table. Every change to a page in use is logged, so a GPU copy re-uploads just
// the pages that changed (a freed page is logged when it is taken again). Expansion (expand_plant) gives the
// camera-relative matrices on demand.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "myriad/core/thread/worker_spare.hpp"
#include "myriad/vegetation/cull/cpu_cull.hpp"
#include "myriad/vegetation/runtime/plant_expand.hpp"
#include "myriad/vegetation/bake/tile_format.hpp"

namespace myriad::vegetation {

static_assert(kLodShapes == kGpuMaxLods);

// Bytes streaming moves into the runtime pools per instance (its budget's unit).
inline constexpr std::size_t kRuntimeBytesPerInstance = sizeof(PlantRecord);

// Two prefabs are the same runtime type when their LOD resources (mesh, material, distance) match.
bool same_runtime_type(const Prefab& a, const Prefab& b);

class RuntimeWorld {
 public:
  // The instances [group_first, group_first + count) of one group, in `pages` (each full but the last).
  struct Segment {
    TileKey tile;
    std::uint32_t group = 0;
    std::uint32_t group_first = 0;
    std::uint32_t count = 0;
    std::vector<std::uint32_t> pages;
    Aabb bounds;             // the group's AABB relative to the render origin
    float max_scale = 0.0f;  // of its instances
    // Unique in its world and rising in the order segments are made, so a type's segments are in id order
    // (removals keep the order; new ones go at the end): a copy of some of them can be matched by id.
    std::uint64_t id = 0;
  };
  // Records are held in blocks of kBlockPages pages, so a pool grows without moving what it holds
  // (a single vector of a million records would copy 16 MB on each reallocation, mid-frame). Blocks a
  // pool gives back are kept (kKeptBlocks at most, for any type) for the next pool that grows, so a pool
  // whose size moves back and forth across a block's edge (a streamed flight) does not free and allocate
  // a block each time. A block new to the world is written once before a pool takes it when a worker
  // makes it ahead of need (keep_spare_block): memory never touched costs a page fault per 4 KiB on the
  // thread that first writes it, tens of microseconds each on a virtual machine, which the frame thread
  // copying records would otherwise pay a few at a time in the frames after each new block.
  static constexpr std::uint32_t kBlockPages = 256;
  static constexpr std::size_t kKeptBlocks = 4;
  // kBlockPages * kPageSlots records, allocated uninitialised; a copy (a world copied whole) copies them.
  class RecordBlock {
   public:
    static constexpr std::size_t kRecords = std::size_t(kBlockPages) * kPageSlots;
    RecordBlock() : records_(std::make_unique_for_overwrite<PlantRecord[]>(kRecords)) {}
    RecordBlock(const RecordBlock& other) : RecordBlock() { *this = other; }
    RecordBlock& operator=(const RecordBlock& other) {
      if (this != &other && other.records_) std::memcpy(data(), other.data(), kRecords * sizeof(PlantRecord));
      return *this;
    }
    RecordBlock(RecordBlock&&) noexcept = default;
    RecordBlock& operator=(RecordBlock&&) noexcept = default;
    ~RecordBlock() = default;
    PlantRecord* data() { return records_.get(); }
    const PlantRecord* data() const { return records_.get(); }

   private:
    std::unique_ptr<PlantRecord[]> records_;
  };
  struct Type {
    Prefab prefab;
    PlantSphereShape shape;
    std::vector<RecordBlock> record_blocks;
    std::vector<PlantPage> pages;  // count == 0: free
    std::vector<std::uint32_t> free_pages;
    std::vector<Segment> segments;
    std::size_t instances = 0;  // live instances

    std::uint32_t page_count() const { return static_cast<std::uint32_t>(pages.size()); }
    std::uint32_t slot_count() const { return page_count() * kPageSlots; }
    // The kPageSlots records of a page, contiguous.
    const PlantRecord* page_records(std::uint32_t page) const {
      return record_blocks[page / kBlockPages].data() + std::size_t(page % kBlockPages) * kPageSlots;
    }
    PlantRecord* page_records(std::uint32_t page) {
      return record_blocks[page / kBlockPages].data() + std::size_t(page % kBlockPages) * kPageSlots;
    }
    ExpandedPlant expand(std::uint32_t slot) const {
      return expand_plant(page_records(slot / kPageSlots)[slot % kPageSlots], pages[slot / kPageSlots],
                          slot % kPageSlots, shape);
    }
  };
  // A page whose entry changed since the last take_changes(): records too, or (after a rebase) the table
  // entry alone.
  struct PageChange {
    std::uint32_t type = 0;
    std::uint32_t page = 0;
    bool records = false;
  };

  explicit RuntimeWorld(glm::dvec3 render_origin = glm::dvec3(0.0)) : origin_(render_origin) {}

  // Appends instances [first, first + count) of a group of `tile` (kept alive for rebasing): the
  // group's last page is filled up first, then free pages are taken (new ones added at the end).
  void append(const std::shared_ptr<const Tile>& tile, std::uint32_t group, std::uint32_t first,
              std::uint32_t count);
  // Frees every page of the tile; free pages at the end of a pool are released. Types are never removed
  // (their index is their identity). A change may name a page past the pool's end then.
  void remove_tile(TileKey key);
  // Moves the render origin (e.g. when the camera has travelled far): page offsets and segment bounds
  // are recomputed; the records stay.
  void rebase(glm::dvec3 render_origin);

  // Moves the change log into `out` (cleared first). A page appears once however often it changed.
  void take_changes(std::vector<PageChange>& out);

  glm::dvec3 render_origin() const { return origin_; }
  // The tile a segment names (held while any of its instances are here), or null.
  const Tile* tile(TileKey key) const;
  // The ids of a tile's segments lie in [first, last] (the ids between may be other tiles' when appends of
  // several tiles interleave; a streamer copying one tile at a time gives each tile its own run). Empty
  // for a tile without segments here. A tile removed and appended again gets new ids.
  struct SegmentIds {
    std::uint64_t first = 0, last = 0;
  };
  std::optional<SegmentIds> segment_ids(TileKey key) const;
  // Changes with every removal and rebase (appends do not count: a streamer appends only to tiles it does
  // not hold whole yet).
  std::uint64_t structure_version() const { return structure_version_; }
  const std::vector<Type>& types() const { return types_; }
  std::size_t instance_count() const;
  // Bytes held for the pools (records and pages by size), segments and the retained tiles' disk form.
  std::size_t resident_bytes() const;
  // Bytes of record blocks held for pools that grow (given back, or made ahead): not in resident_bytes,
  // at most (kKeptBlocks + 1) blocks.
  std::size_t kept_block_bytes() const;

  // From now on a new record block is made and written on `workers` ahead of need, and a pool that grows
  // takes it ready; when it is not ready the pool makes its own (counted), as without a spare.
  void keep_spare_block(std::shared_ptr<WorkerPool> workers);
  struct BlockStats {
    std::uint64_t kept = 0;        // blocks a growing pool took from those given back
    std::uint64_t made_ahead = 0;  // taken ready from the worker
    std::uint64_t made_here = 0;   // made by the thread appending (pages fault as they are first written)
  };
  const BlockStats& block_stats() const { return block_stats_; }

 private:
  std::uint32_t take_page(std::uint32_t type);
  RecordBlock take_block();
  void give_back_blocks(Type& type, std::size_t keep);
  void log(std::uint32_t type, std::uint32_t page, bool records);

  glm::dvec3 origin_;
  std::vector<Type> types_;
  std::vector<std::shared_ptr<const Tile>> tiles_;        // one entry per tile with instances here
  std::vector<std::pair<TileKey, SegmentIds>> tile_ids_;  // sorted by tile
  std::vector<PageChange> changes_;
  std::uint64_t structure_version_ = 0;
  std::uint64_t next_segment_id_ = 1;
  std::vector<std::vector<std::uint8_t>> logged_;  // per type and page: 0, 1 (table), 2 (records)
  std::vector<RecordBlock> kept_blocks_;           // given back by pools, for the next that grows
  WorkerSpare<RecordBlock> spare_block_;           // last: goes first, waiting for its job
  BlockStats block_stats_;
};

// Every slot of a type expanded (free and unused slots zero): the CPU reference of what GPU culling
// and drawing compute per slot.
struct ExpandedType {
  std::vector<RuntimeInstance> instances;
  SphereArrays spheres;
};
ExpandedType expand_type(const RuntimeWorld::Type& type);

// Calls fn(slot) for every instance of a segment, in group order.
template <typename Fn>
void for_each_slot(const RuntimeWorld::Type& type, const RuntimeWorld::Segment& segment, Fn&& fn) {
  for (std::uint32_t page : segment.pages)
    for (std::uint32_t k = 0; k < type.pages[page].count; ++k) fn(page * kPageSlots + k);
}

}  // namespace myriad::vegetation
