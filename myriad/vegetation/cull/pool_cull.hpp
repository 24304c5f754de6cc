// CPU culling of a runtime pool (G7: where compute culling is unavailable, or chosen): the same
// verdicts and list entries as the GPU pass (render::VegetationCull) — group test per live segment, then
// per instance the hashed LOD from the type's sphere and the frustum test with the picked LOD's own
// sphere — with the offline quadtree skipping whole nodes: a node whose box, grown by the most any of
// its instances' LOD spheres can stick out of their boxes, misses the frustum is skipped untested, and
// a node wholly inside accepts its instances without per-instance frustum tests. The output is the
// list entries (slot | fade bits) per LOD, for instanced draws in batches.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/vegetation/cull/cpu_cull.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"

namespace myriad::vegetation {

using PoolLists = std::array<std::vector<std::uint32_t>, kGpuMaxLods>;

struct PoolCullStats {
  std::uint64_t nodes_tested = 0;        // quadtree nodes that needed a plane test
  std::uint64_t nodes_skipped = 0;       // subtrees left out by one test
  std::uint64_t instances_tested = 0;    // sphere tests
  std::uint64_t instances_accepted = 0;  // listed from wholly-inside nodes without a sphere test
};

// Appends the entries of `segments` (live segments of `type`, from `world`, which holds their tiles)
// to `out` (not cleared). `frustum` and `camera` are relative to the render origin. `stack` is scratch.
PoolCullStats cull_pool_cpu(const RuntimeWorld& world, const RuntimeWorld::Type& type,
                            std::span<const RuntimeWorld::Segment> segments, const HashedLod& lod,
                            const PlantLodShapes& shapes, const Frustum& frustum, glm::vec3 camera,
                            PoolLists& out, std::vector<std::uint32_t>& stack);

// How far a type's LOD spheres can reach out of its instances' boxes, per unit of scale (a node box grown
// by max_scale * reach holds every sphere of its instances), and whether every LOD sphere's centre lies
// within the instance box (only then does a node wholly inside the frustum accept its instances without
// a sphere test and the same verdicts). Both CPU pool walks test nodes with it.
struct PoolSphereReach {
  float reach = 0.0f;
  bool centres_inside = true;
};
PoolSphereReach pool_sphere_reach(const Prefab& prefab, const PlantLodShapes& shapes);

// The pool slot of group-local instance `k` of segment `seg` (k in [group_first, group_first + count)).
inline std::uint32_t segment_slot(const RuntimeWorld::Segment& seg, std::uint32_t k) {
  const std::uint32_t i = k - seg.group_first;
  return seg.pages[i / kPageSlots] * kPageSlots + i % kPageSlots;
}

// One live segment that passed the group test, as both CPU pool walks start on it: its group, the
// shift from the group's tile frame to render space (tile origin - render origin, as the pages), the
// end of its group-local instance range, and how far its node boxes are grown for the sphere test (its
// largest scale times the type's PoolSphereReach::reach, with a margin against rounding).
struct VisibleSegment {
  const RuntimeWorld::Segment& seg;
  const Group& group;
  glm::vec3 shift;
  std::uint32_t end;
  float margin;
};
// Calls fn(VisibleSegment) for each of `segments` whose group passes group_visible and whose tile is
// resident in `world`; `reach` is the type's PoolSphereReach::reach.
template <class Fn>
void for_each_visible_segment(const RuntimeWorld& world, std::span<const RuntimeWorld::Segment> segments,
                              const Frustum& frustum, glm::vec3 camera, const HashedLod& lod, float reach,
                              Fn&& fn) {
  for (const RuntimeWorld::Segment& seg : segments) {
    if (!group_visible(frustum, seg.bounds, camera, lod)) continue;
    const Tile* tile = world.tile(seg.tile);
    if (!tile || seg.group >= tile->groups.size()) continue;
    const Group& g = tile->groups[seg.group];
    fn(VisibleSegment{seg, g, seg.bounds.min - g.bounds.min, seg.group_first + seg.count,
                      seg.max_scale * reach * 1.001f + 1e-3f});
  }
}

// A list entry as the culling pass writes it.
constexpr std::uint32_t plant_list_entry(std::uint32_t slot, bool fade_in, std::uint32_t q) {
  return slot | (fade_in ? VEG_FADE_IN : 0u) | (q << VEG_FADE_Q_SHIFT);
}

}  // namespace myriad::vegetation
