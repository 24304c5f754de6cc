// Per-cell tile variation (mesh/tile_variation.hpp): the transforms are the eight symmetries of the square,
// the mesher writes each cell side's transform from its world cell (atlas records and plain polygons
// alike), only tiles that may turn are turned (grass and snow sides only mirror), and switching it off
// changes nothing but those bits.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/shade.hpp"
#include "myriad/voxel/mesh/tile_variation.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#include "test_util.hpp"

namespace myriad::voxel {
namespace {

using test::kVariationBits;
using test::plain_uv;
using test::record_uv;
constexpr std::uint32_t kMetaVariationBits = MYRIAD_VOXEL_UV_TRANSFORM_MASK << MYRIAD_VOXEL_META_UV_SHIFT;
std::uint32_t plain_uv(const TerrainVertex& v) { return test::plain_uv(v.tex01); }

World generated(std::uint64_t seed) {
  GeneratorParams params;
  params.seed = seed;
  World w = generate_world({64, 64, 64}, params);
  compute_light(w);
  return w;
}

// Every whole-face cell of the meshes (plain quads and atlas records): (face, world cell) -> transform.
std::map<std::pair<int, std::array<int, 3>>, std::uint32_t> cell_transforms(
    const World& w, const std::vector<SectionMesh>& meshes) {
  std::map<std::pair<int, std::array<int, 3>>, std::uint32_t> out;
  for (int s = 0; s < w.section_count(); ++s) {
    const SectionMesh& m = meshes[std::size_t(s)];
    for (std::uint32_t v = 0; v < m.quad_vertices; v += 4) {
      const TerrainVertex* q = &m.vertices[v];
      const int face = test::quad_face(q);
      const glm::ivec3 c0 = test::cell_of_corner0(q[0], face, w.section_coord(s));
      if ((q[0].tex01 & 0xFFFFu) != MYRIAD_VOXEL_ATLAS_MARKER) {
        out[{face, {c0.x, c0.y, c0.z}}] = plain_uv(q[0]);
        continue;
      }
      const int width = int(q[0].tex23 & 0xFF), height = int(q[0].tex23 >> 8 & 0xFF);
      for (int j = 0; j < height; ++j)
        for (int i = 0; i < width; ++i) {
          glm::ivec3 c = c0;
          c[quad_axis_u(face)] += i;
          c[quad_axis_v(face)] += j;
          out[{face, {c.x, c.y, c.z}}] = record_uv(m.atlas[q[0].light + std::uint32_t(j * width + i)]);
        }
    }
  }
  return out;
}

TEST(TileVariation, TransformsAreTheEightSymmetriesOfTheSquare) {
  for (const std::uint32_t size : {2u, 4u, 16u}) {
    std::set<std::vector<std::uint32_t>> maps;
    for (std::uint32_t t = 0; t < kUvTransforms; ++t) {
      std::vector<std::uint32_t> image;
      std::set<std::uint32_t> hit;
      for (std::uint32_t y = 0; y < size; ++y)
        for (std::uint32_t x = 0; x < size; ++x) {
          const glm::uvec2 p = transform_texel({x, y}, size, t);
          ASSERT_LT(p.x, size);
          ASSERT_LT(p.y, size);
          image.push_back(p.y * size + p.x);
          hit.insert(p.y * size + p.x);
          if (t == 0) {
            EXPECT_EQ(p, glm::uvec2(x, y));
          }
          // Four quarter turns, or two mirrors, are the identity.
          glm::uvec2 q{x, y};
          for (int k = 0; k < 4; ++k) q = transform_texel(q, size, 1);
          EXPECT_EQ(q, glm::uvec2(x, y));
          EXPECT_EQ(transform_texel(transform_texel({x, y}, size, kUvMirrorU), size, kUvMirrorU),
                    glm::uvec2(x, y));
        }
      EXPECT_EQ(hit.size(), std::size_t(size) * size) << "transform " << t << " is a bijection";
      maps.insert(image);
    }
    EXPECT_EQ(maps.size(), std::size_t(kUvTransforms)) << "eight different transforms at size " << size;
  }
}

TEST(TileVariation, MesherWritesEachCellsTransformFromItsWorldCell) {
  const World w = generated(3);
  WorldMesher mesher;
  for (const MeshMode mode : {MeshMode::kAtlas, MeshMode::kUnmerged, MeshMode::kConventional}) {
    std::vector<SectionMesh> meshes;
    mesher.mesh_all(w, {.mode = mode}, meshes);
    const auto cells = cell_transforms(w, meshes);
    ASSERT_GT(cells.size(), 5000u);
    std::size_t wrong = 0;
    for (const auto& [key, transform] : cells) {
      const glm::ivec3 c(key.second[0], key.second[1], key.second[2]);
      const std::uint32_t expected = cell_uv_transform(materials()[w.material(c)], key.first, c);
      wrong += transform != expected;
    }
    EXPECT_EQ(wrong, 0u) << "mode " << int(mode);
  }
  // The same bytes again: the transform depends on nothing but the cell.
  std::vector<SectionMesh> a, b;
  mesher.mesh_all(w, {}, a);
  mesher.mesh_all(w, {}, b);
  for (std::size_t s = 0; s < a.size(); ++s) {
    ASSERT_EQ(a[s].atlas.size(), b[s].atlas.size());
    for (std::size_t r = 0; r < a[s].atlas.size(); ++r) EXPECT_EQ(a[s].atlas[r].meta, b[s].atlas[r].meta);
  }
}

// Grass sides keep their band on top: they are mirrored, never turned. Every other tile (stone, dirt,
// sand, the grass top, ...) takes all eight transforms, about equally often.
TEST(TileVariation, OnlyTilesThatMayTurnAreTurned) {
  const World w = generated(5);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(w, {.mode = MeshMode::kUnmerged}, meshes);
  std::map<std::pair<std::uint8_t, bool>, std::array<int, kUvTransforms>> counts;  // (material, side) ->
  for (const auto& [key, transform] : cell_transforms(w, meshes)) {
    const glm::ivec3 c(key.second[0], key.second[1], key.second[2]);
    counts[{w.material(c), face_axis(key.first) != 1}][transform] += 1;
  }
  const auto& grass_side = counts[{kGrass, true}];
  ASSERT_GT(grass_side[0] + grass_side[kUvMirrorU], 50);
  for (std::uint32_t t = 0; t < kUvTransforms; ++t) {
    if (t == 0 || t == kUvMirrorU)
      EXPECT_GT(grass_side[t], 10) << "grass sides mirror";
    else
      EXPECT_EQ(grass_side[t], 0) << "grass sides never turn (transform " << t << ")";
  }
  for (const auto& key : {std::pair{kGrass, false}, std::pair{kStone, true}, std::pair{kDirt, true}}) {
    const auto& c = counts[{std::uint8_t(key.first), key.second}];
    int total = 0;
    for (const int n : c) total += n;
    ASSERT_GE(total, 300) << materials()[key.first].name;
    for (std::uint32_t t = 0; t < kUvTransforms; ++t) {
      EXPECT_GT(c[t], total / 16) << materials()[key.first].name << " transform " << t;
      EXPECT_LT(c[t], total / 4) << materials()[key.first].name << " transform " << t;
    }
  }
}

TEST(TileVariation, OffWritesZeroTransformsAndNothingElseChanges) {
  const World w = generated(7);
  WorldMesher mesher;
  for (const MeshMode mode : {MeshMode::kAtlas, MeshMode::kUnmerged}) {
    std::vector<SectionMesh> on, off;
    mesher.mesh_all(w, {.mode = mode}, on);
    mesher.mesh_all(w, {.mode = mode, .tile_variation = false}, off);
    std::size_t varied = 0;
    for (std::size_t s = 0; s < on.size(); ++s) {
      ASSERT_EQ(on[s].vertices.size(), off[s].vertices.size());
      ASSERT_EQ(on[s].atlas.size(), off[s].atlas.size());
      ASSERT_EQ(on[s].indices, off[s].indices);
      for (std::size_t v = 0; v < on[s].vertices.size(); ++v) {
        const TerrainVertex& a = on[s].vertices[v];
        const TerrainVertex& b = off[s].vertices[v];
        const bool atlas = (a.tex01 & 0xFFFFu) == MYRIAD_VOXEL_ATLAS_MARKER;
        EXPECT_EQ(atlas ? 0u : plain_uv(b), 0u);
        EXPECT_EQ(atlas ? a.tex01 : a.tex01 & ~kVariationBits, b.tex01);
        EXPECT_TRUE(a.px == b.px && a.py == b.py && a.pz == b.pz && a.normal == b.normal &&
                    a.light == b.light && a.tex23 == b.tex23);
        varied += !atlas && plain_uv(a) != 0;
      }
      for (std::size_t r = 0; r < on[s].atlas.size(); ++r) {
        const AtlasRecord& a = on[s].atlas[r];
        const AtlasRecord& b = off[s].atlas[r];
        EXPECT_EQ(record_uv(b), 0u);
        EXPECT_EQ(a.meta & ~kMetaVariationBits, b.meta);
        EXPECT_TRUE(a.light0 == b.light0 && a.light1 == b.light1 && a.light2 == b.light2 &&
                    a.light3 == b.light3 && a.tex01 == b.tex01 && a.tex23 == b.tex23);
        varied += record_uv(a) != 0;
      }
    }
    EXPECT_GT(varied, 1000u) << "mode " << int(mode);
  }
}

}  // namespace
}  // namespace myriad::voxel
