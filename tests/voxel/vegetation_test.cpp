// Voxel vegetation content (V15): grass on slopes stands on the slope's surface with its up vector
// along the surface normal, the top surface of cut shapes, and the baked tree templates (several per
// type, irregular crowns, deterministic, inside the tree's bounds, wound outward).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/data/vegetation.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint8_t kBottom = 0x0F;
std::uint8_t top_corners(std::initializer_list<int> corners) {
  std::uint8_t f = kBottom;
  for (const int c : corners) f = std::uint8_t(f | 1u << c);
  return f;
}

TEST(VoxelVegetation, TopSurfaceOfCutShapes) {
  const auto full = top_surface(kFormFull, 0.3f, 0.7f);
  ASSERT_TRUE(full);
  EXPECT_FLOAT_EQ(full->height, 1.0f);
  EXPECT_FLOAT_EQ(full->normal.y, 1.0f);
  // A ramp falling towards +x: top corners at x = 0 only.
  const std::uint8_t ramp = top_corners({kCornerX0Y1Z0, kCornerX0Y1Z1});
  for (const float x : {0.1f, 0.5f, 0.8f}) {
    const auto s = top_surface(ramp, x, 0.4f);
    ASSERT_TRUE(s);
    EXPECT_NEAR(s->height, 1.0f - x, 1e-5f);
    EXPECT_NEAR(s->normal.x, std::sqrt(0.5f), 1e-4f);
    EXPECT_NEAR(s->normal.y, std::sqrt(0.5f), 1e-4f);
  }
  // One top corner cut: flat where the top remains, the cut plane x + y + z = 2 near the cut corner.
  const std::uint8_t cut = top_corners({kCornerX0Y1Z0, kCornerX1Y1Z0, kCornerX0Y1Z1});
  EXPECT_NEAR(top_surface(cut, 0.2f, 0.2f)->height, 1.0f, 1e-5f);
  const auto low = top_surface(cut, 0.9f, 0.9f);
  EXPECT_NEAR(low->height, 0.2f, 1e-5f);
  EXPECT_NEAR(low->normal.x, 1.0f / std::sqrt(3.0f), 1e-4f);
  EXPECT_FALSE(top_surface(kFormEmpty, 0.5f, 0.5f));
}

TEST(VoxelVegetation, PackedUpVectorRoundTrips) {
  for (const glm::vec3 up : {glm::vec3(0, 1, 0), glm::normalize(glm::vec3(1, 1, 0)),
                             glm::normalize(glm::vec3(-1, 1, 1)), glm::normalize(glm::vec3(0, 1, -1))}) {
    const std::uint32_t bits = pack_grass_template(3, up);
    EXPECT_EQ(grass_template(bits), 3u);
    EXPECT_NE(bits & 0xFFFFu, 0xFFFFu);  // never the empty marker
    EXPECT_LT(glm::length(grass_up(bits) - up), 0.03f);
  }
  EXPECT_EQ(pack_grass_template(kFlowerTemplate, {0, 1, 0}), kFlowerTemplate);  // flat = old layout
}

// Grass cells: full cubes on the left half, a ramp falling towards +x on the right half, air above.
TEST(VoxelVegetation, GrassOnSlopesStandsOnTheSurfaceTilted) {
  World w(16, 16, 16);
  const std::uint8_t ramp = top_corners({kCornerX0Y1Z0, kCornerX0Y1Z1});
  for (int z = 0; z < 16; ++z)
    for (int x = 0; x < 16; ++x) {
      for (int y = 0; y < 4; ++y) w.set_voxel({x, y, z}, kGrass, kFormFull);
      if (x >= 8) w.set_voxel({x, 4, z}, kGrass, ramp);
    }
  SectionVegetation v;
  place_vegetation(w, {0, 0, 0}, 3, v);
  std::size_t flat = 0, sloped = 0;
  for (const GrassInstance& g : v.grass) {
    const glm::vec3 up = grass_up(g.template_light);
    if (g.px < 8.0f) {  // on a full cube: at its top, straight up
      ++flat;
      EXPECT_FLOAT_EQ(g.py, 4.0f);
      EXPECT_EQ(up, glm::vec3(0, 1, 0));
      continue;
    }
    ++sloped;
    const float local_x = g.px - std::floor(g.px);
    EXPECT_NEAR(g.py, 4.0f + 1.0f - local_x, 1e-5f) << "on the ramp's surface, not floating or buried";
    EXPECT_LT(glm::length(up - glm::normalize(glm::vec3(1, 1, 0))), 0.03f);
    EXPECT_LE(grass_template(g.template_light), kFlowerTemplate);
  }
  EXPECT_GT(flat, 20u);
  EXPECT_GT(sloped, 40u);  // most ramp cells carry a tuft
  EXPECT_TRUE(v.trees.empty() || std::all_of(v.trees.begin(), v.trees.end(), [](const TreeInstance& t) {
                return t.px < 8.0f;  // trees only on full cubes
              }));
  // Covered ramp cells grow nothing.
  for (int z = 0; z < 16; ++z)
    for (int x = 8; x < 16; ++x) w.set_voxel({x, 5, z}, kStone, kFormFull);
  place_vegetation(w, {0, 0, 0}, 3, v);
  for (const GrassInstance& g : v.grass) EXPECT_LT(g.px, 8.0f);
}

