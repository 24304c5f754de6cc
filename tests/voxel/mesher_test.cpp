// Mesher geometry: closed surfaces across section borders for random worlds of all 256 shapes, enclosed
// volume, greedy coverage equal to the unmerged mesh, and AO against the 0fps formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <random>
#include <unordered_map>

#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/mesh/padded.hpp"
#include "myriad/voxel/mesh/shade.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#include "test_util.hpp"

namespace myriad::voxel {
namespace {

using test::Tri;

std::vector<Tri> mesh_triangles(const World& w, MeshMode mode, bool bottom = true) {
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(w, {mode, bottom}, meshes);
  std::vector<Tri> tris;
  for (int s = 0; s < w.section_count(); ++s)
    test::append_triangles(meshes[std::size_t(s)], w.section_coord(s), tris);
  return tris;
}

std::uint64_t point_key(glm::ivec3 p) {
  return std::uint64_t(p.x + 1024) | std::uint64_t(p.y + 1024) << 21 | std::uint64_t(p.z + 1024) << 42;
}

// Every directed edge, split into steps between consecutive half-lattice points (so T-junctions of merged
// quads and centre vertices line up), must be matched by the same step in the other direction.
void expect_closed(const std::vector<Tri>& tris) {
  std::unordered_map<std::uint64_t, std::unordered_map<std::uint64_t, int>> balance;
  auto add = [&](glm::ivec3 a, glm::ivec3 b) {
    const glm::ivec3 d = b - a;
    const int n = std::gcd(std::abs(d.x), std::gcd(std::abs(d.y), std::abs(d.z)));
    ASSERT_GT(n, 0) << "degenerate edge";
    const glm::ivec3 step = d / n;
    for (int i = 0; i < n; ++i) {
      const glm::ivec3 p = a + step * i, q = p + step;
      const std::uint64_t kp = point_key(p), kq = point_key(q);
      if (kp < kq)
        balance[kp][kq] += 1;
      else
        balance[kq][kp] -= 1;
    }
  };
  for (const Tri& t : tris) {
    add(t.a, t.b);
    add(t.b, t.c);
    add(t.c, t.a);
  }
  int open = 0;
  for (const auto& [from, m] : balance)
    for (const auto& [to, n] : m) open += n != 0;
  EXPECT_EQ(open, 0) << "unmatched edge steps";
}

double enclosed_volume(const std::vector<Tri>& tris) {
  double v6 = 0.0;
  for (const Tri& t : tris)
    v6 += double(glm::dot(glm::dvec3(t.a), glm::cross(glm::dvec3(t.b), glm::dvec3(t.c))));
  return v6 / 6.0 / 8.0;  // doubled coordinates
}

double solid_volume(const World& w) {
  double v = 0.0;
  for (std::size_t i = 0; i < w.forms().size(); ++i)
    if (w.materials()[i] != kAir) v += double(shape_lut().shapes[w.forms()[i]].volume);
  return v;
}

TEST(Mesher, RandomWorldsOfAllShapesAreClosedAcrossSectionBorders) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    const World w = test::random_world({32, 32, 48}, seed, 0.3 + 0.15 * seed);
    for (const MeshMode mode : {MeshMode::kUnmerged, MeshMode::kAtlas, MeshMode::kConventional}) {
      const std::vector<Tri> tris = mesh_triangles(w, mode);
      ASSERT_FALSE(tris.empty());
      expect_closed(tris);
      EXPECT_NEAR(enclosed_volume(tris), solid_volume(w), 1e-3) << "seed " << seed << " mode " << int(mode);
    }
  }
}

