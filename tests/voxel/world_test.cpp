// World storage, bad input, and the generator (determinism, materials, shapes, lamps).
#include <gtest/gtest.h>

#include <set>
#include <span>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/data/world.hpp"

namespace myriad::voxel {
namespace {

TEST(World, RejectsBadDimensions) {
  EXPECT_THROW(World(0, 16, 16), Error);
  EXPECT_THROW(World(17, 16, 16), Error);
  EXPECT_THROW(World(16, -16, 16), Error);
  EXPECT_THROW(World(16, 16, 8), Error);
  EXPECT_THROW(generate_world({100, 64, 64}, {}), Error);
  try {
    World(24, 16, 16);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of 16"), std::string::npos) << e.what();
  }
}

TEST(World, RejectsBadCoordinatesAndMaterials) {
  World w(32, 16, 16);
  EXPECT_EQ(w.section_count(), 2);
  EXPECT_THROW(w.set_voxel({32, 0, 0}, kStone, kFormFull), Error);
  EXPECT_THROW(w.set_voxel({-1, 0, 0}, kStone, kFormFull), Error);
  EXPECT_THROW(w.set_voxel({0, 16, 0}, kStone, kFormFull), Error);
  EXPECT_THROW((void)w.material({0, 0, 16}), Error);
  EXPECT_THROW(w.set_voxel({0, 0, 0}, kMaterialCount, kFormFull), Error);
  try {
    w.set_voxel({1, 2, 3}, 200, kFormFull);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown material id 200"), std::string::npos) << e.what();
  }
  EXPECT_EQ(w.material({1, 2, 3}), kAir);
}

TEST(World, StoresSectionMajor) {
  World w(32, 32, 16);
  w.set_voxel({17, 20, 3}, kDirt, 0x3F);
  EXPECT_EQ(w.material({17, 20, 3}), kDirt);
  EXPECT_EQ(w.form({17, 20, 3}), 0x3F);
  const int s = w.section_index({1, 1, 0});
  EXPECT_EQ(w.section_coord(s), glm::ivec3(1, 1, 0));
  EXPECT_EQ(w.index({17, 20, 3}), std::size_t(s) * kSectionCells + std::size_t(cell_index(1, 4, 3)));
  w.set_voxel({17, 20, 3}, kAir, 0x3F);
  EXPECT_EQ(w.form({17, 20, 3}), kFormEmpty) << "air never keeps a shape";
}

std::uint64_t world_checksum(const World& w) {
  const auto m = std::as_bytes(w.materials());
  const auto f = std::as_bytes(w.forms());
  const auto l = std::as_bytes(w.lights());
  return checksum64(m) ^ (checksum64(f) * 3) ^ (checksum64(l) * 7);
}

TEST(Generator, SameSeedSameBytesOnOneAndAllThreads) {
  GeneratorParams p;
  p.seed = 7;
  std::uint64_t one = 0;
  {
    ThreadLimit limit(1);
    one = world_checksum(generate_world({64, 64, 64}, p));
  }
  EXPECT_EQ(one, world_checksum(generate_world({64, 64, 64}, p)));
  p.seed = 8;
  EXPECT_NE(one, world_checksum(generate_world({64, 64, 64}, p)));
}

TEST(Generator, MakesTerrainWithMaterialsShapesAndLamps) {
  GeneratorParams p;
  p.seed = 3;
  const World w = generate_world({128, 64, 128}, p);
  std::set<int> mats, forms;
  int lamps = 0, air = 0;
  const ShapeLut& lut = shape_lut();
  for (std::size_t i = 0; i < w.materials().size(); ++i) {
    mats.insert(w.materials()[i]);
    forms.insert(w.forms()[i]);
    lamps += w.materials()[i] >= kLampWarm;
    air += w.materials()[i] == kAir;
    if (w.materials()[i] != kAir) {
      EXPECT_TRUE(lut.shapes[w.forms()[i]].solid);
    }
  }
  EXPECT_GE(mats.size(), 7u);
  EXPECT_GE(forms.size(), 8u) << "slopes and corners on terrain edges";
  EXPECT_GT(lamps, 0);
  EXPECT_GT(air, int(w.materials().size() / 4));
  EXPECT_LT(air, int(w.materials().size() * 3 / 4));
  // Bottom layer is solid ground, top layer is air.
  EXPECT_NE(w.material({5, 0, 5}), kAir);
  EXPECT_EQ(w.material({5, 63, 5}), kAir);
  GeneratorParams cubes = p;
  cubes.round_edges = false;
  const World c = generate_world({64, 64, 64}, cubes);
  for (const std::uint8_t f : c.forms()) ASSERT_TRUE(f == kFormEmpty || f == kFormFull);
}

}  // namespace
}  // namespace myriad::voxel
