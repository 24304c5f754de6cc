// CPU culling: the quadtree returns exactly the brute-force set, LOD per leaf, wholly-inside nodes skip
// per-instance tests, the flat loop matches Frustum::intersects bit for bit, batching covers every
// visible instance once with at most 1023 per batch.
#include <gtest/gtest.h>

#include <random>

#include "myriad/vegetation/cull/cpu_cull.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"
#include "myriad/vegetation/cull/sphere_blocks.hpp"
#include "myriad/core/layout/packing.hpp"
#include "test_util.hpp"

namespace myriad::vegetation {
namespace {

class CpuCull : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    BakeOptions o = test::small_world(600.0);
    o.tile_size = 200.0f;
    for (PlantType& t : o.types) t.lod_distances = {50.0f, 150.0f, 400.0f, 1e9f};
    tiles_ = new std::vector<Tile>(bake_tiles(o));
  }
  static void TearDownTestSuite() { delete tiles_; }
  static std::vector<Tile>* tiles_;
};
std::vector<Tile>* CpuCull::tiles_ = nullptr;

struct Cam {
  glm::dvec3 eye;
  Frustum rel;
};

Cam random_camera(std::mt19937& rng) {
  std::uniform_real_distribution<double> xz(-100.0, 700.0), h(1.0, 150.0), t(0.0, 600.0);
  const glm::dvec3 eye(xz(rng), h(rng), xz(rng));
  const glm::dvec3 target(t(rng), 0.0, t(rng));
  return {eye, Frustum::from_view_proj(test::relative_view_proj(eye, target))};
}

TEST_F(CpuCull, TreeEqualsBruteForceAndLodIsPerLeaf) {
  std::mt19937 rng(11);
  std::vector<VisibleRange> out;
  std::vector<std::uint32_t> stack;
  std::uint64_t visible_total = 0, tested = 0, total = 0;
  for (int cam_i = 0; cam_i < 60; ++cam_i) {
    const Cam cam = random_camera(rng);
    for (const Tile& t : *tiles_) {
      const Frustum local = local_frustum(cam.rel, t.origin(), cam.eye);
      const glm::vec3 cam_local(cam.eye - t.origin());
      for (const Group& g : t.groups) {
        const Prefab& p = t.prefabs[g.prefab];
        const CullShape shape = cull_shape(p.bounds);
        out.clear();
        const TreeCullStats s = cull_group_tree(g, p, local, cam_local, out, stack);
        tested += s.instances_tested;
        total += g.instances.size();
        std::vector<int> lod_of(g.instances.size(), -1);
        for (const VisibleRange& v : out)
          for (std::uint32_t k = v.first; k < v.first + v.count; ++k) {
            ASSERT_EQ(lod_of[k], -1) << "instance listed twice";
            lod_of[k] = int(v.lod);
          }
        // Expected LOD: from the centre of the instance's leaf.
        std::vector<int> leaf_lod(g.instances.size(), -1);
        for (const QuadNode& n : g.nodes)
          if (n.child_count == 0) {
            const glm::vec3 d = n.bounds.center() - cam_local;
            const auto l = select_lod(std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), p.lods);
            for (std::uint32_t k = n.first_instance; k < n.first_instance + n.instance_count; ++k)
              leaf_lod[k] = int(l);
          }
        for (std::size_t k = 0; k < g.instances.size(); ++k) {
          const InstanceRecord& r = g.instances[k];
          const bool brute =
              local.intersects(instance_bounds(decode_position(g, r), unpack_half(r.scale), shape));
          ASSERT_EQ(lod_of[k] >= 0, brute) << "camera " << cam_i << " instance " << k;
          if (brute) {
            ASSERT_EQ(lod_of[k], leaf_lod[k]);
            ++visible_total;
          }
        }
      }
    }
  }
  EXPECT_GT(visible_total, 10000u);
  EXPECT_LT(tested, total / 4);  // most visible instances came from wholly-inside nodes
}

