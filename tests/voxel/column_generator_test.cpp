// Per-column generation and per-column light: the streamed world's building blocks give exactly the bytes
// of generate_world and compute_light on the fixed world.
#include <gtest/gtest.h>

#include <span>

#include <random>
#include <vector>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "test_util.hpp"

namespace myriad::voxel {
namespace {

std::uint64_t world_checksum(const World& w) {
  const auto m = std::as_bytes(w.materials());
  const auto f = std::as_bytes(w.forms());
  return checksum64(m) ^ (checksum64(f) * 0x9E3779B97F4A7C15ull);
}

struct GenCase {
  glm::ivec3 size;
  GeneratorParams params;
  std::uint64_t checksum;
};

// Checksums of generate_world computed before the per-column refactor (the whole-world loop).
TEST(ColumnGenerator, GenerateWorldBytesUnchanged) {
  GeneratorParams flat;
  flat.seed = 9;
  flat.round_edges = false;
  flat.caves = false;
  GeneratorParams lamps;
  lamps.seed = 1234;
  lamps.lamp_chance = 0.05f;
  const GenCase cases[] = {
      {{256, 64, 256}, GeneratorParams{}, 0xcc8d8b36472735c1ull},
      {{128, 64, 128}, GeneratorParams{7, true, true, 1.0f / 400.0f}, 0x02bdce087e8874e0ull},
      {{64, 128, 96}, lamps, 0x34c7e9293eac1176ull},
      {{48, 32, 16}, flat, 0x1899bcecb92336b2ull},
  };
  for (const GenCase& c : cases) {
    const World w = generate_world(c.size, c.params);
    EXPECT_EQ(world_checksum(w), c.checksum) << c.size.x << " " << c.size.y << " " << c.size.z;
  }
}

// A section column of `w` stored alone (section sy at sy * kSectionCells).
template <class T>
std::vector<T> column_of(const World& w, std::span<const T> data, int cx, int cz) {
  std::vector<T> out;
  out.reserve(std::size_t(w.sections().y) * kSectionCells);
  for (int sy = 0; sy < w.sections().y; ++sy) {
    const auto first = data.begin() + std::ptrdiff_t(w.section_index({cx, sy, cz})) * kSectionCells;
    out.insert(out.end(), first, first + kSectionCells);
  }
  return out;
}

TEST(ColumnGenerator, ColumnAloneEqualsWorldColumn) {
  const glm::ivec3 size{80, 48, 64};
  GeneratorParams params;
  params.seed = 31;
  params.lamp_chance = 0.02f;
  const World w = generate_world(size, params);
  ColumnScratch scratch;
  std::vector<std::uint8_t> mats(std::size_t(3) * kSectionCells, 0xAB), forms(mats.size(), 0xCD);
  for (int cz = 0; cz < w.sections().z; ++cz)
    for (int cx = 0; cx < w.sections().x; ++cx) {
      generate_column(size, {cx, cz}, params, {mats.data(), forms.data(), kSectionCells}, scratch);
      ASSERT_EQ(mats, column_of(w, w.materials(), cx, cz)) << cx << " " << cz;
      ASSERT_EQ(forms, column_of(w, w.forms(), cx, cz)) << cx << " " << cz;
    }
  EXPECT_THROW(generate_column(size, {5, 0}, params, {mats.data(), forms.data(), kSectionCells}, scratch),
               Error);
  EXPECT_THROW(
      generate_column({80, 40, 64}, {0, 0}, params, {mats.data(), forms.data(), kSectionCells}, scratch),
      Error);
}

// Lights every column of `w` (already lit by compute_light) from its neighbourhood alone and compares.
void expect_columns_lit_alike(const World& w) {
  const glm::ivec3 sec = w.sections();
  std::vector<std::vector<std::uint8_t>> mats, forms;
  for (int cz = 0; cz < sec.z; ++cz)
    for (int cx = 0; cx < sec.x; ++cx) {
      mats.push_back(column_of(w, w.materials(), cx, cz));
      forms.push_back(column_of(w, w.forms(), cx, cz));
    }
  ColumnLightScratch scratch;
  std::vector<Light16> light(std::size_t(sec.y) * kSectionCells);
  int lit_cells = 0;
  for (int cz = 0; cz < sec.z; ++cz)
    for (int cx = 0; cx < sec.x; ++cx) {
      ColumnNeighbourhood hood;
      hood.world_size = w.size();
      hood.column = {cx, cz};
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = cx + dx, nz = cz + dz;
          if (nx < 0 || nz < 0 || nx >= sec.x || nz >= sec.z) continue;
          const std::size_t k = std::size_t(nz * sec.x + nx);
          hood.materials[dz + 1][dx + 1] = mats[k].data();
          hood.forms[dz + 1][dx + 1] = forms[k].data();
        }
      std::fill(light.begin(), light.end(), Light16(0x5A5A));
      light_column(hood, light, scratch);
      const std::vector<Light16> expected = column_of(w, w.lights(), cx, cz);
      ASSERT_EQ(light, expected) << "column " << cx << " " << cz;
      for (const Light16 l : expected) lit_cells += (l & 0x0FFF) != 0;
    }
  EXPECT_GT(lit_cells, 0);  // lamp light reached some cells: the comparison covers RGB, not only sun
}

TEST(ColumnLight, EqualsComputeLightOnGeneratedWorlds) {
  const glm::ivec3 sizes[] = {{128, 64, 128}, {256, 128, 256}, {48, 64, 80}};
  std::uint64_t seed = 3;
  for (const glm::ivec3 size : sizes)
    for (int k = 0; k < 2; ++k) {
      GeneratorParams params;
      params.seed = seed++;
      params.lamp_chance = k == 0 ? 1.0f / 400.0f : 0.03f;
      World w = generate_world(size, params);
      compute_light(w);
      SCOPED_TRACE(testing::Message()
                   << "size " << size.x << " " << size.y << " " << size.z << " seed " << params.seed);
      expect_columns_lit_alike(w);
    }
}

TEST(ColumnLight, EqualsComputeLightOnRandomWorlds) {
  // Random shapes and lamps everywhere: long lamp paths through open cells, light crossing column borders.
  for (const double air : {0.45, 0.8}) {
    World w = test::random_world({64, 48, 64}, 17, air);
    compute_light(w);
    expect_columns_lit_alike(w);
  }
}

TEST(ColumnLight, RejectsMissingNeighboursAndWrongOutput) {
  std::vector<std::uint8_t> mats(kSectionCells, kAir), forms(kSectionCells, 0);
  ColumnNeighbourhood hood;
  hood.world_size = {32, 16, 16};
  hood.column = {0, 0};
  hood.materials[1][1] = mats.data();
  hood.forms[1][1] = forms.data();
  std::vector<Light16> light(kSectionCells);
  ColumnLightScratch scratch;
  EXPECT_THROW(light_column(hood, light, scratch), Error);  // the right neighbour is inside the world
  hood.world_size = {16, 16, 16};
  light_column(hood, light, scratch);
  EXPECT_EQ(light[0], make_light16(0, 0, 0, kLightMax));
  light.resize(10);
  EXPECT_THROW(light_column(hood, light, scratch), Error);
}

}  // namespace
}  // namespace myriad::voxel