// The box the mesher writes beside the vertices is theirs exactly (a renderer places the section by it
// without reading the vertices), in every mode, and a mesh reused for an empty section carries none.
TEST(Mesher, EachMeshCarriesItsVerticesBox) {
  const World w = test::random_world({32, 32, 48}, 7, 0.45);
  for (const MeshMode mode : {MeshMode::kUnmerged, MeshMode::kAtlas, MeshMode::kConventional}) {
    WorldMesher mesher;
    std::vector<SectionMesh> meshes;
    mesher.mesh_all(w, {mode, true}, meshes);
    int measured = 0;
    for (const SectionMesh& m : meshes) {
      ASSERT_EQ(m.has_bounds, !m.vertices.empty());
      if (m.vertices.empty()) continue;
      std::array<float, 3> lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
      for (const TerrainVertex& v : m.vertices) {
        lo = {std::min(lo[0], v.px), std::min(lo[1], v.py), std::min(lo[2], v.pz)};
        hi = {std::max(hi[0], v.px), std::max(hi[1], v.py), std::max(hi[2], v.pz)};
      }
      EXPECT_EQ(m.bounds_min, lo);
      EXPECT_EQ(m.bounds_max, hi);
      ++measured;
    }
    EXPECT_GT(measured, 4) << int(mode);
  }
  World empty(16, 16, 16);
  empty.set_voxel({3, 4, 5}, kStone, kFormFull);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(empty, {}, meshes);
  ASSERT_TRUE(meshes[0].has_bounds);
  EXPECT_EQ(meshes[0].bounds_min, (std::array<float, 3>{3.0f, 4.0f, 5.0f}));
  EXPECT_EQ(meshes[0].bounds_max, (std::array<float, 3>{4.0f, 5.0f, 6.0f}));
  empty.set_voxel({3, 4, 5}, kAir, kFormFull);
  mesher.mesh_all(empty, {}, meshes);
  EXPECT_FALSE(meshes[0].has_bounds);
}

TEST(Mesher, MergedSlopeRunsStayClosed) {
  World w(32, 16, 32);
  const std::uint8_t ramp_x = 0x0F | 1u << kCornerX0Y1Z0 | 1u << kCornerX0Y1Z1;  // slope rows along z
  const std::uint8_t ramp_z = 0x0F | 1u << kCornerX0Y1Z1 | 1u << kCornerX1Y1Z1;  // slope rows along x
  for (int z = 0; z < 32; ++z)
    for (int x = 0; x < 32; ++x) {
      w.set_voxel({x, 0, z}, kStone, kFormFull);
      if ((x / 5 + z / 7) % 3 == 0) w.set_voxel({x, 1, z}, kDirt, ramp_x);
      if ((x / 5 + z / 7) % 3 == 1) w.set_voxel({x, 1, z}, kSand, ramp_z);
    }
  const std::vector<Tri> merged = mesh_triangles(w, MeshMode::kAtlas),
                         unmerged = mesh_triangles(w, MeshMode::kUnmerged);
  expect_closed(merged);
  EXPECT_NEAR(enclosed_volume(merged), solid_volume(w), 1e-3);
  EXPECT_NEAR(enclosed_volume(unmerged), solid_volume(w), 1e-3);
  EXPECT_LT(merged.size() * 4, unmerged.size());
}

TEST(Mesher, EmptyAndSingleCube) {
  World w(16, 16, 16);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(w, {}, meshes);
  EXPECT_TRUE(meshes[0].vertices.empty());
  w.set_voxel({3, 4, 5}, kStone, kFormFull);
  mesher.mesh_all(w, {}, meshes);
  EXPECT_EQ(meshes[0].vertices.size(), 24u);
  EXPECT_EQ(meshes[0].indices.size(), 36u);
  EXPECT_TRUE(meshes[0].atlas.empty()) << "single quads carry their data in the vertices";
  // A 4 x 1 x 3 slab: 6 greedy quads, atlas records for every covered cell.
  World s(16, 16, 16);
  for (int x = 0; x < 4; ++x)
    for (int z = 0; z < 3; ++z) s.set_voxel({x, 2, z}, kStone, kFormFull);
  mesher.mesh_all(s, {}, meshes);
  EXPECT_EQ(meshes[0].vertices.size(), 24u);
  EXPECT_EQ(meshes[0].atlas.size(), std::size_t(2 * 12 + 2 * 4 + 2 * 3));
  mesher.mesh_all(s, {MeshMode::kUnmerged}, meshes);
  EXPECT_EQ(meshes[0].vertices.size(), std::size_t(4 * (2 * 12 + 2 * 4 + 2 * 3)));
}

// Coverage of axis-aligned triangles, sampled at one point inside each quarter of each cell face.
using Coverage = std::map<std::tuple<int, int, int, int, int>, int>;  // dir, plane, a, b, quarter -> count