TEST_F(CpuCull, WholeViewAcceptsRangesWithoutPerInstanceTests) {
  const glm::dvec3 eye(300.0, 3000.0, 300.0);
  const glm::mat4 vp = perspective(1.2f, 1.0f, 1.0f, 10000.0f) *
                       glm::lookAt(glm::vec3(0.0f), glm::vec3(0.0f, -1.0f, 0.0f), glm::vec3(0, 0, -1));
  const Frustum rel = Frustum::from_view_proj(vp);
  std::vector<VisibleRange> out;
  std::vector<std::uint32_t> stack;
  for (const Tile& t : *tiles_)
    for (const Group& g : t.groups) {
      out.clear();
      const auto s = cull_group_tree(g, t.prefabs[g.prefab], local_frustum(rel, t.origin(), eye),
                                     glm::vec3(eye - t.origin()), out, stack);
      EXPECT_EQ(s.instances_tested, 0u);
      EXPECT_EQ(s.nodes_tested, 1u);
      std::size_t n = 0;
      for (const auto& v : out) n += v.count;
      EXPECT_EQ(n, g.instances.size());
    }
}

TEST_F(CpuCull, DrawDistanceCullsFarLeaves) {
  const Tile& t = (*tiles_)[0];
  const Group& g = t.groups[0];
  Prefab p = t.prefabs[g.prefab];
  p.lods = {{0, 0, 50.0f}, {1, 0, 100.0f}, {2, 0, 200.0f}, {3, 0, 300.0f}};
  const glm::dvec3 eye(-2000.0, 10.0, 100.0);  // every leaf is farther than the draw distance
  const Frustum rel = Frustum::from_view_proj(test::relative_view_proj(eye, {100.0, 0.0, 100.0}, 5000.0f));
  std::vector<VisibleRange> out;
  std::vector<std::uint32_t> stack;
  (void)cull_group_tree(g, p, local_frustum(rel, t.origin(), eye), glm::vec3(eye - t.origin()), out, stack);
  EXPECT_TRUE(out.empty());
}

TEST_F(CpuCull, BlockedLoopEqualsTheFlatLoop) {
  // Tree-ordered spheres relative to a render origin 300 m from them, random cameras: whole blocks are
  // skipped and accepted, the rest cut, and the output is the flat loop's exactly.
  const glm::dvec3 origin(300.0, 0.0, 300.0);
  RuntimeWorld world(origin);
  for (const Tile& t : *tiles_) {
    auto tile = std::make_shared<const Tile>(t);
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  }
  std::mt19937 rng(11);
  std::size_t visible = 0;
  for (int i = 0; i < 12; ++i) {
    const Cam cam = random_camera(rng);
    const Frustum rel = local_frustum(cam.rel, origin, cam.eye);
    for (const auto& type : world.types()) {
      const SphereArrays s = expand_type(type).spheres;
      const SphereBlocks blocks = build_sphere_blocks(s);
      std::vector<std::uint32_t> flat(s.size()), blocked(s.size());
      flat.resize(
          cull_spheres_flat(rel, s.x.data(), s.y.data(), s.z.data(), s.r.data(), s.size(), flat.data()));
      blocked.resize(cull_spheres_blocked(rel, s, blocks, blocked.data()));
      ASSERT_EQ(blocked, flat) << "camera " << i;
      visible += flat.size();
    }
  }
  EXPECT_GT(visible, 1000u);
}

TEST(CpuCullLod, CrossFadeBandLiesJustBelowEachSwitch) {
  const std::vector<LodLevel> lods{{0, 0, 10.0f}, {1, 0, 20.0f}};
  const HashedLod hard = make_hashed_lod(lods, 0.0f);
  const HashedLod soft = make_hashed_lod(lods, 0.0f, 0.2f);  // bands [8, 10) and [16, 20)
  for (float d : {7.9f, 8.1f, 9.9f, 10.1f, 15.9f, 16.1f, 19.9f, 20.1f}) {
    const LodPick a = pick_lod_hashed({d, 0.0f, 0.0f}, 0.5f, hard);
    const LodPick b = pick_lod_hashed({d, 0.0f, 0.0f}, 0.5f, soft);
    EXPECT_EQ(a.lod, b.lod) << d;  // the band never changes the primary LOD
    EXPECT_FALSE(a.fading) << d;
    const bool in_band = (d > 8.0f && d < 10.0f) || (d > 16.0f && d < 20.0f);
    EXPECT_EQ(b.fading, in_band) << d;
  }
  EXPECT_EQ(pick_lod_hashed({20.1f, 0.0f, 0.0f}, 0.5f, soft).lod, 2u);  // beyond the draw distance
}

