// The article's CPU rule on a runtime pool (cull_pool_cpu_per_leaf): every listed plant carries the LOD
// its quadtree leaf's centre gets, all plants of a leaf share it, and the listed set is exactly what an
// independent brute force over every leaf finds (group test, leaf LOD from the centre, the LOD's sphere
// against the frustum) — while the walk really skips nodes and accepts whole ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/cull/pool_leaf_cull.hpp"
#include "test_util.hpp"

namespace myriad::vegetation {
namespace {

struct Leaf {
  std::uint32_t lod = 0;  // from the independent computation
  std::uint32_t id = 0;   // leaf identity: (segment, node)
};

// The reference: every leaf of every live segment, no tree pruning.
std::map<std::uint32_t, Leaf> brute_force(const RuntimeWorld& world, const RuntimeWorld::Type& type,
                                          const HashedLod& lod, const PlantLodShapes& shapes,
                                          const Frustum& frustum, glm::vec3 camera) {
  std::map<std::uint32_t, Leaf> listed;  // slot -> leaf
  const std::size_t lod_count = std::min<std::size_t>(type.prefab.lods.size(), lod.count);
  std::uint32_t leaf_id = 0;
  for (const RuntimeWorld::Segment& seg : type.segments) {
    const Group& g = world.tile(seg.tile)->groups[seg.group];
    const glm::vec3 shift = seg.bounds.min - g.bounds.min;
    const bool group_in = group_visible(frustum, seg.bounds, camera, lod);
    for (const QuadNode& node : g.nodes) {
      ++leaf_id;
      if (!group_in || node.child_count != 0) continue;
      const glm::vec3 centre = (node.bounds.min + shift + node.bounds.max + shift) * 0.5f;
      const float d = glm::length(centre - camera);
      std::uint32_t l = 0;
      while (l < lod_count && !(d < type.prefab.lods[l].switch_distance)) ++l;
      if (l == lod_count) continue;
      for (std::uint32_t k = node.first_instance; k < node.first_instance + node.instance_count; ++k) {
        if (k < seg.group_first || k >= seg.group_first + seg.count) continue;
        const std::uint32_t slot = segment_slot(seg, k);
        const std::uint32_t page = slot / kPageSlots;
        const Sphere s =
            plant_sphere(type.page_records(page)[slot % kPageSlots], type.pages[page], shapes.lod[l]);
        if (frustum.intersects(s)) listed[slot] = {l, leaf_id};
      }
    }
  }
  return listed;
}

TEST(PoolLeafCull, EveryLeafTakesTheLodOfItsCentreAndTheSetIsTheBruteForces) {
  std::vector<Tile> tiles = bake_tiles(test::small_world(600.0, 5));
  const glm::dvec3 origin(250.0, 0.0, 310.0);
  RuntimeWorld world(origin);
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    auto tile = std::make_shared<const Tile>(std::move(tiles[i]));
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g) {
      const auto n = static_cast<std::uint32_t>(tile->groups[g].instances.size());
      // Every other tile only partly resident: leaves that straddle a segment's end are clipped.
      world.append(tile, g, 0, i % 2 == 0 ? n : n * 2 / 3);
    }
  }
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> xz(-50.0, 650.0), h(1.5, 120.0), t(0.0, 600.0);
  std::vector<std::uint32_t> stack;
  PoolCullStats total;
  std::size_t listed_total = 0, leaves_mixed = 0;
  std::vector<std::size_t> per_lod(kGpuMaxLods, 0);
  for (int cam = 0; cam < 24; ++cam) {
    const glm::dvec3 eye(xz(rng), h(rng), xz(rng));
    const Frustum rel = Frustum::from_view_proj(test::relative_view_proj(eye, {t(rng), 0.0, t(rng)}));
    const Frustum frustum = local_frustum(rel, origin, eye);  // relative to the render origin
    const glm::vec3 camera(eye - origin);
    for (const RuntimeWorld::Type& type : world.types()) {
      const HashedLod lod = make_hashed_lod(type.prefab.lods, 0.2f, 0.1f);
      const PlantLodShapes shapes = make_lod_shapes({}, type.shape);
      PoolLists lists;
      const PoolCullStats s =
          cull_pool_cpu_per_leaf(world, type, type.segments, lod, shapes, frustum, camera, lists, stack);
      total.nodes_skipped += s.nodes_skipped;
      total.instances_accepted += s.instances_accepted;
      total.instances_tested += s.instances_tested;
      const std::map<std::uint32_t, Leaf> want = brute_force(world, type, lod, shapes, frustum, camera);
      std::map<std::uint32_t, std::uint32_t> got;  // slot -> LOD
      for (std::uint32_t l = 0; l < kGpuMaxLods; ++l)
        for (const std::uint32_t entry : lists[l]) {
          EXPECT_EQ(entry >> VEG_SLOT_BITS, 0u) << "the per-leaf rule has no cross-fade";
          EXPECT_TRUE(got.emplace(entry & VEG_SLOT_MASK, l).second) << "slot listed twice";
          ++per_lod[l];
        }
      ASSERT_EQ(got.size(), want.size()) << "camera " << cam;
      std::map<std::uint32_t, std::uint32_t> leaf_lod_seen;  // leaf -> LOD of its first listed plant
      for (const auto& [slot, leaf] : want) {
        const auto it = got.find(slot);
        ASSERT_NE(it, got.end()) << "slot " << slot << " missing";
        EXPECT_EQ(it->second, leaf.lod) << "slot " << slot << " not at its leaf centre's LOD";
        const auto [seen, fresh] = leaf_lod_seen.emplace(leaf.id, it->second);
        leaves_mixed += !fresh && seen->second != it->second;
      }
      listed_total += got.size();
    }
  }
  EXPECT_EQ(leaves_mixed, 0u) << "plants of one leaf at different LODs";
  EXPECT_GT(listed_total, 5000u);
  EXPECT_GT(per_lod[0], 0u);
  EXPECT_GT(per_lod[1] + per_lod[2] + per_lod[3], 0u) << "no camera saw a leaf past the first switch";
  EXPECT_GT(total.nodes_skipped, 0u);
  EXPECT_GT(total.instances_accepted, 0u);
  EXPECT_GT(total.instances_tested, 0u);
}

}  // namespace
}  // namespace myriad::vegetation
