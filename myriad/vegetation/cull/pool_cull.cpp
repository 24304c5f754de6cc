// The quadtree walk over a live segment. Node instance ranges are group-local; a segment holds the
// group's instances [group_first, group_first + count) in its pages in order (each page full but the
// last), so group index k lives in slot pages[(k - group_first) / kPageSlots] * kPageSlots + (k -
// group_first) % kPageSlots.
#include "myriad/vegetation/cull/pool_cull.hpp"

#include <algorithm>
#include <cmath>

namespace myriad::vegetation {
namespace {

struct Walk {
  const RuntimeWorld::Type& type;
  const HashedLod& lod;
  const PlantLodShapes& shapes;
  const Frustum& frustum;
  glm::vec3 camera;
  PoolLists& out;
  PoolCullStats& stats;

  // One instance: LOD from the type's sphere, then (unless its node is wholly inside) the LOD sphere.
  void instance(std::uint32_t slot, bool accepted) {
    const std::uint32_t page = slot / kPageSlots;
    const PlantRecord& record = type.page_records(page)[slot % kPageSlots];
    const PlantPage& entry = type.pages[page];
    // The type's sphere and the hash pick the LOD (no matrix needed here).
    const Sphere picked_from = plant_sphere(record, entry, type.shape);
    const float hash =
        lod_hash({entry.tile_x, entry.tile_z}, entry.group, entry.group_first + slot % kPageSlots);
    const LodPick pick = pick_lod_hashed(picked_from.center - camera, hash, lod);
    if (pick.lod >= lod.count) return;
    const bool into_next = pick.fading && pick.lod + 1 < lod.count;
    if (accepted) {
      ++stats.instances_accepted;
    } else {
      ++stats.instances_tested;
      if (!frustum.intersects(
              plant_sphere(record, type.pages[page], cull_shape_at(shapes, pick.lod, into_next))))
        return;
    }
    out[pick.lod].push_back(plant_list_entry(slot, false, pick.q));
    if (into_next) out[pick.lod + 1].push_back(plant_list_entry(slot, true, pick.q));
  }
};

}  // namespace

PoolSphereReach pool_sphere_reach(const Prefab& prefab, const PlantLodShapes& shapes) {
  // Every instance box holds its position at height y_min * scale, and every LOD sphere lies within
  // scale * (|mid - y_min| + radius) of that point: growing node boxes by that much (at the group's
  // largest scale) keeps a skip conservative. Accepting a wholly-inside node's instances untested is
  // exact when every LOD sphere's centre lies in the instance box (its height within the box's).
  const CullShape box = cull_shape(prefab.bounds);
  PoolSphereReach r;
  for (std::uint32_t l = 0; l < kLodShapes; ++l)
    for (const PlantSphereShape& s : {shapes.lod[l], shapes.fade[l]}) {
      r.reach = std::max(r.reach, std::abs(s.mid - box.y_min) + s.radius);
      r.centres_inside = r.centres_inside && s.mid >= box.y_min && s.mid <= box.y_max;
    }
  return r;
}

PoolCullStats cull_pool_cpu(const RuntimeWorld& world, const RuntimeWorld::Type& type,
                            std::span<const RuntimeWorld::Segment> segments, const HashedLod& lod,
                            const PlantLodShapes& shapes, const Frustum& frustum, glm::vec3 camera,
                            PoolLists& out, std::vector<std::uint32_t>& stack) {
  PoolCullStats stats;
  Walk walk{type, lod, shapes, frustum, camera, out, stats};
  // Not a structured binding: the lambda below captures it (clang before 16 cannot capture bindings).
  const PoolSphereReach sphere = pool_sphere_reach(type.prefab, shapes);
  for_each_visible_segment(
      world, segments, frustum, camera, lod, sphere.reach, [&](const VisibleSegment& visible) {
        const RuntimeWorld::Segment& seg = visible.seg;
        const Group& g = visible.group;
        auto visit = [&](std::uint32_t first, std::uint32_t count, bool accepted) {
          const std::uint32_t lo = std::max(first, seg.group_first),
                              hi = std::min(first + count, visible.end);
          for (std::uint32_t k = lo; k < hi; ++k) walk.instance(segment_slot(seg, k), accepted);
        };
        // Stack entries: node index << 1 | "wholly inside" flag.
        stack.clear();
        stack.push_back(0);
        while (!stack.empty()) {
          const std::uint32_t entry = stack.back();
          stack.pop_back();
          const QuadNode& node = g.nodes[entry >> 1];
          bool inside = (entry & 1u) != 0;
          if (!inside) {
            ++stats.nodes_tested;
            const Aabb local{node.bounds.min + visible.shift, node.bounds.max + visible.shift};
            if (!frustum.intersects(local.grown(visible.margin))) {
              ++stats.nodes_skipped;
              continue;
            }
            inside = sphere.centres_inside && frustum.contains(local);
          }
          if (node.child_count == 0 || inside) {
            visit(node.first_instance, node.instance_count, inside);
            continue;
          }
          for (std::uint32_t c = node.child_count; c-- > 0;) stack.push_back((node.first_child + c) << 1);
        }
      });
  return stats;
}

}  // namespace myriad::vegetation