Coverage plane_coverage(const std::vector<Tri>& tris) {
  Coverage cov;
  const double off[4][2] = {{0.2113, 0.5}, {0.7887, 0.5}, {0.5, 0.2113}, {0.5, 0.7887}};
  for (const Tri& t : tris) {
    const glm::ivec3 n = glm::ivec3(glm::cross(glm::vec3(t.b - t.a), glm::vec3(t.c - t.a)));
    const int nonzero = (n.x != 0) + (n.y != 0) + (n.z != 0);
    if (nonzero != 1) continue;
    const int axis = n.x ? 0 : n.y ? 1 : 2;
    const int dir = axis * 2 + (n[axis] > 0);
    const int p = (axis + 1) % 3, q = (axis + 2) % 3;
    const glm::dvec2 a(t.a[p] / 2.0, t.a[q] / 2.0), b(t.b[p] / 2.0, t.b[q] / 2.0),
        c(t.c[p] / 2.0, t.c[q] / 2.0);
    const glm::dvec2 lo = glm::min(a, glm::min(b, c)), hi = glm::max(a, glm::max(b, c));
    auto edge = [](glm::dvec2 u, glm::dvec2 v, glm::dvec2 x) {
      return (v.x - u.x) * (x.y - u.y) - (v.y - u.y) * (x.x - u.x);
    };
    const double area = edge(a, b, c);
    for (int i = int(std::floor(lo.x)); i < int(std::ceil(hi.x)); ++i)
      for (int j = int(std::floor(lo.y)); j < int(std::ceil(hi.y)); ++j)
        for (int k = 0; k < 4; ++k) {
          const glm::dvec2 x(i + off[k][0], j + off[k][1]);
          const double e0 = edge(a, b, x), e1 = edge(b, c, x), e2 = edge(c, a, x);
          const bool inside = area > 0 ? (e0 > 0 && e1 > 0 && e2 > 0) : (e0 < 0 && e1 < 0 && e2 < 0);
          if (inside) cov[{dir, t.a[axis], i, j, k}] += 1;
        }
  }
  return cov;
}

TEST(Mesher, GreedyMergeCoversExactlyTheUnmergedCells) {
  const World w = test::random_world({32, 32, 32}, 11, 0.5);
  const Coverage merged = plane_coverage(mesh_triangles(w, MeshMode::kAtlas));
  const Coverage unmerged = plane_coverage(mesh_triangles(w, MeshMode::kUnmerged));
  EXPECT_EQ(merged, unmerged);
  for (const auto& [k, n] : merged) ASSERT_EQ(n, 1) << "overlapping faces";
  EXPECT_EQ(plane_coverage(mesh_triangles(w, MeshMode::kConventional)), unmerged);
  // And merging pays off on a world of cubes.
  World cubes(32, 32, 32);
  for (int y = 0; y < 10; ++y)
    for (int z = 0; z < 32; ++z)
      for (int x = 0; x < 32; ++x) cubes.set_voxel({x, y, z}, std::uint8_t(kStone + (x + z) % 3), kFormFull);
  EXPECT_EQ(plane_coverage(mesh_triangles(cubes, MeshMode::kAtlas)),
            plane_coverage(mesh_triangles(cubes, MeshMode::kUnmerged)));
  EXPECT_LT(mesh_triangles(cubes, MeshMode::kAtlas).size() * 20,
            mesh_triangles(cubes, MeshMode::kUnmerged).size());
}

