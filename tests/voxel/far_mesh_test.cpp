// Far LOD blocks: the 2 x 2 x 2 downsampling rules on hand-built cells (through save files), bounds and
// determinism of generated blocks' meshes.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/stream/far_mesh.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/stream/stream_world.hpp"
#include "stream_test_support.hpp"

namespace myriad::voxel {
namespace {

using test_support::same;
using test_support::TempDir;

std::uint8_t parent(std::initializer_list<std::uint8_t> children) {
  std::uint8_t m[kCornerCount] = {};
  unsigned solid = 0;
  int c = 0;
  for (const std::uint8_t id : children) {
    m[c] = id;
    solid |= (id != kAir ? 1u : 0u) << c;
    ++c;
  }
  return far_parent_material(m, solid);
}

// Corner order: x | z << 1 | y << 2 (children 0-3 bottom, 4-7 top).
TEST(FarMesh, ParentRules) {
  constexpr std::uint8_t A = kAir, S = kStone, D = kDirt, G = kGrass, L = kLampWarm;
  EXPECT_EQ(parent({A, A, A, A, A, A, A, A}), kAir);
  EXPECT_EQ(parent({S, S, S, A, A, A, A, A}), kAir);       // 3 of 8: air
  EXPECT_EQ(parent({S, S, S, S, A, A, A, A}), kStone);     // 4 of 8: solid
  EXPECT_EQ(parent({S, A, S, A, S, A, S, A}), kStone);     // 4 of 8 as a wall
  EXPECT_EQ(parent({D, D, D, D, G, A, A, G}), kGrass);     // the highest solid children win
  EXPECT_EQ(parent({D, D, D, D, D, D, G, D}), kDirt);      // most common in the top layer
  EXPECT_EQ(parent({S, S, S, S, D, G, A, A}), kGrass);     // tie: higher priority (grass 5 > dirt 2)
  EXPECT_EQ(parent({S, S, S, S, D, kSand, A, A}), kSand);  // tie: sand 4 > dirt 2
  EXPECT_EQ(parent({S, S, S, S, L, A, A, A}), kStone);     // lamps are passed over
  EXPECT_EQ(parent({L, L, L, L, A, A, A, A}), kLampWarm);  // unless nothing else is solid
  EXPECT_TRUE(far_child_solid(kStone, kFormFull));
  EXPECT_FALSE(far_child_solid(kAir, kFormFull));
  EXPECT_FALSE(far_child_solid(kStone, kFormEmpty));
  // A wedge (the four bottom corners and two top ones) spans a volume: solid.
  EXPECT_TRUE(far_child_solid(kStone, std::uint8_t(0x0F | 0x30)));
  // Three corners span no volume: air.
  EXPECT_FALSE(far_child_solid(kStone, std::uint8_t(0x07)));
}

TEST(FarMesh, SizesAndPaths) {
  EXPECT_EQ(far_sections_y(128, 1), 4);
  EXPECT_EQ(far_sections_y(128, 3), 1);
  EXPECT_EQ(far_sections_y(64, 3), 1);  // 8 coarse cells, rounded up to a section
  EXPECT_EQ(far_blocks({4096, 128, 4096}, 2), glm::ivec2(64, 64));
  EXPECT_EQ(far_blocks({48, 16, 80}, 1), glm::ivec2(2, 3));  // ceil(3 / 2), ceil(5 / 2)
  TempDir dir("myriad_far_paths");
  StreamOptions o;
  o.world_size = {64, 32, 64};
  o.worker_threads = 1;
  o.save_directory = dir.path;
  StreamWorld s(o);
  EXPECT_EQ(column_save_path(dir.path, {3, 2}), s.save_path({3, 2}));
}

// Hand-built cells (written as the block's save files) through build_far_block at levels 1 and 2.
TEST(FarMesh, DownsamplesHandBuiltBlock) {
  TempDir dir("myriad_far_hand");
  FarSource src;
  src.world_size = {64, 32, 64};  // 4 x 4 columns
  src.save_directory = dir.path;
  const std::size_t cells = std::size_t(32) * 16 * 16;
  // Block (0, 0) of level 2 holds all 16 columns; level 1's block (0, 0) the first 2 x 2.
  for (int cz = 0; cz < 4; ++cz)
    for (int cx = 0; cx < 4; ++cx) {
      std::vector<std::uint8_t> mats(cells, kAir), forms(cells, kFormEmpty);
      auto set = [&](int x, int y, int z, std::uint8_t m) {
        const std::size_t i = std::size_t(y >> 4) * kSectionCells + std::size_t(cell_index(x, y & 15, z));
        mats[i] = m;
        forms[i] = m == kAir ? kFormEmpty : kFormFull;
      };
      for (int z = 0; z < 16; ++z)
        for (int x = 0; x < 16; ++x) {
          for (int y = 0; y < 5; ++y) set(x, y, z, kStone);
          set(x, 5, z, kGrass);  // ground top at y = 5: coarse y 2's top layer
        }
      if (cx == 0 && cz == 0) {
        for (int y = 6; y < 20; ++y) set(3, y, 3, kStone);  // 1 x 1 pillar: 2 of 8 children, vanishes
        for (int y = 6; y < 16; ++y)
          for (int z = 8; z < 12; ++z)
            for (int x = 8; x < 12; ++x) set(x, y, z, kSand);  // 4 x 4 pillar: stays at level 2
        for (int x = 12; x < 14; ++x)
          for (int y = 6; y < 8; ++y) set(x, y, 12, kClay);  // 2 x 1 x 2 wall: exactly 4 children
        set(0, 6, 14, kClay);                                // 3 children: air
        set(1, 6, 14, kClay);
        set(0, 7, 14, kClay);
      }
      write_column_file(column_save_path(dir.path, {cx, cz}), src.world_size, {cx, cz}, src.generator, mats,
                        forms);
    }
  FarScratch scratch;
  {
    const World& w = build_far_block(src, 1, {0, 0}, scratch);
    EXPECT_EQ(w.size(), glm::ivec3(16, 16, 16));
    for (int y = 0; y < 2; ++y) EXPECT_EQ(w.material({5, y, 5}), kStone);
    EXPECT_EQ(w.material({5, 2, 5}), kGrass);
    EXPECT_EQ(w.form({5, 2, 5}), kFormFull);
    EXPECT_EQ(w.material({7, 3, 2}), kAir);
    EXPECT_EQ(w.form({7, 3, 2}), kFormEmpty);
    EXPECT_EQ(w.material({1, 4, 1}), kAir);  // thin pillar
    for (int y = 3; y < 8; ++y) EXPECT_EQ(w.material({5, y, 4}), kSand) << y;
    EXPECT_EQ(w.material({4, 8, 4}), kAir);
    EXPECT_EQ(w.material({6, 3, 6}), kClay);  // the wall
    EXPECT_EQ(w.material({0, 3, 7}), kAir);   // 3 children
    // Open sky over the ground, darkness inside it (the ground is opaque).
    EXPECT_EQ(light_channel(w.light({7, 3, 2}), 3), kLightMax);
    EXPECT_EQ(light_channel(w.light({5, 0, 5}), 3), 0);
  }
  {
    const World& w = build_far_block(src, 2, {0, 0}, scratch);
    EXPECT_EQ(w.size(), glm::ivec3(16, 16, 16));
    EXPECT_EQ(w.material({9, 0, 9}), kStone);
    EXPECT_EQ(w.material({9, 1, 9}), kGrass);  // level-1 y 2 (grass) is the top layer of level-2 y 1
    EXPECT_EQ(w.material({9, 2, 9}), kAir);
    EXPECT_EQ(w.material({2, 1, 2}), kSand);  // the pillar's 2 x 2 level-1 cells over the grass
    EXPECT_EQ(w.material({2, 3, 2}), kSand);
    EXPECT_EQ(w.material({2, 4, 2}), kAir);
  }
}

TEST(FarMesh, GeneratedBlocksAreBoundedAndDeterministic) {
  FarSource src;
  src.world_size = {512, 32, 512};
  FarScratch scratch;
  std::vector<SectionMesh> other(std::size_t(far_sections_y(src.world_size.y, 1)));
  for (int level = 1; level <= kFarMaxLevel; ++level) {
    const std::size_t n = std::size_t(far_sections_y(src.world_size.y, level));
    std::vector<SectionMesh> a(n), b(n);
    const glm::ivec2 block = far_blocks(src.world_size, level) / 2;
    mesh_far_block(src, level, block, {}, scratch, a);
    std::size_t vertices = 0;
    for (const SectionMesh& m : a) {
      vertices += m.vertices.size();
      for (const TerrainVertex& v : m.vertices) {
        ASSERT_GE(v.px, 0.0f);
        ASSERT_LE(v.px, 16.0f);
        ASSERT_GE(v.py, 0.0f);
        ASSERT_LE(v.py, 16.0f);
        ASSERT_GE(v.pz, 0.0f);
        ASSERT_LE(v.pz, 16.0f);
      }
      for (const std::uint32_t i : m.indices) ASSERT_LT(i, m.vertices.size());
    }
    EXPECT_GT(vertices, 0u) << "level " << level;
    // Another block (of another level) in between, then the same block again with the used scratch.
    mesh_far_block(src, 1, {0, 0}, {}, scratch, other);
    mesh_far_block(src, level, block, {}, scratch, b);
    for (std::size_t sy = 0; sy < n; ++sy)
      EXPECT_TRUE(same(a[sy], b[sy])) << "level " << level << " sy " << sy;
  }
}

TEST(FarMesh, EdgeBlocksOfUnevenWorldsAndBadArguments) {
  FarSource src;
  src.world_size = {48, 32, 48};  // 3 x 3 columns: level-1 block (1, 1) holds one column
  FarScratch scratch;
  std::vector<SectionMesh> out(std::size_t(far_sections_y(32, 1)));
  mesh_far_block(src, 1, {1, 1}, {}, scratch, out);
  for (const SectionMesh& m : out)
    for (const TerrainVertex& v : m.vertices) {
      EXPECT_LE(v.px, 8.0f);  // one column = 8 coarse cells; the rest is air
      EXPECT_LE(v.pz, 8.0f);
    }
  EXPECT_THROW(mesh_far_block(src, 1, {2, 0}, {}, scratch, out), Error);
  EXPECT_THROW(mesh_far_block(src, 0, {0, 0}, {}, scratch, out), Error);
  EXPECT_THROW(mesh_far_block(src, 4, {0, 0}, {}, scratch, out), Error);
  std::vector<SectionMesh> wrong(5);
  EXPECT_THROW(mesh_far_block(src, 1, {0, 0}, {}, scratch, wrong), Error);
}

}  // namespace
}  // namespace myriad::voxel
