// Terrain generator, one section column at a time: the column's heights with a one-cell rim (edge rounding
// reads only heights, so columns are independent), then materials, caves, lamps and top-edge shapes.
#include "myriad/voxel/data/generator.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/noise.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint64_t kHeightSalt = 0x1001, kCaveSalt = 0x2002, kOreSalt = 0x3003, kLampSalt = 0x4004;

// The sizes World accepts (so a column is only made for a world that could exist).
void check_world_size(glm::ivec3 size) {
  for (int a = 0; a < 3; ++a)
    if (size[a] <= 0 || size[a] % kSectionSize != 0 || size[a] > 4096)
      throw Error("voxel world size (" + std::to_string(size.x) + ", " + std::to_string(size.y) + ", " +
                      std::to_string(size.z) + ") is invalid",
                  "generate_column, axis " + std::to_string(a),
                  "each size must be a positive multiple of 16, at most 4096");
}

}  // namespace

void generate_column(glm::ivec3 size, glm::ivec2 column, const GeneratorParams& params, ColumnOut out,
                     ColumnScratch& scratch) {
  check_world_size(size);
  const glm::ivec2 columns(size.x / kSectionSize, size.z / kSectionSize);
  if (column.x < 0 || column.y < 0 || column.x >= columns.x || column.y >= columns.y)
    throw Error("section column (" + std::to_string(column.x) + ", " + std::to_string(column.y) +
                    ") is outside the world of " + std::to_string(columns.x) + " x " +
                    std::to_string(columns.y) + " columns",
                "generate_column", "use 0 <= column < size / 16 on x and z");
  const std::uint64_t seed = mix64(params.seed);
  const float h = float(size.y);
  const int x0 = column.x * kSectionSize, z0 = column.y * kSectionSize;
  // Surface height (number of solid cells from the bottom, at least 1) of the column's cells and a one-cell
  // rim, at coordinates clamped to the world (edge rounding reads the rim).
  constexpr int kRim = kSectionSize + 2;
  scratch.heights.resize(std::size_t(kRim * kRim));
  for (int j = 0; j < kRim; ++j)
    for (int i = 0; i < kRim; ++i) {
      const int x = std::clamp(x0 - 1 + i, 0, size.x - 1), z = std::clamp(z0 - 1 + j, 0, size.z - 1);
      const float hills = fbm2(seed ^ kHeightSalt, float(x) / 48.0f, float(z) / 48.0f, 4);
      const float detail = fbm2(seed ^ (kHeightSalt * 3), float(x) / 12.0f, float(z) / 12.0f, 2);
      const float t = 0.42f + 0.30f * hills + 0.05f * detail;
      scratch.heights[std::size_t(j * kRim + i)] = std::clamp(int(t * h), 1, size.y - 2);
    }
  auto column_height = [&](int x, int z) {
    x = std::clamp(x, 0, size.x - 1);
    z = std::clamp(z, 0, size.z - 1);
    return scratch.heights[std::size_t((z - z0 + 1) * kRim + (x - x0 + 1))];
  };
  const int snow_line = int(0.68f * h), sand_line = int(0.34f * h);
  std::uint8_t* const mats = out.materials;
  std::uint8_t* const forms = out.forms;
  auto index = [&](int x, int y, int z) {
    return std::size_t(y >> 4) * out.section_stride + std::size_t(cell_index(x - x0, y & 15, z - z0));
  };
  for (int y = 0; y < size.y; y += kSectionSize) {
    std::fill_n(mats + std::size_t(y >> 4) * out.section_stride, kSectionCells, kAir);
    std::fill_n(forms + std::size_t(y >> 4) * out.section_stride, kSectionCells, kFormEmpty);
  }
  // Caves and ore veins come from 3D noise sampled every kGrid cells and interpolated: the noise is
  // smooth at that scale, and evaluating it per cell would cost most of the generation time.
  constexpr int kGrid = 4;
  const int gy = size.y / kGrid + 1;
  scratch.grid.resize(std::size_t(5 * 5 * gy * 3));
  scratch.column.resize(std::size_t(gy * 3));
  std::vector<float>& grid = scratch.grid;
  std::vector<float>& col = scratch.column;
  // Noise at the grid points of this section column: cave fields a, b and the ore field.
  for (int k = 0; k < gy; ++k)
    for (int j = 0; j < 5; ++j)
      for (int i = 0; i < 5; ++i) {
        const float x = float(x0 + kGrid * i), y = float(kGrid * k), z = float(z0 + kGrid * j);
        float* g = &grid[std::size_t(((k * 5 + j) * 5 + i) * 3)];
        g[0] = fbm3(seed ^ kCaveSalt, x / 24.0f, y / 12.0f, z / 24.0f, 2);
        g[1] = fbm3(seed ^ (kCaveSalt * 5), x / 24.0f, y / 12.0f, z / 24.0f, 2);
        g[2] = value_noise3(seed ^ kOreSalt, x / 6.0f, y / 6.0f, z / 6.0f);
      }
  for (int z = z0; z < z0 + kSectionSize; ++z)
    for (int x = x0; x < x0 + kSectionSize; ++x) {
      const int top = column_height(x, z);
      // Bilinear in x, z at every grid level of this column.
      const int i = (x - x0) / kGrid, j = (z - z0) / kGrid;
      const float tx = float((x - x0) % kGrid) / float(kGrid), tz = float((z - z0) % kGrid) / float(kGrid);
      for (int k = 0; k < gy; ++k)
        for (int f = 0; f < 3; ++f) {
          auto at = [&](int di, int dj) {
            return grid[std::size_t((((k * 5 + j + dj) * 5) + i + di) * 3 + f)];
          };
          const float a = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
          const float b = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
          col[std::size_t(k * 3 + f)] = a + (b - a) * tz;
        }
      for (int y = 0; y < top; ++y) {
        const int k = y / kGrid;
        const float ty = float(y % kGrid) / float(kGrid);
        auto field = [&](int f) {
          const float a = col[std::size_t(k * 3 + f)], b = col[std::size_t((k + 1) * 3 + f)];
          return a + (b - a) * ty;
        };
        std::uint8_t m = kStone;
        const int depth = top - 1 - y;
        if (depth == 0)
          m = top >= snow_line ? kSnow : top <= sand_line ? kSand : kGrass;
        else if (depth < 3)
          m = top <= sand_line ? kSand : kDirt;
        else {
          const float ore = field(2);
          if (ore > 0.55f)
            m = kGravel;
          else if (ore < -0.6f)
            m = kClay;
        }
        if (params.caves && y > 1 && depth > 3) {
          const float a = field(0), b = field(1);
          if (a * a + b * b < 0.012f) m = kAir;
        }
        const std::size_t idx = index(x, y, z);
        mats[idx] = m;
        forms[idx] = m == kAir ? kFormEmpty : kFormFull;
      }
    }
  // Lamps on cave floors and (rarely) on the surface; rounded top edges.
  for (int z = z0; z < z0 + kSectionSize; ++z)
    for (int x = x0; x < x0 + kSectionSize; ++x) {
      const int top = column_height(x, z);
      for (int y = 1; y < top; ++y) {
        const std::size_t i = index(x, y, z);
        const std::size_t below = index(x, y - 1, z);
        if (mats[i] != kAir || mats[below] == kAir) continue;
        const std::uint64_t r = hash3(seed ^ kLampSalt, x, y, z);
        if (hash_unit(r) < params.lamp_chance) mats[below] = std::uint8_t(kLampWarm + (r >> 8) % 3);
      }
      const std::uint64_t r = hash3(seed ^ (kLampSalt * 7), x, top, z);
      const std::size_t surface = index(x, top - 1, z);
      if (hash_unit(r) < params.lamp_chance / 20.0f) mats[surface] = std::uint8_t(kLampWarm + (r >> 8) % 3);
      if (!params.round_edges || mats[surface] == kAir || mats[surface] >= kLampWarm) continue;
      // A top corner stays where all four columns around its vertical edge reach above this cell.
      const int y = top - 1;
      std::uint8_t form = 0x0F;
      for (int cz = 0; cz < 2; ++cz)
        for (int cx = 0; cx < 2; ++cx) {
          bool keep = true;
          for (int dz = cz - 1; dz <= cz; ++dz)
            for (int dx = cx - 1; dx <= cx; ++dx) keep = keep && column_height(x + dx, z + dz) > y;
          if (keep) form = std::uint8_t(form | 1u << corner_index(cx, 1, cz));
        }
      if (!shape_lut().shapes[form].solid) {
        mats[surface] = kAir;
        form = kFormEmpty;
      }
      forms[surface] = form;
    }
}

