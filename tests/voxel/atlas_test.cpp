// Surface atlas: every covered cell's record equals what the unmerged mesh has at that cell's corners
// (light, texture layers, diagonal, tile variation); whole-pipeline determinism (generate, light, mesh,
// vegetation) for 1 thread vs all threads.
#include <gtest/gtest.h>

#include <algorithm>

#include <map>
#include <random>
#include <span>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/shade.hpp"
#include "myriad/voxel/data/vegetation.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#include "test_util.hpp"

namespace myriad::voxel {
namespace {

struct CellData {
  std::array<std::uint32_t, 4> light{};
  std::uint32_t tex01 = 0, tex23 = 0, diagonal = 0;
};
using CellKey = std::tuple<int, int, int, int>;  // face, world cell x, y, z

// A plain polygon's base index carries the cell's tile variation in bits 10-12; a record keeps the layers
// without it and the variation in meta bits 4-6.
using test::kVariationBits;
using test::plain_uv;
using test::record_uv;

using test::cell_of_corner0;
using test::quad_face;

std::map<CellKey, CellData> unmerged_cells(const World& w, const std::vector<SectionMesh>& meshes) {
  std::map<CellKey, CellData> out;
  for (int s = 0; s < w.section_count(); ++s) {
    const SectionMesh& m = meshes[std::size_t(s)];
    EXPECT_TRUE(m.atlas.empty());
    for (std::uint32_t v = 0; v < m.quad_vertices; v += 4) {
      const int face = quad_face(&m.vertices[v]);
      const glm::ivec3 c = cell_of_corner0(m.vertices[v], face, w.section_coord(s));
      CellData d;
      for (int k = 0; k < 4; ++k) d.light[std::size_t(k)] = m.vertices[v + std::uint32_t(k)].light;
      d.tex01 = m.vertices[v].tex01;
      d.tex23 = m.vertices[v].tex23;
      d.diagonal = m.indices[std::size_t(v / 4 * 6 + 2)] - v == 3 ? 1u : 0u;
      EXPECT_TRUE(out.emplace(CellKey{face, c.x, c.y, c.z}, d).second);
    }
  }
  return out;
}

TEST(Atlas, IsLosslessAgainstTheUnmergedMesh) {
  GeneratorParams params;
  params.seed = 21;
  World w = generate_world({64, 64, 64}, params);
  compute_light(w);
  // Add random cut shapes and materials on top so transitions and triangles appear too.
  const World noise = test::random_world({64, 64, 64}, 4, 0.97);
  for (std::size_t i = 0; i < noise.materials().size(); ++i)
    if (noise.materials()[i] != kAir && w.materials()[i] == kAir) {
      w.materials()[i] = noise.materials()[i];
      w.forms()[i] = noise.forms()[i];
    }
  WorldMesher mesher;
  std::vector<SectionMesh> merged, unmerged;
  mesher.mesh_all(w, {MeshMode::kAtlas}, merged);
  mesher.mesh_all(w, {MeshMode::kUnmerged}, unmerged);
  const std::map<CellKey, CellData> reference = unmerged_cells(w, unmerged);
  std::size_t covered = 0, records = 0, transitions = 0, variations = 0;
  for (int s = 0; s < w.section_count(); ++s) {
    const SectionMesh& m = merged[std::size_t(s)];
    records += m.atlas.size();
    for (std::uint32_t v = 0; v < m.quad_vertices; v += 4) {
      const TerrainVertex* q = &m.vertices[v];
      const int face = quad_face(q);
      const glm::ivec3 c0 = cell_of_corner0(q[0], face, w.section_coord(s));
      if ((q[0].tex01 & 0xFFFF) != MYRIAD_VOXEL_ATLAS_MARKER) {
        const auto it = reference.find({face, c0.x, c0.y, c0.z});
        ASSERT_NE(it, reference.end());
        for (int k = 0; k < 4; ++k) EXPECT_EQ(q[k].light, it->second.light[std::size_t(k)]);
        EXPECT_EQ(q[0].tex01, it->second.tex01);
        ++covered;
        continue;
      }
      const int width = int(q[0].tex23 & 0xFF), height = int(q[0].tex23 >> 8 & 0xFF);
      ASSERT_GT(width * height, 1);
      EXPECT_EQ(q[2].tex01 >> 16, std::uint32_t(width | height << 8)) << "corner 2 has uv (w, h)";
      for (int j = 0; j < height; ++j)
        for (int i = 0; i < width; ++i) {
          glm::ivec3 c = c0;
          c[quad_axis_u(face)] += i;
          c[quad_axis_v(face)] += j;
          const AtlasRecord& r = m.atlas[q[0].light + std::uint32_t(j * width + i)];
          const auto it = reference.find({face, c.x, c.y, c.z});
          ASSERT_NE(it, reference.end()) << "merged cell not in the unmerged mesh";
          const CellData& d = it->second;
          EXPECT_EQ((std::array<std::uint32_t, 4>{r.light0, r.light1, r.light2, r.light3}), d.light);
          EXPECT_EQ(r.tex01, d.tex01 & ~kVariationBits);
          EXPECT_EQ(record_uv(r), plain_uv(d.tex01));
          EXPECT_EQ(r.tex23, d.tex23);
          EXPECT_EQ(r.meta >> 7 & 1, d.diagonal);
          EXPECT_EQ(r.meta & 0xF, 0u) << "bits 0-3 are reserved (no vertex mask)";
          variations += record_uv(r) != 0;
          transitions += (r.tex01 >> 16) != 0;
          ++covered;
        }
    }
  }
  EXPECT_EQ(covered, reference.size()) << "every unmerged cell is covered once";
  EXPECT_GT(records, 100u);
  EXPECT_GT(transitions, 0u);
  EXPECT_GT(variations, records / 2) << "7 in 8 records of turnable tiles have a transform";
}

// Rows of equal wedges: their slopes merge along the row into one atlas quad each, and every record equals
// the unmerged slope of its cell (same light per corner, same textures); the surface stays closed.
TEST(Atlas, SlopeRunsMergeLosslessly) {
  World w(32, 16, 32);
  std::mt19937 rng(9);
  const std::uint8_t wedge = 0x0F | 1u << kCornerX0Y1Z0 | 1u << kCornerX0Y1Z1;  // slope along z
  for (int z = 0; z < 32; ++z)
    for (int x = 0; x < 32; ++x) {
      for (int y = 0; y < 4; ++y) w.set_voxel({x, y, z}, kStone, kFormFull);
      if (x % 3 != 2) w.set_voxel({x, 4, z}, std::uint8_t(kDirt + rng() % 3), wedge);
    }
  w.set_voxel({7, 5, 9}, kLampRed, kFormFull);
  compute_light(w);
  WorldMesher mesher;
  std::vector<SectionMesh> merged, unmerged;
  mesher.mesh_all(w, {MeshMode::kAtlas, true}, merged);
  mesher.mesh_all(w, {MeshMode::kUnmerged, true}, unmerged);
  // Unmerged inner planes: (cell, normal, doubled corner) -> light, and (cell, normal) -> textures.
  std::map<std::tuple<int, int, int, std::uint32_t, int, int, int>, std::uint32_t> light;
  std::map<std::tuple<int, int, int, std::uint32_t>, std::pair<std::uint32_t, std::uint32_t>> tex;
  std::size_t unmerged_slopes = 0, merged_slopes = 0, records = 0;
  auto is_axis = [](std::uint32_t n) {
    for (int f = 0; f < kFaceCount; ++f)
      if (n == pack_octahedral(glm::vec3(face_direction(f)))) return true;
    return false;
  };
  for (int s = 0; s < w.section_count(); ++s) {
    const SectionMesh& m = unmerged[std::size_t(s)];
    for (std::size_t i = std::size_t(m.quad_vertices) / 4 * 6; i < m.indices.size();) {
      // A polygon's triangles use only its own consecutive vertices (a fan, or a quad split along
      // either diagonal): extend while the next triangle reaches back into the vertices seen so far.
      auto tri_min = [&](std::size_t t) {
        return std::min({m.indices[t], m.indices[t + 1], m.indices[t + 2]});
      };
      auto tri_max = [&](std::size_t t) {
        return std::max({m.indices[t], m.indices[t + 1], m.indices[t + 2]});
      };
      const std::uint32_t base = tri_min(i);
      std::uint32_t top = tri_max(i);
      std::size_t tris = 1;
      while (i + 3 * tris < m.indices.size() && tri_min(i + 3 * tris) <= top)
        top = std::max(top, tri_max(i + 3 * tris++));
      i += 3 * tris;
      const std::uint32_t n = m.vertices[base].normal;
      if (is_axis(n)) continue;
      glm::ivec3 lo(1 << 20);
      for (std::uint32_t k = 0; k < tris + 2; ++k)
        lo = glm::min(lo, test::doubled(m.vertices[base + k], w.section_coord(s)));
      const glm::ivec3 cell = lo / 2;
      for (std::uint32_t k = 0; k < tris + 2; ++k) {
        const glm::ivec3 p = test::doubled(m.vertices[base + k], w.section_coord(s));
        light[{cell.x, cell.y, cell.z, n, p.x, p.y, p.z}] = m.vertices[base + k].light;
      }
      tex[{cell.x, cell.y, cell.z, n}] = {m.vertices[base].tex01, m.vertices[base].tex23};
      ++unmerged_slopes;
    }
  }
  for (int s = 0; s < w.section_count(); ++s) {
    const SectionMesh& m = merged[std::size_t(s)];
    for (std::uint32_t v = m.quad_vertices; v < m.vertices.size(); ++v) {
      if ((m.vertices[v].tex01 & 0xFFFF) != MYRIAD_VOXEL_ATLAS_MARKER) continue;
      const TerrainVertex* q = &m.vertices[v];
      v += 3;
      const int run = int(q[0].tex23 & 0xFF);
      ASSERT_GT(run, 1);
      ASSERT_EQ(q[0].tex23 >> 8 & 0xFF, 1u);
      const glm::ivec3 v0 = test::doubled(q[0], w.section_coord(s)),
                       v1 = test::doubled(q[1], w.section_coord(s));
      const glm::ivec3 v3 = test::doubled(q[3], w.section_coord(s));
      const glm::ivec3 e = (v1 - v0) / run;
      for (int j = 0; j < run; ++j) {
        const glm::ivec3 corners[4] = {v0 + e * j, v0 + e * (j + 1), v3 + e * (j + 1), v3 + e * j};
        glm::ivec3 lo = glm::min(glm::min(corners[0], corners[1]), glm::min(corners[2], corners[3]));
        const glm::ivec3 cell = lo / 2;
        const AtlasRecord& r = m.atlas[q[0].light + std::uint32_t(j)];
        const std::uint32_t lights[4] = {r.light0, r.light1, r.light2, r.light3};
        for (int k = 0; k < 4; ++k) {
          const auto it =
              light.find({cell.x, cell.y, cell.z, q[0].normal, corners[k].x, corners[k].y, corners[k].z});
          ASSERT_NE(it, light.end());
          EXPECT_EQ(lights[k], it->second);
        }
        const auto t = tex.find({cell.x, cell.y, cell.z, q[0].normal});
        ASSERT_NE(t, tex.end());
        EXPECT_EQ(r.tex01, t->second.first & ~kVariationBits);
        EXPECT_EQ(record_uv(r), plain_uv(t->second.first));
        EXPECT_EQ(r.tex23, t->second.second);
        ++records;
      }
      ++merged_slopes;
    }
  }
  EXPECT_EQ(records, unmerged_slopes) << "every slope cell has one record";
  EXPECT_EQ(merged_slopes, 22u * 2u) << "one quad per row (22 rows) and section (2 along z)";
}

std::uint64_t bytes_checksum(std::span<const std::byte> b, std::uint64_t acc) {
  return acc * 31 + checksum64(b);
}

std::uint64_t pipeline_checksum() {
  GeneratorParams params;
  params.seed = 99;
  World w = generate_world({96, 64, 96}, params);
  compute_light(w);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(w, {}, meshes);
  std::vector<SectionVegetation> veg;
  place_all_vegetation(w, params.seed, veg);
  std::uint64_t acc = bytes_checksum(std::as_bytes(w.lights()), 0);
  acc = bytes_checksum(std::as_bytes(w.forms()), acc);
  for (const SectionMesh& m : meshes) {
    acc = bytes_checksum(std::as_bytes(std::span(m.vertices)), acc);
    acc = bytes_checksum(std::as_bytes(std::span(m.indices)), acc);
    acc = bytes_checksum(std::as_bytes(std::span(m.atlas)), acc);
  }
  for (const SectionVegetation& v : veg) {
    acc = bytes_checksum(std::as_bytes(std::span(v.grass)), acc);
    acc = bytes_checksum(std::as_bytes(std::span(v.trees)), acc);
  }
  return acc;
}

TEST(Determinism, SameSeedSameBytesOnOneThreadAndAll) {
  std::uint64_t one = 0;
  {
    ThreadLimit limit(1);
    one = pipeline_checksum();
  }
  EXPECT_EQ(one, pipeline_checksum());
}

}  // namespace
}  // namespace myriad::voxel
