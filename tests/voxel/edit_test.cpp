// Edits mark exactly the sections whose padded block changed (so every changed mesh is re-meshed and no
// other), re-meshing only those reproduces a full re-mesh; vegetation records per section.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/mesh/padded.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/data/vegetation.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::voxel {
namespace {

bool same_mesh(const SectionMesh& a, const SectionMesh& b) {
  auto eq = [](const auto& x, const auto& y) {
    return x.size() == y.size() &&
           (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0);
  };
  return eq(a.vertices, b.vertices) && eq(a.indices, b.indices) && eq(a.atlas, b.atlas);
}

bool same_block(const PaddedBlock& a, const PaddedBlock& b) {
  return a.form == b.form && a.material == b.material && a.light == b.light;
}

TEST(Edit, MarksExactlyTheSectionsWhoseBlockChangedAndRemeshesThem) {
  GeneratorParams params;
  params.seed = 5;
  World w = generate_world({64, 64, 64}, params);
  compute_light(w);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes, full;
  mesher.mesh_all(w, {}, meshes);
  std::vector<PaddedBlock> before(std::size_t(w.section_count())), after(before.size());
  std::mt19937 rng(3);
  for (int e = 0; e < 12; ++e) {
    for (int s = 0; s < w.section_count(); ++s) gather_padded(w, w.section_coord(s), before[std::size_t(s)]);
    // Edits near the surface (where meshes and light change), including section corners.
    glm::ivec3 p(int(rng() % 64), 0, int(rng() % 64));
    if (e % 3 == 0) p = glm::ivec3(16 * int(rng() % 4), 0, 16 * int(rng() % 4)) - glm::ivec3(e % 2);
    p = glm::clamp(p, glm::ivec3(0), glm::ivec3(63));
    int top = 63;
    while (top > 0 && w.material({p.x, top, p.z}) == kAir) --top;
    p.y = std::min(top + int(rng() % 2), 63);
    // Blocks, a lamp block and baked models (a fence connects to its neighbours, whose meshes change too).
    const std::uint8_t models[3] = {kFence, kStairs, kLamp};
    const std::uint8_t mat = e % 4 == 0   ? std::uint8_t(kAir)
                             : e % 4 == 1 ? std::uint8_t(kLampRed)
                             : e % 4 == 2 ? models[e / 4 % 3]
                                          : std::uint8_t(kStone);
    const EditResult r = edit_voxel(w, p, mat, e % 4 == 3 ? std::uint8_t(0x7F) : kFormFull);
    EXPECT_TRUE(std::is_sorted(r.dirty_sections.begin(), r.dirty_sections.end()));
    std::vector<int> changed;
    for (int s = 0; s < w.section_count(); ++s) {
      gather_padded(w, w.section_coord(s), after[std::size_t(s)]);
      if (!same_block(before[std::size_t(s)], after[std::size_t(s)])) changed.push_back(s);
    }
    // Exact when the edit changed the voxel; a no-op write may mark a superset.
    for (const int s : changed)
      EXPECT_TRUE(std::binary_search(r.dirty_sections.begin(), r.dirty_sections.end(), s));
    if (!changed.empty()) {
      EXPECT_EQ(r.dirty_sections, changed) << "edit " << e;
    }
    mesher.mesh_sections(w, r.dirty_sections, {}, meshes);
    mesher.mesh_all(w, {}, full);
    for (int s = 0; s < w.section_count(); ++s)
      ASSERT_TRUE(same_mesh(meshes[std::size_t(s)], full[std::size_t(s)]))
          << "section " << s << " edit " << e;
  }
}

TEST(Edit, BadInputLeavesTheWorldUnchanged) {
  World w(32, 32, 32);
  compute_light(w);
  EXPECT_THROW(edit_voxel(w, {32, 0, 0}, kStone, kFormFull), Error);
  EXPECT_THROW(edit_voxel(w, {0, -1, 0}, kStone, kFormFull), Error);
  EXPECT_THROW(edit_voxel(w, {0, 0, 0}, 77, kFormFull), Error);
  EXPECT_EQ(w.material({0, 0, 0}), kAir);
  WorldMesher mesher;
  std::vector<SectionMesh> meshes(3);
  const int s[1] = {0};
  EXPECT_THROW(mesher.mesh_sections(w, s, {}, meshes), Error);
}

TEST(Vegetation, GrassAndTreesStandOnGrassAndFollowEdits) {
  GeneratorParams params;
  params.seed = 12;
  World w = generate_world({64, 64, 64}, params);
  compute_light(w);
  std::vector<SectionVegetation> veg;
  place_all_vegetation(w, 12, veg);
  std::size_t grass = 0, trees = 0;
  for (int s = 0; s < w.section_count(); ++s) {
    const glm::ivec3 lo = w.section_coord(s) * kSectionSize;
    for (const GrassInstance& g : veg[std::size_t(s)].grass) {
      // In the cell it stands in: an air cell over a full grass cube, or a cut grass cell (its tuft on
      // the slope, tilted) under air.
      const glm::ivec3 c(int(std::floor(g.px)), int(std::floor(g.py)), int(std::floor(g.pz)));
      EXPECT_TRUE(glm::all(glm::greaterThanEqual(c, lo)) && glm::all(glm::lessThan(c, lo + kSectionSize)));
      const bool sloped = grass_up(g.template_light).y < 0.9999f;
      const glm::ivec3 air = sloped ? c + glm::ivec3(0, 1, 0) : c, ground = air - glm::ivec3(0, 1, 0);
      EXPECT_EQ(w.material(air), kAir);
      EXPECT_EQ(w.material(ground), kGrass);
      EXPECT_EQ(w.form(ground) == kFormFull, !sloped);
      EXPECT_EQ(g.template_light >> 16, w.light(air));
      EXPECT_LE(grass_template(g.template_light), kFlowerTemplate);
      ++grass;
    }
    for (const TreeInstance& t : veg[std::size_t(s)].trees) {
      EXPECT_EQ(w.material(glm::ivec3(int(t.px), int(t.py) - 1, int(t.pz))), kGrass);
      EXPECT_LT(t.type_height & 0xFFFF, kTreeTemplates);
      EXPECT_GE(t.type_height >> 16, 64u);
      ++trees;
    }
  }
  EXPECT_GT(grass, 100u);
  EXPECT_GT(trees, 0u);
  // Remove the ground under one grass instance: only dirty sections' records change, and re-placing them
  // equals placing everything again.
  glm::ivec3 at{-1};
  for (const auto& v : veg)
    if (!v.grass.empty()) {
      at = glm::ivec3(int(std::floor(v.grass[0].px)), int(v.grass[0].py) - 1, int(std::floor(v.grass[0].pz)));
      break;
    }
  ASSERT_NE(at.x, -1);
  const EditResult r = edit_voxel(w, at, kStone, kFormFull);
  for (const int s : r.dirty_sections) place_vegetation(w, w.section_coord(s), 12, veg[std::size_t(s)]);
  std::vector<SectionVegetation> fresh;
  place_all_vegetation(w, 12, fresh);
  for (std::size_t s = 0; s < fresh.size(); ++s) {
    ASSERT_EQ(fresh[s].grass.size(), veg[s].grass.size());
    if (fresh[s].grass.empty()) continue;
    EXPECT_EQ(std::memcmp(fresh[s].grass.data(), veg[s].grass.data(),
                          fresh[s].grass.size() * sizeof(GrassInstance)),
              0);
  }
}

}  // namespace
}  // namespace myriad::voxel
