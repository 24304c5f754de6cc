// The per-leaf walk over a live segment. Node boxes are group-local; the segment's bounds place the
// group relative to the render origin, so `shift` moves a node there (as cull_pool_cpu does).
#include "myriad/vegetation/cull/pool_leaf_cull.hpp"

#include <algorithm>

namespace myriad::vegetation {
PoolCullStats cull_pool_cpu_per_leaf(const RuntimeWorld& world, const RuntimeWorld::Type& type,
                                     std::span<const RuntimeWorld::Segment> segments, const HashedLod& lod,
                                     const PlantLodShapes& shapes, const Frustum& frustum, glm::vec3 camera,
                                     PoolLists& out, std::vector<std::uint32_t>& stack) {
  PoolCullStats stats;
  const std::span<const LodLevel> lods =
      std::span(type.prefab.lods).first(std::min<std::size_t>(type.prefab.lods.size(), lod.count));
  if (lods.empty()) return stats;
  // A leaf centre is never nearer than its ancestors' boxes: a subtree whose box lies past the last
  // switch distance (with a margin against rounding) holds no leaf that draws.
  const float draw_distance = lods.back().switch_distance * 1.001f + 0.01f;
  const PoolSphereReach reach = pool_sphere_reach(type.prefab, shapes);
  for_each_visible_segment(
      world, segments, frustum, camera, lod, reach.reach, [&](const VisibleSegment& visible) {
        const RuntimeWorld::Segment& seg = visible.seg;
        const Group& g = visible.group;
        // Stack entries: node index << 1 | "wholly inside" flag (inherited: a wholly-inside node's
        // children still need their own leaf LOD, not another plane test).
        stack.clear();
        stack.push_back(0);
        while (!stack.empty()) {
          const std::uint32_t entry = stack.back();
          stack.pop_back();
          const QuadNode& node = g.nodes[entry >> 1];
          const Aabb local{node.bounds.min + visible.shift, node.bounds.max + visible.shift};
          if (local.distance_to(camera) > draw_distance) {
            ++stats.nodes_skipped;
            continue;
          }
          bool inside = (entry & 1u) != 0;
          if (!inside) {
            ++stats.nodes_tested;
            if (!frustum.intersects(local.grown(visible.margin))) {
              ++stats.nodes_skipped;
              continue;
            }
            inside = reach.centres_inside && frustum.contains(local);
          }
          if (node.child_count > 0) {
            for (std::uint32_t c = node.child_count; c-- > 0;)
              stack.push_back((node.first_child + c) << 1 | (inside ? 1u : 0u));
            continue;
          }
          const std::uint32_t l = leaf_lod(local, camera, lods);
          if (l >= lods.size()) continue;
          const PlantSphereShape& shape = cull_shape_at(shapes, l, false);
          std::vector<std::uint32_t>& list = out[l];
          const std::uint32_t lo = std::max(node.first_instance, seg.group_first);
          const std::uint32_t hi = std::min(node.first_instance + node.instance_count, visible.end);
          for (std::uint32_t k = lo; k < hi; ++k) {
            const std::uint32_t slot = segment_slot(seg, k);
            if (inside) {
              ++stats.instances_accepted;
            } else {
              ++stats.instances_tested;
              const std::uint32_t page = slot / kPageSlots;
              if (!frustum.intersects(
                      plant_sphere(type.page_records(page)[slot % kPageSlots], type.pages[page], shape)))
                continue;
            }
            list.push_back(plant_list_entry(slot, false, 0));
          }
        }
      });
  return stats;
}

}  // namespace myriad::vegetation
