// Conventional greedy meshing (MeshMode::kConventional), the article's baseline for the surface atlas:
// it must draw exactly what the unmerged mesh draws (same faces, same light at every cell corner, same
// texture layers and tile variation, same diagonal where the light varies), never with more vertices, merge
// uniform flat areas into large quads and split where AO, light, textures or tile variation differ.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/mesh/shade.hpp"
#include "myriad/voxel/mesh/tile_variation.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#include "test_util.hpp"

namespace myriad::voxel {
namespace {

int face_of(std::uint32_t packed_normal) {
  for (int f = 0; f < kFaceCount; ++f)
    if (pack_octahedral(glm::vec3(face_direction(f))) == packed_normal) return f;
  return -1;
}

// One cell of a full face, in world coordinates: face, plane, the two in-plane cell coordinates (p, q).
using CellKey = std::tuple<int, int, int, int>;
struct CellShading {
  std::uint32_t light[4];  // at the cell's corners (p, q) = (0,0), (1,0), (0,1), (1,1)
  std::uint32_t tex01, tex23;
  int diagonal;  // 0: split through the corners (0,0)-(1,1) of (p, q), 1: the other pair, -1: uniform light
  bool operator==(const CellShading& o) const {
    return std::equal(light, light + 4, o.light) && tex01 == o.tex01 && tex23 == o.tex23 &&
           diagonal == o.diagonal;
  }
};

// The whole-face quads of the meshes (vertices [0, quad_vertices)), expanded into cells. Fails on atlas
// quads: both modes under test keep everything in the vertices.
std::map<CellKey, CellShading> face_cells(const World& w, const std::vector<SectionMesh>& meshes,
                                          std::size_t& quads) {
  std::map<CellKey, CellShading> cells;
  quads = 0;
  for (int s = 0; s < w.section_count(); ++s) {
    const SectionMesh& m = meshes[std::size_t(s)];
    const glm::ivec3 sec = w.section_coord(s);
    for (std::uint32_t v = 0; v < m.quad_vertices; v += 4) {
      ++quads;
      const TerrainVertex* q = &m.vertices[v];
      const int f = face_of(q[0].normal), a = face_axis(f), p = side_axis_p(f), qa = side_axis_q(f);
      EXPECT_GE(f, 0);
      EXPECT_NE(q[0].tex01 & 0xFFFFu, std::uint32_t(MYRIAD_VOXEL_ATLAS_MARKER));
      glm::ivec3 pos[4];
      for (int k = 0; k < 4; ++k) pos[k] = test::doubled(q[k], sec) / 2;
      glm::ivec3 lo = glm::min(glm::min(pos[0], pos[1]), glm::min(pos[2], pos[3]));
      glm::ivec3 hi = glm::max(glm::max(pos[0], pos[1]), glm::max(pos[2], pos[3]));
      const bool uniform = q[0].light == q[1].light && q[0].light == q[2].light && q[0].light == q[3].light;
      // Diagonal of the quad's triangles: index 2 is vertex 2 for the split 0-2, vertex 3 for 1-3.
      const std::uint32_t third = m.indices[std::size_t(v / 4 * 6 + 2)] - v;
      for (int i = lo[p]; i < hi[p]; ++i)
        for (int j = lo[qa]; j < hi[qa]; ++j) {
          CellShading c{};
          c.tex01 = q[0].tex01;
          c.tex23 = q[0].tex23;
          c.diagonal = -1;
          for (int corner = 0; corner < 4; ++corner) {
            glm::ivec3 at = lo;
            at[p] = i + (corner & 1);
            at[qa] = j + (corner >> 1);
            int match = -1;
            for (int k = 0; k < 4; ++k)
              if (pos[k] == at) match = k;
            // A merged quad carries one light: its inner lattice points have no vertex of their own.
            c.light[corner] = match >= 0 ? q[match].light : q[0].light;
            if (match < 0) {
              EXPECT_TRUE(uniform) << "a merged quad whose corners differ";
            }
          }
          if (!uniform) {
            // The split joins quad vertices 0-2 or 1-3; record whether they are (0,0)-(1,1) in (p, q).
            const glm::ivec3 a0 = third == 3 ? pos[1] : pos[0], a1 = third == 3 ? pos[3] : pos[2];
            const bool main =
                (a0[p] == lo[p]) == (a0[qa] == lo[qa]) && (a1[p] == lo[p]) == (a1[qa] == lo[qa]);
            c.diagonal = main ? 0 : 1;
          }
          const CellKey key{f, lo[a], i, j};
          EXPECT_EQ(cells.count(key), 0u) << "a cell face covered twice";
          cells[key] = c;
        }
    }
  }
  return cells;
}

// Conventional and unmerged meshes of `w`: same cells, same shading, the same loose polygons, and
// no more vertices (fewer when `merges` is set).
void expect_same_surface(const World& w, const char* what, bool merges, bool variation) {
  WorldMesher mesher;
  std::vector<SectionMesh> conventional, unmerged;
  mesher.mesh_all(w, {.mode = MeshMode::kConventional, .tile_variation = variation}, conventional);
  mesher.mesh_all(w, {.mode = MeshMode::kUnmerged, .tile_variation = variation}, unmerged);
  std::size_t conventional_quads = 0, unmerged_quads = 0;
  const auto a = face_cells(w, conventional, conventional_quads);
  const auto b = face_cells(w, unmerged, unmerged_quads);
  EXPECT_EQ(a.size(), b.size()) << what;
  EXPECT_EQ(b.size(), unmerged_quads) << what;
  for (const auto& [key, shading] : b) {
    const auto it = a.find(key);
    ASSERT_NE(it, a.end()) << what << ": cell missing";
    ASSERT_TRUE(it->second == shading)
        << what << ": face " << std::get<0>(key) << " plane " << std::get<1>(key) << " cell "
        << std::get<2>(key) << "," << std::get<3>(key);
  }
  std::size_t vertices_a = 0, vertices_b = 0;
  for (int s = 0; s < w.section_count(); ++s) {
    const SectionMesh& x = conventional[std::size_t(s)];
    const SectionMesh& y = unmerged[std::size_t(s)];
    EXPECT_TRUE(x.atlas.empty() && y.atlas.empty());
    EXPECT_LE(x.vertices.size(), y.vertices.size());
    vertices_a += x.vertices.size();
    vertices_b += y.vertices.size();
    // Triangles and slopes are emitted alike, after the quads.
    ASSERT_EQ(x.vertices.size() - x.quad_vertices, y.vertices.size() - y.quad_vertices) << what;
    for (std::size_t i = 0; i < x.vertices.size() - x.quad_vertices; ++i) {
      const TerrainVertex& vx = x.vertices[x.quad_vertices + i];
      const TerrainVertex& vy = y.vertices[y.quad_vertices + i];
      ASSERT_TRUE(vx.px == vy.px && vx.py == vy.py && vx.pz == vy.pz && vx.normal == vy.normal &&
                  vx.light == vy.light && vx.tex01 == vy.tex01 && vx.tex23 == vy.tex23)
          << what;
    }
  }
  EXPECT_LE(vertices_a, vertices_b) << what;
  if (merges) {
    EXPECT_LT(vertices_a * 10, vertices_b * 9) << what << ": merging must pay off";
    EXPECT_LT(conventional_quads, unmerged_quads) << what;
  }
}

TEST(Conventional, DrawsWhatTheUnmergedMeshDraws) {
  for (const std::uint64_t seed : {1u, 5u}) {
    GeneratorParams params;
    params.seed = seed;
    World w = generate_world({64, 48, 64}, params);
    compute_light(w);
    // Without tile variation uniform areas merge; with it cells merge only where their transforms agree
    // (a conventional mesh must draw what its cells draw), which is rarely: the same surface, hardly fewer
    // vertices.
    expect_same_surface(w, "generated world", true, false);
    expect_same_surface(w, "generated world, tile variation", false, true);
  }
  // All 256 shapes and random light levels: many loose polygons and little uniform shading.
  World r = test::random_world({32, 32, 32}, 3, 0.5);
  std::mt19937 rng(9);
  for (Light16& l : r.lights()) l = Light16(rng() & 0xFFFF);
  expect_same_surface(r, "random world", false, true);
}

// A 16 x 16 floor (y = 0) under air in full sun; `count_floor_quads` counts the +Y quads on y = 1.
World floor_world() {
  World w(16, 16, 16);
  for (int z = 0; z < 16; ++z)
    for (int x = 0; x < 16; ++x) w.set_voxel({x, 0, z}, kStone, kFormFull);
  for (std::size_t i = 0; i < w.lights().size(); ++i)
    w.lights()[i] = w.materials()[i] == kAir ? make_light16(0, 0, 0, 15) : 0;
  return w;
}

struct FloorQuads {
  int quads = 0, single = 0;
  std::vector<std::array<int, 4>> rects;  // x0, z0, x1, z1 of merged quads
};

// Tile variation off unless asked for: the split rules of light, AO and textures are what these tests see
// (with it, cells whose tiles turn differently never merge).
FloorQuads floor_quads(const World& w, MeshMode mode, bool variation = false) {
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(w, {.mode = mode, .tile_variation = variation}, meshes);
  FloorQuads out;
  const SectionMesh& m = meshes[0];
  for (std::uint32_t v = 0; v < m.quad_vertices; v += 4) {
    if (m.vertices[v].normal != pack_octahedral({0, 1, 0}) || m.vertices[v].py != 1.0f) continue;
    float x0 = 99, z0 = 99, x1 = -1, z1 = -1;
    for (std::uint32_t k = 0; k < 4; ++k) {
      x0 = std::min(x0, m.vertices[v + k].px), x1 = std::max(x1, m.vertices[v + k].px);
      z0 = std::min(z0, m.vertices[v + k].pz), z1 = std::max(z1, m.vertices[v + k].pz);
    }
    ++out.quads;
    if (x1 - x0 == 1.0f && z1 - z0 == 1.0f)
      ++out.single;
    else
      out.rects.push_back({int(x0), int(z0), int(x1), int(z1)});
  }
  return out;
}

TEST(Conventional, MergesAUniformFloorIntoOneQuad) {
  const World w = floor_world();
  const FloorQuads c = floor_quads(w, MeshMode::kConventional);
  EXPECT_EQ(c.quads, 1);
  ASSERT_EQ(c.rects.size(), 1u);
  EXPECT_EQ(c.rects[0], (std::array<int, 4>{0, 0, 16, 16}));
  EXPECT_EQ(floor_quads(w, MeshMode::kUnmerged).quads, 256);
}

// One cube on the floor at (8, 1, 8): AO darkens one or two corners of its 8 neighbour cells, which stay
// single quads; rows z 0..6, then x 0..6 and x 10..15 of z 7..15, then x 7..9 of z 10..15 merge.
TEST(Conventional, SplitsWhereAoDiffers) {
  World w = floor_world();
  w.set_voxel({8, 1, 8}, kStone, kFormFull);
  w.lights()[w.index({8, 1, 8})] = 0;
  const FloorQuads c = floor_quads(w, MeshMode::kConventional);
  EXPECT_EQ(c.single, 8);
  EXPECT_EQ(c.quads, 12);
  std::vector<std::array<int, 4>> expected = {{0, 0, 16, 7}, {0, 7, 7, 16}, {10, 7, 16, 16}, {7, 10, 10, 16}};
  std::sort(expected.begin(), expected.end());
  std::vector<std::array<int, 4>> got = c.rects;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
}

// Red lamp light 6 in the air above x 4..11: the columns x = 3, 4, 11, 12 have corners that average lit
// and unlit cells (single quads), so do the cells of x 5..10 on the world's z borders (outside the world
// has no lamp light). Left: x 0..2, lit middle: x 5..10 by z 1..14, right: x 13..15.
TEST(Conventional, SplitsWhereLightDiffers) {
  World w = floor_world();
  for (int z = 0; z < 16; ++z)
    for (int x = 4; x < 12; ++x) w.lights()[w.index({x, 1, z})] = make_light16(6, 0, 0, 15);
  const FloorQuads c = floor_quads(w, MeshMode::kConventional);
  EXPECT_EQ(c.single, 4 * 16 + 2 * 6);
  std::vector<std::array<int, 4>> expected = {{0, 0, 3, 16}, {5, 1, 11, 15}, {13, 0, 16, 16}};
  std::vector<std::array<int, 4>> got = c.rects;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(c.quads, 3 + 4 * 16 + 2 * 6);
}

// Stone for x < 8, sand for x >= 8: the column on the lower-priority side of the border carries a
// transition layer. Three quads, none crossing a change of texture layers.
TEST(Conventional, SplitsWhereTexturesDiffer) {
  World w = floor_world();
  for (int z = 0; z < 16; ++z)
    for (int x = 8; x < 16; ++x) w.set_voxel({x, 0, z}, kSand, kFormFull);
  const FloorQuads c = floor_quads(w, MeshMode::kConventional);
  EXPECT_EQ(c.quads, 3);
  EXPECT_EQ(c.single, 0);
  const bool sand_on_top = materials()[kSand].priority > materials()[kStone].priority;
  std::vector<std::array<int, 4>> expected =
      sand_on_top ? std::vector<std::array<int, 4>>{{0, 0, 7, 16}, {7, 0, 8, 16}, {8, 0, 16, 16}}
                  : std::vector<std::array<int, 4>>{{0, 0, 8, 16}, {8, 0, 9, 16}, {9, 0, 16, 16}};
  std::vector<std::array<int, 4>> got = c.rects;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  // The atlas path merges the whole floor regardless of textures.
  EXPECT_EQ(floor_quads(w, MeshMode::kAtlas).quads, 1);
}

// With tile variation, a uniform floor merges only cells whose transforms agree: every merged quad's cells
// have one transform (and the atlas path still merges the whole floor, the transform being per record).
TEST(Conventional, SplitsWhereTileVariationDiffers) {
  const World w = floor_world();
  const FloorQuads c = floor_quads(w, MeshMode::kConventional, true);
  EXPECT_GT(c.quads, 100) << "about 7 in 8 cells differ from a neighbour";
  EXPECT_LT(c.quads, 256);
  for (const std::array<int, 4>& r : c.rects) {
    const std::uint32_t first = cell_uv_transform(materials()[kStone], kPosY, {r[0], 0, r[1]});
    for (int z = r[1]; z < r[3]; ++z)
      for (int x = r[0]; x < r[2]; ++x)
        EXPECT_EQ(cell_uv_transform(materials()[kStone], kPosY, {x, 0, z}), first) << x << "," << z;
  }
  EXPECT_EQ(floor_quads(w, MeshMode::kAtlas, true).quads, 1);
}

}  // namespace
}  // namespace myriad::voxel
