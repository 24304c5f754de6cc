// Terrain generator: a height map first (so edge rounding reads only the height map and sections can be
// filled independently in parallel), then materials, caves, lamps and top-edge shapes per section column.
#include "myriad/voxel/generator.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "myriad/core/parallel.hpp"
#include "myriad/voxel/material.hpp"
#include "myriad/voxel/noise.hpp"
#include "myriad/voxel/shape.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint64_t kHeightSalt = 0x1001, kCaveSalt = 0x2002, kOreSalt = 0x3003, kLampSalt = 0x4004;

}  // namespace

World generate_world(glm::ivec3 size, const GeneratorParams& params) {
  World world(size.x, size.y, size.z);
  const std::uint64_t seed = mix64(params.seed);
  const float h = float(size.y);
  // Surface height per column: number of solid cells from the bottom (at least 1).
  std::vector<int> height(std::size_t(size.x) * std::size_t(size.z));
  parallel_for(0, std::size_t(size.z), 8, [&](std::size_t zb, std::size_t ze) {
    for (std::size_t z = zb; z < ze; ++z)
      for (int x = 0; x < size.x; ++x) {
        const float hills = fbm2(seed ^ kHeightSalt, float(x) / 48.0f, float(z) / 48.0f, 4);
        const float detail = fbm2(seed ^ (kHeightSalt * 3), float(x) / 12.0f, float(z) / 12.0f, 2);
        const float t = 0.42f + 0.30f * hills + 0.05f * detail;
        height[z * std::size_t(size.x) + std::size_t(x)] = std::clamp(int(t * h), 1, size.y - 2);
      }
  });
  auto column_height = [&](int x, int z) {
    x = std::clamp(x, 0, size.x - 1);
    z = std::clamp(z, 0, size.z - 1);
    return height[std::size_t(z) * std::size_t(size.x) + std::size_t(x)];
  };
  const int snow_line = int(0.68f * h), sand_line = int(0.34f * h);

  const glm::ivec3 sections = world.sections();
  auto mats = world.materials();
  auto forms = world.forms();
  // Caves and ore veins come from 3D noise sampled every kGrid cells and interpolated: the noise is
  // smooth at that scale, and evaluating it per cell would cost most of the generation time.
  constexpr int kGrid = 4;
  const int gy = size.y / kGrid + 1;
  parallel_for(0, std::size_t(sections.x * sections.z), 1, [&](std::size_t cb, std::size_t ce) {
    std::vector<float> grid(std::size_t(5 * 5 * gy * 3));
    std::vector<float> column(std::size_t(gy * 3));
    for (std::size_t c = cb; c < ce; ++c) {
      const int x0 = int(c % std::size_t(sections.x)) * kSectionSize;
      const int z0 = int(c / std::size_t(sections.x)) * kSectionSize;
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
          const float tx = float((x - x0) % kGrid) / float(kGrid),
                      tz = float((z - z0) % kGrid) / float(kGrid);
          for (int k = 0; k < gy; ++k)
            for (int f = 0; f < 3; ++f) {
              auto at = [&](int di, int dj) {
                return grid[std::size_t((((k * 5 + j + dj) * 5) + i + di) * 3 + f)];
              };
              const float a = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
              const float b = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
              column[std::size_t(k * 3 + f)] = a + (b - a) * tz;
            }
          for (int y = 0; y < top; ++y) {
            const int k = y / kGrid;
            const float ty = float(y % kGrid) / float(kGrid);
            auto field = [&](int f) {
              const float a = column[std::size_t(k * 3 + f)], b = column[std::size_t((k + 1) * 3 + f)];
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
            const std::size_t idx = world.index({x, y, z});
            mats[idx] = m;
            forms[idx] = m == kAir ? kFormEmpty : kFormFull;
          }
        }
      // Lamps on cave floors and (rarely) on the surface; rounded top edges.
      for (int z = z0; z < z0 + kSectionSize; ++z)
        for (int x = x0; x < x0 + kSectionSize; ++x) {
          const int top = column_height(x, z);
          for (int y = 1; y < top; ++y) {
            const std::size_t i = world.index({x, y, z});
            const std::size_t below = world.index({x, y - 1, z});
            if (mats[i] != kAir || mats[below] == kAir) continue;
            const std::uint64_t r = hash3(seed ^ kLampSalt, x, y, z);
            if (hash_unit(r) < params.lamp_chance) mats[below] = std::uint8_t(kLampWarm + (r >> 8) % 3);
          }
          const std::uint64_t r = hash3(seed ^ (kLampSalt * 7), x, top, z);
          const std::size_t surface = world.index({x, top - 1, z});
          if (hash_unit(r) < params.lamp_chance / 20.0f)
            mats[surface] = std::uint8_t(kLampWarm + (r >> 8) % 3);
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
  });
  return world;
}

}  // namespace myriad::voxel