TEST(VoxelVegetation, GeneratedWorldGrowsGrassOnSlopesAndUsesEveryTreeTemplate) {
  GeneratorParams params;
  params.seed = 9;
  World w = generate_world({128, 64, 128}, params);
  compute_light(w);
  std::vector<SectionVegetation> veg;
  place_all_vegetation(w, params.seed, veg);
  std::size_t tilted = 0, grass = 0;
  std::set<std::uint32_t> templates;
  for (const SectionVegetation& s : veg) {
    for (const GrassInstance& g : s.grass) {
      ++grass;
      tilted += grass_up(g.template_light).y < 0.99f;
    }
    for (const TreeInstance& t : s.trees) {
      EXPECT_LT(t.type_height & 0xFFFFu, kTreeTemplates);
      templates.insert(t.type_height & 0xFFFFu);
    }
  }
  EXPECT_GT(tilted, grass / 50) << "slopes carry grass too";
  EXPECT_GE(templates.size(), std::size_t(kTreeTypes * 2));
}

TEST(VoxelVegetation, TreeTemplatesAreIrregularDistinctAndDeterministic) {
  const std::vector<TreeTemplateMesh> a = bake_tree_templates(42), b = bake_tree_templates(42),
                                      other = bake_tree_templates(43);
  ASSERT_EQ(a.size(), std::size_t(kTreeTemplates));
  for (std::size_t t = 0; t < a.size(); ++t) {
    const TreeTemplateMesh& m = a[t];
    ASSERT_EQ(m.positions.size(), m.normals.size());
    ASSERT_EQ(m.positions.size() % 3, 0u);
    EXPECT_EQ(m.positions, b[t].positions) << "the same seed bakes the same template";
    EXPECT_NE(m.positions, other[t].positions) << "another seed another shape";
    std::size_t crown = 0;
    // The crown's extents per height band towards +x, -x, +z, -z: a ragged outline is lopsided (a
    // voxelized sphere or box about the trunk has four equal extents in every band).
    std::vector<std::array<float, 4>> band(13, {0.0f, 0.0f, 0.0f, 0.0f});
    for (std::size_t i = 0; i < m.positions.size(); i += 3) {
      const glm::vec3 p0(m.positions[i]), p1(m.positions[i + 1]), p2(m.positions[i + 2]);
      // Wound counter-clockwise seen from the side the normal points to.
      const glm::vec3 n = glm::cross(p1 - p0, p2 - p0);
      EXPECT_GT(glm::dot(n, m.normals[i]), 0.0f);
      for (int k = 0; k < 3; ++k) {
        const glm::vec4 p = m.positions[i + std::size_t(k)];
        EXPECT_LE(std::abs(p.x), 0.5f);
        EXPECT_LE(std::abs(p.z), 0.5f);
        EXPECT_GE(p.y, 0.0f);
        EXPECT_LE(p.y, 1.0f + 1e-5f);
        if (p.w == 1.0f) {
          ++crown;
          std::array<float, 4>& e = band[std::size_t(std::min(p.y * 12.0f, 12.0f))];
          e = {std::max(e[0], p.x), std::max(e[1], -p.x), std::max(e[2], p.z), std::max(e[3], -p.z)};
        } else {
          EXPECT_LT(p.y, 0.6f);  // the trunk ends inside the crown
        }
      }
    }
    int lopsided = 0;
    for (const auto& e : band) {
      const auto [lo, hi] = std::minmax_element(e.begin(), e.end());
      lopsided += *hi - *lo > 0.01f;
    }
    EXPECT_GT(crown, 300u) << "template " << t;
    EXPECT_GE(lopsided, 3) << "template " << t << ": the crown's outline is regular";
    // Templates of the same type differ from each other.
    if (t % kTreeVariants != 0) {
      EXPECT_NE(m.positions, a[t - 1].positions);
    }
  }
}

}  // namespace
}  // namespace myriad::voxel
