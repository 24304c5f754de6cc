#include "myriad/render/terrain/page_arenas.hpp"

#include <algorithm>

#include "myriad/core/io/error.hpp"

namespace myriad::render {

std::uint32_t draw_bucket_size(std::uint32_t bucket) {
  // Even buckets are powers of two from 64, odd ones sit halfway (x1.5) between them.
  const std::uint64_t base = std::uint64_t(64) << (bucket / 2);
  const std::uint64_t size = (bucket % 2) ? base + base / 2 : base;
  return size > 0xffffffffu ? 0xffffffffu : std::uint32_t(size);
}

std::uint32_t draw_bucket_for(std::uint32_t index_count) {
  std::uint32_t bucket = 0;
  while (draw_bucket_size(bucket) < index_count) ++bucket;
  return bucket;
}

void PageArenaOptions::validate() const {
  if (vertex_capacity <= vertex_slack)
    throw Error("page arena vertex capacity must exceed the per-page slack",
                "PageArenaOptions::vertex_capacity");
  if (index_capacity <= index_slack)
    throw Error("page arena index capacity must exceed the per-page slack",
                "PageArenaOptions::index_capacity");
}

PageArenas::PageArenas(std::uint32_t page_slots, const PageArenaOptions& config)
    : config_(config), pages_(page_slots) {
  config.validate();
}

void PageArenas::remove(std::uint32_t page) {
  PagePlacement& p = pages_.at(page);
  if (!p.placed()) return;
  PageArena& arena = arenas_[p.arena];
  arena.vertices.free(p.vertices);
  arena.indices.free(p.indices);
  --arena.page_count;
  --arena.bucket_pages[p.bucket];
  p = PagePlacement{};
}

std::uint32_t PageArenas::find_or_create_arena(std::uint32_t category, std::uint32_t region,
                                               std::uint32_t vertex_count, std::uint32_t index_count,
                                               Range& vertices, Range& indices, bool& created) {
  created = false;
  // In creation order: a sealed arena's reserve and holes first, then the region's open arena.
  for (std::uint32_t a = 0; a < arenas_.size(); ++a) {
    PageArena& arena = arenas_[a];
    if (arena.category != category || arena.region != region) continue;
    const auto v = arena.vertices.allocate(vertex_count);
    if (!v) continue;
    const auto i = arena.indices.allocate(index_count);
    if (!i) {
      arena.vertices.free(*v);
      continue;
    }
    vertices = *v;
    indices = *i;
    return a;
  }
  PageArena arena{category,
                  region,
                  RangeAllocator(config_.vertex_capacity, config_.vertex_slack),
                  RangeAllocator(config_.index_capacity, config_.index_slack),
                  0,
                  {},
                  !config_.fit_to_content};
  const auto v = arena.vertices.allocate(vertex_count);
  const auto i = arena.indices.allocate(index_count);
  if (!v || !i) {
    throw Error("a page with " + std::to_string(vertex_count) + " vertices and " +
                    std::to_string(index_count) + " indices does not fit in an empty arena",
                "PageArenaOptions", "raise vertex_capacity/index_capacity");
  }
  vertices = *v;
  indices = *i;
  created = true;
  arenas_.push_back(std::move(arena));
  return std::uint32_t(arenas_.size() - 1);
}

PlaceOutcome PageArenas::place(std::uint32_t page, std::uint32_t category, std::uint32_t vertex_count,
                               std::uint32_t index_count, std::uint32_t region) {
  PagePlacement& p = pages_.at(page);
  if (vertex_count == 0 || index_count == 0) {
    remove(page);
    return PlaceOutcome::kRemoved;
  }
  const std::uint32_t bucket = draw_bucket_for(index_count);
  if (p.placed()) {
    PageArena& arena = arenas_[p.arena];
    // In place when the category and region are unchanged and the ranges hold the new counts; the
    // bucket may change freely (it only picks the page's indirect command).
    if (arena.category == category && arena.region == region &&
        RangeAllocator::fits_in_place(p.vertices, vertex_count) &&
        RangeAllocator::fits_in_place(p.indices, index_count)) {
      --arena.bucket_pages[p.bucket];
      if (arena.bucket_pages.size() <= bucket) arena.bucket_pages.resize(bucket + 1, 0);
      ++arena.bucket_pages[bucket];
      p.vertex_count = vertex_count;
      p.index_count = index_count;
      p.bucket = bucket;
      return PlaceOutcome::kInPlace;
    }
    remove(page);
  }
  Range vertices, indices;
  bool created = false;
  const std::uint32_t a =
      find_or_create_arena(category, region, vertex_count, index_count, vertices, indices, created);
  PageArena& arena = arenas_[a];
  ++arena.page_count;
  if (arena.bucket_pages.size() <= bucket) arena.bucket_pages.resize(bucket + 1, 0);
  ++arena.bucket_pages[bucket];
  p = {a, vertices, indices, vertex_count, index_count, bucket};
  return created ? PlaceOutcome::kNewArena : PlaceOutcome::kMoved;
}

std::uint32_t PageArenas::seal() {
  // What each (category, region) already holds in sealed arenas, before this call seals more.
  std::vector<std::uint64_t> sealed_vertices(arenas_.size(), 0), sealed_indices(arenas_.size(), 0);
  for (std::size_t a = 0; a < arenas_.size(); ++a) {
    if (arenas_[a].sealed) continue;
    for (const PageArena& other : arenas_) {
      if (!other.sealed || other.category != arenas_[a].category || other.region != arenas_[a].region)
        continue;
      sealed_vertices[a] += other.vertices.capacity();
      sealed_indices[a] += other.indices.capacity();
    }
  }
  auto fitted = [&](std::uint32_t end, std::uint32_t min_growth, std::uint64_t sealed, std::uint32_t max) {
    std::uint64_t capacity =
        end + std::max<std::uint64_t>(std::uint64_t(end) * config_.growth_eighths / 8, min_growth);
    capacity = std::max(capacity, sealed / 4);  // a spill arena keeps room for the next edits
    return std::uint32_t(std::min<std::uint64_t>(capacity, max));
  };
  std::uint32_t count = 0;
  for (std::size_t a = 0; a < arenas_.size(); ++a) {
    PageArena& arena = arenas_[a];
    if (arena.sealed) continue;
    arena.vertices.shrink_to(
        fitted(arena.vertices.end(), config_.min_vertex_growth, sealed_vertices[a], config_.vertex_capacity));
    arena.indices.shrink_to(
        fitted(arena.indices.end(), config_.min_index_growth, sealed_indices[a], config_.index_capacity));
    arena.sealed = true;
    ++count;
  }
  return count;
}

}  // namespace myriad::render
