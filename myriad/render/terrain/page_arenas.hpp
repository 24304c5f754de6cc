// Page-slot arena bookkeeping (V10): each non-empty section is one page whose vertices and indices
// live as variable-length ranges in long-lived arenas. An arena holds pages of one geometry category
// and one draw bucket (an upper bound on a page's index count, so one indirect draw per arena can use
// it and the vertex shader discards the surplus). Arenas have fixed capacities and never grow.
// Pure CPU logic: the GPU side creates one buffer pair per arena and writes pages where this says.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/core/range_allocator.hpp"

namespace myriad::render {

struct PageArenaOptions {
  std::uint32_t vertex_capacity = 1u << 20;  // per arena
  std::uint32_t index_capacity = 3u << 20;   // per arena
  std::uint32_t vertex_slack = 50;           // added to every page allocation
  std::uint32_t index_slack = 50;
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
  bool placed() const { return arena != kNoArena; }
};

struct PageArena {
  std::uint32_t category = 0;
  std::uint32_t bucket = 0;
  RangeAllocator vertices;
  RangeAllocator indices;
  std::uint32_t page_count = 0;
};

enum class PlaceOutcome {
  kInPlace,   // the page's ranges and bucket still fit: overwrite them
  kMoved,     // new ranges in an existing arena of the category and bucket
  kNewArena,  // a new arena was created for the page
  kRemoved,   // an empty page: its ranges were released
};

class PageArenas {
 public:
  PageArenas(std::uint32_t page_slots, const PageArenaOptions& config);

  // (Re)places page `page` with the given geometry. Empty geometry removes the page. Throws
  // myriad::Error when one page alone exceeds an arena's capacity.
  PlaceOutcome place(std::uint32_t page, std::uint32_t category, std::uint32_t vertex_count,
                     std::uint32_t index_count);
  void remove(std::uint32_t page);

  const PagePlacement& placement(std::uint32_t page) const { return pages_.at(page); }
  const std::vector<PageArena>& arenas() const { return arenas_; }
  const PageArenaOptions& config() const { return config_; }
  std::uint32_t page_slots() const { return std::uint32_t(pages_.size()); }

 private:
  std::uint32_t find_or_create_arena(std::uint32_t category, std::uint32_t bucket, std::uint32_t vertex_count,
                                     std::uint32_t index_count, Range& vertices, Range& indices,
                                     bool& created);

  PageArenaOptions config_;
  std::vector<PagePlacement> pages_;
  std::vector<PageArena> arenas_;
};

}  // namespace myriad::render