// Blocks without cut shapes take the all-cube path of cull_and_merge (no partial rows, X faces transposed
// per layer). It must give exactly the quads of the general path, and exactly the brute-force visible faces.
TEST(Mesher, AllCubeFastPathEqualsTheGeneralPath) {
  std::mt19937 rng(5);
  MeshScratch fast, general;
  PaddedBlock block;
  for (int trial = 0; trial < 60; ++trial) {
    const unsigned density = 1 + unsigned(rng() % 7);  // eighths of the cells that are cubes
    for (std::size_t i = 0; i < block.form.size(); ++i) {
      const bool cube = rng() % 8 < density;
      block.form[i] = cube ? kFormFull : kFormEmpty;
      block.material[i] = cube ? kStone : kAir;
      block.light[i] = 0;
    }
    for (const MeshMode mode : {MeshMode::kAtlas, MeshMode::kUnmerged}) {
      cull_and_merge(block, fast, mode);
      ASSERT_TRUE(fast.partial_cells.empty());
      ASSERT_TRUE(fast.loose.empty());
      // A cut shape in a corner of the shell touches no inner cell, so the faces cannot change; it sends
      // the same block down the general path.
      PaddedBlock with_corner = block;
      with_corner.form[0] = 0x7F;  // one cut corner
      with_corner.material[0] = kStone;
      cull_and_merge(with_corner, general, mode);
      ASSERT_EQ(general.partial_cells.size(), 1u);
      ASSERT_EQ(fast.quads.size(), general.quads.size()) << "trial " << trial;
      for (std::size_t q = 0; q < fast.quads.size(); ++q) {
        const MeshQuad& a = fast.quads[q];
        const MeshQuad& b = general.quads[q];
        ASSERT_TRUE(a.face == b.face && a.layer == b.layer && a.row == b.row && a.bit == b.bit &&
                    a.len == b.len && a.height == b.height)
            << "trial " << trial << " quad " << q;
      }
      // Brute force: a cube face is visible when the cell across it is empty.
      std::vector<int> covered(kFaceCount * kSectionCells, 0);
      for (const MeshQuad& q : fast.quads) {
        const int a = face_axis(q.face);
        const int row_axis = a == 1 ? 2 : 1, bit_axis = a == 0 ? 2 : 0;
        for (int r = 0; r < q.height; ++r)
          for (int k = 0; k < q.len; ++k) {
            glm::ivec3 c;
            c[a] = q.layer;
            c[row_axis] = q.row + r;
            c[bit_axis] = q.bit + k;
            ++covered[std::size_t(q.face * kSectionCells + cell_index(c.x, c.y, c.z))];
          }
      }
      for (int f = 0; f < kFaceCount; ++f)
        for (int y = 0; y < kSectionSize; ++y)
          for (int z = 0; z < kSectionSize; ++z)
            for (int x = 0; x < kSectionSize; ++x) {
              const glm::ivec3 p = glm::ivec3(x, y, z) + 1;
              const bool visible = block.form[std::size_t(pad_index(p))] == kFormFull &&
                                   block.form[std::size_t(pad_index(p + face_direction(f)))] == kFormEmpty;
              ASSERT_EQ(covered[std::size_t(f * kSectionCells + cell_index(x, y, z))], visible ? 1 : 0)
                  << "face " << f << " cell " << x << "," << y << "," << z;
            }
    }
  }
}

TEST(Mesher, BuriedSectionsAndTheWorldBottom) {
  World w(48, 48, 48);
  for (std::size_t i = 0; i < w.materials().size(); ++i) {
    w.materials()[i] = kStone;
    w.forms()[i] = kFormFull;
  }
  w.set_voxel({20, 47, 20}, kAir, 0);
  EXPECT_TRUE(section_is_buried(w, {1, 1, 1}, false));
  EXPECT_FALSE(section_is_buried(w, {1, 2, 1}, false));
  EXPECT_FALSE(section_is_buried(w, {1, 0, 1}, false)) << "air below the world";
  EXPECT_TRUE(section_is_buried(w, {1, 0, 1}, true)) << "solid ground below the world";
  const std::vector<Tri> closed = mesh_triangles(w, MeshMode::kAtlas, true);
  expect_closed(closed);
  EXPECT_NEAR(enclosed_volume(closed), solid_volume(w), 1e-3);
  // Without bottom faces: the same surface minus the 48 x 48 bottom.
  const Coverage with = plane_coverage(closed),
                 without = plane_coverage(mesh_triangles(w, MeshMode::kAtlas, false));
  std::size_t bottom = 0;
  for (const auto& [k, n] : with) bottom += std::get<0>(k) == kNegY && std::get<1>(k) == 0;
  EXPECT_EQ(bottom, 48u * 48u * 4u);
  EXPECT_EQ(with.size() - without.size(), bottom);
}

