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

// A list entry as the culling pass writes it.
constexpr std::uint32_t plant_list_entry(std::uint32_t slot, bool fade_in, std::uint32_t q) {
  return slot | (fade_in ? VEG_FADE_IN : 0u) | (q << VEG_FADE_Q_SHIFT);
}

}  // namespace myriad::vegetation
