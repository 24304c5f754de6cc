// The article's CPU culling of a runtime pool (G7): the offline quadtree walked with plane/box tests,
// and every instance of a visible leaf drawn at the LOD its leaf's centre gets (leaf_lod: the prefab's
// switch distances, no per-instance hash, no cross-fade), so LOD changes block by block. Instances of a
// leaf that only partly meets the frustum are tested one by one with that LOD's sphere (the GPU pass's
// spheres, sway included); a node wholly inside accepts them untested. The output is list entries per
// LOD (slot, no fade bits), for instanced draws in batches of at most 1023.
//
// Compared with the per-instance rule (cull_pool_cpu, the GPU pass's verdicts exactly) it draws a few
// more plants at finer LODs near each leaf's switch distance and switches whole leaves at once: the
// article's trade of a little quality for a walk that never looks at an instance it can settle by node.
#pragma once

#include <span>
#include <vector>

#include "myriad/vegetation/cull/pool_cull.hpp"

namespace myriad::vegetation {

// Appends the entries of `segments` (live segments of `type`, from `world`) to `out` (not cleared).
// `frustum` and `camera` are relative to the render origin. `lod` gives the LOD count and the segment
// test (group_visible); the leaf LODs come from type.prefab.lods. `stack` is scratch (no allocation once
// grown). Stats as cull_pool_cpu's; nodes_skipped also counts subtrees beyond the draw distance.
PoolCullStats cull_pool_cpu_per_leaf(const RuntimeWorld& world, const RuntimeWorld::Type& type,
                                     std::span<const RuntimeWorld::Segment> segments, const HashedLod& lod,
                                     const PlantLodShapes& shapes, const Frustum& frustum, glm::vec3 camera,
                                     PoolLists& out, std::vector<std::uint32_t>& stack);

}  // namespace myriad::vegetation
