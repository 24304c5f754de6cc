// Decoding mesher output into plain positions, normals and lit colours (mesh_export.hpp).
#include <gtest/gtest.h>

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/mesh/mesh_export.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::voxel {
namespace {

TEST(MeshExport, LoneCubeInSunlight) {
  World w(16, 16, 16);
  w.set_voxel({5, 5, 5}, kStone, 255);
  compute_light(w);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(w, {.mode = MeshMode::kUnmerged, .world_bottom_faces = true}, meshes);
  DecodedMesh d;
  decode_section_mesh(meshes[0], glm::vec3(100.0f, 0.0f, -16.0f), d);
  ASSERT_EQ(d.vertex_count(), 24u);
  ASSERT_EQ(d.triangle_count(), 12u);
  int up = 0, down = 0;
  for (std::size_t i = 0; i < d.vertex_count(); ++i) {
    const glm::vec3 local = d.positions[i] - glm::vec3(100.0f, 0.0f, -16.0f);
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(local[k] == 5.0f || local[k] == 6.0f) << local[k];
    }
    EXPECT_NEAR(glm::length(d.normals[i]), 1.0f, 1e-5f);
    // The normal points out of the cube: from its centre to the face.
    const glm::vec3 to_face = local - glm::vec3(5.5f);
    EXPECT_GT(glm::dot(d.normals[i], to_face), 0.49f);
    if (d.normals[i].y > 0.99f) ++up;
    if (d.normals[i].y < -0.99f) ++down;
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(d.colors[i][k], 0.0f);
      EXPECT_LE(d.colors[i][k], 1.0f);
    }
  }
  EXPECT_EQ(up, 4);
  EXPECT_EQ(down, 4);
  // Triangles wind counter-clockwise seen from outside: their geometric normal agrees with the vertices'.
  for (std::size_t t = 0; t < d.indices.size(); t += 3) {
    const glm::vec3 a = d.positions[d.indices[t]], b = d.positions[d.indices[t + 1]],
                    c = d.positions[d.indices[t + 2]];
    EXPECT_GT(glm::dot(glm::cross(b - a, c - a), d.normals[d.indices[t]]), 0.0f);
  }
  // Open sky above and nothing around: the top face sees full sun, AO open, so its colour is the stone
  // tile lit by the sun.
  for (std::size_t i = 0; i < d.vertex_count(); ++i) {
    if (d.normals[i].y < 0.99f) continue;
    const glm::vec3 expected =
        lit_color(tile_color(materials()[kStone].tile_top), pack_light({0, 0, 0, 255}));
    EXPECT_EQ(d.colors[i], expected);
  }
}

TEST(MeshExport, CountsEqualTheMesherAndIndicesAreRebased) {
  World w = generate_world({32, 32, 32}, {.seed = 7});
  compute_light(w);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(w, {.mode = MeshMode::kUnmerged}, meshes);
  DecodedMesh all;
  std::size_t vertices = 0, indices = 0;
  for (int s = 0; s < w.section_count(); ++s) {
    const SectionMesh& m = meshes[std::size_t(s)];
    const std::size_t before = all.vertex_count();
    decode_section_mesh(m, glm::vec3(w.section_coord(s) * kSectionSize), all);
    for (std::size_t i = 0; i < m.indices.size(); ++i)
      ASSERT_EQ(all.indices[indices + i], std::uint32_t(before) + m.indices[i]);
    for (std::size_t v = 0; v < m.vertices.size(); ++v) {
      const glm::vec3 world = glm::vec3(m.vertices[v].px, m.vertices[v].py, m.vertices[v].pz) +
                              glm::vec3(w.section_coord(s) * kSectionSize);
      ASSERT_EQ(all.positions[before + v], world);
    }
    vertices += m.vertices.size();
    indices += m.indices.size();
  }
  EXPECT_GT(vertices, 1000u);
  EXPECT_EQ(all.vertex_count(), vertices);
  EXPECT_EQ(all.normals.size(), vertices);
  EXPECT_EQ(all.colors.size(), vertices);
  EXPECT_EQ(all.indices.size(), indices);
  // No vertex of a generated world shows the magenta of an unknown tile.
  for (const glm::vec3& c : all.colors) ASSERT_FALSE(c.r > 0.5f && c.g < 0.01f && c.b > 0.5f);
}

TEST(MeshExport, MergedMeshIsRefused) {
  World w = generate_world({32, 32, 32}, {.seed = 3});
  compute_light(w);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  mesher.mesh_all(w, {.mode = MeshMode::kAtlas}, meshes);
  bool any_atlas = false;
  for (const SectionMesh& m : meshes) any_atlas = any_atlas || !m.atlas.empty();
  ASSERT_TRUE(any_atlas);
  DecodedMesh d;
  bool threw = false;
  for (const SectionMesh& m : meshes) {
    if (m.atlas.empty()) continue;
    try {
      decode_section_mesh(m, glm::vec3(0.0f), d);
    } catch (const Error& e) {
      threw = true;
      EXPECT_NE(std::string(e.what()).find("MeshMode::kUnmerged"), std::string::npos) << e.what();
    }
    break;
  }
  EXPECT_TRUE(threw);
}

TEST(MeshExport, LightAndTileColours) {
  const glm::vec3 grass = tile_color(materials()[kGrass].tile_top);
  EXPECT_GT(grass.g, grass.r);
  EXPECT_GT(grass.g, grass.b);
  EXPECT_EQ(tile_color(0), glm::vec3(1.0f, 0.0f, 1.0f));
  EXPECT_EQ(tile_color(1000), glm::vec3(1.0f, 0.0f, 1.0f));
  const glm::vec3 base(0.5f, 0.5f, 0.5f);
  // Darkness leaves the ambient term only; AO (less light) darkens; lamp light is coloured.
  EXPECT_EQ(lit_color(base, pack_light({0, 0, 0, 0})), base * 0.04f);
  const glm::vec3 open = lit_color(base, pack_light({0, 0, 0, 255}));
  const glm::vec3 occluded = lit_color(base, pack_light({0, 0, 0, 102}));  // AO level 0: 0.4
  for (int k = 0; k < 3; ++k) EXPECT_LT(occluded[k], open[k]);
  const glm::vec3 red = lit_color(base, pack_light({255, 0, 0, 0}));
  EXPECT_GT(red.r, 0.5f);
  EXPECT_LT(red.g, 0.03f);
  EXPECT_EQ(lit_color(glm::vec3(1.0f), pack_light({255, 255, 255, 255})), glm::vec3(1.0f));
}

}  // namespace
}  // namespace myriad::voxel