// Full cubes (occlusion 0 or 4 quarters) give four times the 0fps level.
TEST(Ao, FormulaFrom0fps) {
  auto level = [](bool s1, bool s2, bool c) { return vertex_ao(0, 4 * s1, 4 * s2, 4 * c); };
  EXPECT_EQ(level(false, false, false), 4 * 3);
  EXPECT_EQ(level(true, false, false), 4 * 2);
  EXPECT_EQ(level(false, true, false), 4 * 2);
  EXPECT_EQ(level(false, false, true), 4 * 2);
  EXPECT_EQ(level(true, false, true), 4 * 1);
  EXPECT_EQ(level(false, true, true), 4 * 1);
  EXPECT_EQ(level(true, true, false), 0);
  EXPECT_EQ(level(true, true, true), 0);
  // Partial occluders: two half-filled sides hide a quarter of the corner; the sum clamps at 0.
  EXPECT_EQ(vertex_ao(0, 2, 2, 0), 12 - 2 - 2 - 1);
  EXPECT_EQ(vertex_ao(0, 2, 0, 3), 12 - 2 - 3);
  EXPECT_EQ(vertex_ao(4, 4, 4, 4), 0);
  // The level depends on the four cells only: any of them may be the front (the diagonals swap roles),
  // and the table the hot loops use holds the same values.
  for (int f = 0; f <= 4; ++f)
    for (int s1 = 0; s1 <= 4; ++s1)
      for (int s2 = 0; s2 <= 4; ++s2)
        for (int c = 0; c <= 4; ++c) {
          const int ao = vertex_ao(f, s1, s2, c);
          ASSERT_EQ(vertex_ao(s1, f, c, s2), ao);
          ASSERT_EQ(vertex_ao(c, s2, s1, f), ao);
          ASSERT_EQ(vertex_ao(f, s2, s1, c), ao);
          ASSERT_EQ(lookup_ao(f, s1, s2, c), ao);
          ASSERT_GE(ao, 0);
          ASSERT_LE(ao, kAoLevels);
        }
}

// A floor cell with random full cubes in the 8 cells around the cell above it; uniform sun 15 in air.
TEST(Ao, TopFaceMatchesHandBuiltNeighbourhoods) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    World w(16, 16, 16);
    for (int z = 0; z < 16; ++z)
      for (int x = 0; x < 16; ++x) w.set_voxel({x, 4, z}, kStone, kFormFull);
    bool occ[3][3] = {};
    for (int dz = -1; dz <= 1; ++dz)
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx || dz) && rng() % 2) {
          occ[dx + 1][dz + 1] = true;
          w.set_voxel({8 + dx, 5, 8 + dz}, kDirt, kFormFull);
        }
      }
    for (std::size_t i = 0; i < w.lights().size(); ++i)
      w.lights()[i] = w.materials()[i] == kAir ? make_light16(0, 0, 0, 15) : 0;
    WorldMesher mesher;
    std::vector<SectionMesh> meshes;
    mesher.mesh_all(w, {MeshMode::kUnmerged}, meshes);
    const SectionMesh& m = meshes[0];
    bool found = false;
    for (std::uint32_t v = 0; v < m.quad_vertices; v += 4) {
      const TerrainVertex& v0 = m.vertices[v];
      if (v0.normal != pack_octahedral({0, 1, 0}) || v0.py != 5.0f) continue;
      const float minx = std::min({m.vertices[v].px, m.vertices[v + 1].px, m.vertices[v + 2].px});
      const float minz = std::min({m.vertices[v].pz, m.vertices[v + 1].pz, m.vertices[v + 2].pz});
      if (minx != 8.0f || minz != 8.0f) continue;
      found = true;
      int ao[4];
      for (int k = 0; k < 4; ++k) {
        const TerrainVertex& vk = m.vertices[v + std::uint32_t(k)];
        const int sx = vk.px > 8.5f ? 1 : -1, sz = vk.pz > 8.5f ? 1 : -1;
        const bool s1 = occ[1 + sx][1], s2 = occ[1][1 + sz], c = occ[1 + sx][1 + sz];
        const int expected = (s1 && s2) ? 0 : 3 - (s1 + s2 + c);
        ao[k] = expected;
        const int sun = int(unpack_light(vk.light).sun);
        EXPECT_EQ(sun, (2 * 15 * 17 * (expected + 2) + 5) / 10) << "trial " << trial << " corner " << k;
      }
      // 0fps diagonal: the split runs between the pair of corners with the larger AO sum (ties: 0-2).
      const std::uint32_t i2 = m.indices[std::size_t(v / 4 * 6 + 2)] - v;
      EXPECT_EQ(i2 == 3, ao[1] + ao[3] > ao[0] + ao[2]) << "trial " << trial;
    }
    ASSERT_TRUE(found);
  }
}

}  // namespace
}  // namespace myriad::voxel
