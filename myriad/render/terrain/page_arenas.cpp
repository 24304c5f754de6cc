#include "myriad/render/terrain/page_arenas.hpp"

#include "myriad/core/error.hpp"

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

PageArenas::PageArenas(std::uint32_t page_slots, const PageArenaOptions& config)
    : config_(config), pages_(page_slots) {
  if (config.vertex_capacity <= config.vertex_slack || config.index_capacity <= config.index_slack) {
    throw Error("page arena capacity must exceed the per-page slack", "PageArenaOptions");
  }
}

void PageArenas::remove(std::uint32_t page) {
  PagePlacement& p = pages_.at(page);
  if (!p.placed()) return;
  PageArena& arena = arenas_[p.arena];
  arena.vertices.free(p.vertices);
  arena.indices.free(p.indices);
  --arena.page_count;
  p = PagePlacement{};
}

std::uint32_t PageArenas::find_or_create_arena(std::uint32_t category, std::uint32_t bucket,
                                               std::uint32_t vertex_count, std::uint32_t index_count,
                                               Range& vertices, Range& indices, bool& created) {
  created = false;
  for (std::uint32_t a = 0; a < arenas_.size(); ++a) {
    PageArena& arena = arenas_[a];
    if (arena.category != category || arena.bucket != bucket) continue;
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
  PageArena arena{category, bucket, RangeAllocator(config_.vertex_capacity, config_.vertex_slack),
                  RangeAllocator(config_.index_capacity, config_.index_slack), 0};
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
                               std::uint32_t index_count) {
  PagePlacement& p = pages_.at(page);
  if (vertex_count == 0 || index_count == 0) {
    remove(page);
    return PlaceOutcome::kRemoved;
  }
  const std::uint32_t bucket = draw_bucket_for(index_count);
  if (p.placed()) {
    const PageArena& arena = arenas_[p.arena];
    // In place when the category is unchanged, the ranges hold the new counts and the arena's
    // bucket still bounds the index count (a page never moves to a smaller bucket by itself: that
    // would only trade a little surplus for an upload).
    if (arena.category == category && RangeAllocator::fits_in_place(p.vertices, vertex_count) &&
        RangeAllocator::fits_in_place(p.indices, index_count) &&
        index_count <= draw_bucket_size(arena.bucket)) {
      p.vertex_count = vertex_count;
      p.index_count = index_count;
      return PlaceOutcome::kInPlace;
    }
    remove(page);
  }
  Range vertices, indices;
  bool created = false;
  const std::uint32_t arena =
      find_or_create_arena(category, bucket, vertex_count, index_count, vertices, indices, created);
  ++arenas_[arena].page_count;
  p = {arena, vertices, indices, vertex_count, index_count};
  return created ? PlaceOutcome::kNewArena : PlaceOutcome::kMoved;
}

}  // namespace myriad::render