TEST(CpuCullFlat, MatchesFrustumIntersectsExactly) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> pos(-300.0f, 300.0f), rad(0.0f, 5.0f);
  const glm::dvec3 eye(0.0, 20.0, 0.0);
  for (int cam = 0; cam < 20; ++cam) {
    const Frustum f =
        Frustum::from_view_proj(test::relative_view_proj(eye, {pos(rng), 0.0, pos(rng)}, 400.0f));
    SphereArrays s;
    const std::size_t n = 5000 + std::size_t(cam) * 37;  // not a multiple of any block size
    for (std::size_t i = 0; i < n; ++i) {
      Sphere sp{{pos(rng), pos(rng) * 0.2f, pos(rng)}, rad(rng)};
      if (i % 7 == 0) {  // tangent to a plane: distance == -radius exactly in float
        const Plane& p = f.planes[i % 4];
        sp.radius = std::max(0.0f, -p.distance(sp.center));
      }
      s.push_back(sp);
    }
    std::vector<std::uint32_t> expect;
    for (std::size_t i = 0; i < n; ++i)
      if (f.intersects(Sphere{{s.x[i], s.y[i], s.z[i]}, s.r[i]})) expect.push_back(std::uint32_t(i));
    // Both loops (the AVX2 one runs where the CPU has it; elsewhere kAvx2 is the portable loop again).
    for (FlatCullPath path : {FlatCullPath::kPortable, FlatCullPath::kAvx2}) {
      std::vector<std::uint32_t> out(n);
      const std::size_t k =
          cull_spheres_flat(f, s.x.data(), s.y.data(), s.z.data(), s.r.data(), n, out.data(), path);
      out.resize(k);
      ASSERT_EQ(out, expect) << "path " << int(path);
    }
  }
}

TEST(CpuCullBatches, EveryVisibleInstanceExactlyOnceWithin1023) {
  std::mt19937 rng(3);  // 32-bit results
  auto next = [&] { return static_cast<std::uint32_t>(rng()); };
  std::vector<VisibleRange> visible;
  std::uint32_t first = 0;
  for (int i = 0; i < 500; ++i) {
    const std::uint32_t count = 1 + next() % 3000;
    first += next() % 50;
    visible.push_back({first, count, next() % 4u});
    first += count;
  }
  for (std::uint32_t limit : {kCompatBatchLimit, 0u}) {
    std::vector<VisibleRange> ranges;
    std::vector<Batch> batches;
    make_batches(visible, 4, limit, ranges, batches);
    std::vector<int> seen(first, 0), lod(first, -1);
    for (const auto& v : visible)
      for (std::uint32_t k = v.first; k < v.first + v.count; ++k) lod[k] = int(v.lod);
    for (const Batch& b : batches) {
      if (limit) {
        EXPECT_LE(b.instance_count, limit);
      }
      EXPECT_GT(b.instance_count, 0u);
      std::uint32_t n = 0;
      for (std::uint32_t r = b.first_range; r < b.first_range + b.range_count; ++r) {
        EXPECT_EQ(ranges[r].lod, b.lod);
        for (std::uint32_t k = ranges[r].first; k < ranges[r].first + ranges[r].count; ++k) {
          ++seen[k];
          EXPECT_EQ(lod[k], int(b.lod));
        }
        n += ranges[r].count;
      }
      EXPECT_EQ(n, b.instance_count);
    }
    for (std::uint32_t k = 0; k < first; ++k) ASSERT_EQ(seen[k], lod[k] >= 0 ? 1 : 0);
    if (!limit) {
      EXPECT_EQ(batches.size(), 4u);
    }
  }
}

}  // namespace
}  // namespace myriad::vegetation
