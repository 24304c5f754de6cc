// Page-slot arena bookkeeping (V10): each non-empty section is one page whose vertices and indices
// live as variable-length ranges in long-lived arenas. An arena holds pages of one geometry category
// and one region (a place: the caller's spatial grouping, so a view that misses the region skips the
// arena's draws). A page's draw bucket (an upper bound on its index count) is a property of the page,
// not of the arena: an arena is drawn with one indirect command per bucket its pages use.
//
// Capacities never grow once fixed. With fixed capacities (fit_to_content off) an arena is created
// with vertex_capacity/index_capacity. With fit_to_content an arena is created open, takes pages up to
// those maxima, and seal() fixes its capacity to what its pages reach plus a growth reserve, before
// any GPU buffer exists; pages placed after that go into the reserve, a hole of a sealed arena or a
// new spill arena of the region. Pure CPU logic: the GPU side creates one buffer pair per sealed
// arena and writes pages where this says.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/core/layout/range_allocator.hpp"

namespace myriad::render {

struct PageArenaOptions {
  // Per arena: its capacity, or with fit_to_content the most an open arena takes before sealing.
  std::uint32_t vertex_capacity = 1u << 20;
  std::uint32_t index_capacity = 3u << 20;
  std::uint32_t vertex_slack = 50;  // added to every page allocation
  std::uint32_t index_slack = 50;
  bool fit_to_content = false;
  // With fit_to_content, the reserve seal() adds: growth_eighths/8 of the content, at least
  // min_vertex_growth / min_index_growth elements. A spill arena (one sealed while its region already
  // has sealed arenas) reserves at least a quarter of those arenas' capacity, so a run of edits does
  // not create an arena each.
  std::uint32_t growth_eighths = 1;
  std::uint32_t min_vertex_growth = 512;
  std::uint32_t min_index_growth = 768;

  // Throws myriad::Error naming the first invalid field (PageArenas' constructor calls it).
  void validate() const;
};

// Draw buckets: index-count classes 64, 96, 128, 192, 256, 384, ... (alternating x1.5 and x4/3), so
// the surplus a draw carries is below half of a page's real count.
std::uint32_t draw_bucket_for(std::uint32_t index_count);
std::uint32_t draw_bucket_size(std::uint32_t bucket);

inline constexpr std::uint32_t kNoArena = 0xffffffffu;

struct PagePlacement {
  std::uint32_t arena = kNoArena;
  Range vertices;
  Range indices;
  std::uint32_t vertex_count = 0;  // real counts (without slack)
  std::uint32_t index_count = 0;
  std::uint32_t bucket = 0;  // draw_bucket_for(index_count)
  bool placed() const { return arena != kNoArena; }
};

struct PageArena {
  std::uint32_t category = 0;
  std::uint32_t region = 0;
  RangeAllocator vertices;
  RangeAllocator indices;
  std::uint32_t page_count = 0;
  std::vector<std::uint32_t> bucket_pages;  // pages per draw bucket (index = bucket)
  bool sealed = true;                       // capacities fixed (always, without fit_to_content)
};

enum class PlaceOutcome {
  kInPlace,   // the page's ranges still fit: overwrite them
  kMoved,     // new ranges in an existing arena of the category and region
  kNewArena,  // a new arena was created for the page
  kRemoved,   // an empty page: its ranges were released
};

class PageArenas {
 public:
  PageArenas(std::uint32_t page_slots, const PageArenaOptions& config);

  // (Re)places page `page` with the given geometry in an arena of `category` and `region`. Empty
  // geometry removes the page. Throws myriad::Error when one page alone exceeds an arena's capacity.
  PlaceOutcome place(std::uint32_t page, std::uint32_t category, std::uint32_t vertex_count,
                     std::uint32_t index_count, std::uint32_t region = 0);
  void remove(std::uint32_t page);
  // Fixes the capacity of every open arena (fit_to_content); returns how many were sealed.
  std::uint32_t seal();

  const PagePlacement& placement(std::uint32_t page) const { return pages_.at(page); }
  const std::vector<PageArena>& arenas() const { return arenas_; }
  const PageArenaOptions& config() const { return config_; }
  std::uint32_t page_slots() const { return std::uint32_t(pages_.size()); }

 private:
  std::uint32_t find_or_create_arena(std::uint32_t category, std::uint32_t region, std::uint32_t vertex_count,
                                     std::uint32_t index_count, Range& vertices, Range& indices,
                                     bool& created);

  PageArenaOptions config_;
  std::vector<PagePlacement> pages_;
  std::vector<PageArena> arenas_;
};

}  // namespace myriad::render