World generate_world(glm::ivec3 size, const GeneratorParams& params) {
  World world(size.x, size.y, size.z);
  const glm::ivec3 sections = world.sections();
  const std::size_t stride = std::size_t(sections.x) * std::size_t(sections.z) * kSectionCells;
  auto mats = world.materials();
  auto forms = world.forms();
  parallel_for(0, std::size_t(sections.x * sections.z), 1, [&](std::size_t cb, std::size_t ce) {
    ColumnScratch scratch;
    for (std::size_t c = cb; c < ce; ++c) {
      const int cx = int(c % std::size_t(sections.x)), cz = int(c / std::size_t(sections.x));
      const std::size_t first = std::size_t(world.section_index({cx, 0, cz})) * kSectionCells;
      generate_column(size, {cx, cz}, params, {mats.data() + first, forms.data() + first, stride}, scratch);
    }
  });
  return world;
}

void check_streamed_world_size(glm::ivec3 size, const char* field) {
  for (int a = 0; a < 3; ++a)
    if (size[a] <= 0 || size[a] % kSectionSize != 0 || size[a] > 4096)
      throw Error("streamed world size (" + std::to_string(size.x) + ", " + std::to_string(size.y) + ", " +
                      std::to_string(size.z) + ") is invalid",
                  field, "each size must be a positive multiple of 16, at most 4096");
}

}  // namespace myriad::voxel
