// Light of one section column from its 3 x 3 neighbourhood: the region within 15 cells of the column is
// reset to its sources (lamps, sun under open sky) and flooded; only the column's own cells are kept.
#include <algorithm>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"

namespace myriad::voxel {
namespace {

constexpr Light16 step_down(Light16 l) {
  const unsigned nz = (l | l >> 1 | l >> 2 | l >> 3) & 0x1111u;
  return Light16(l - nz);
}
// Per-channel max of `into` and `from` (a few bit operations instead of four compares).
inline Light16 channel_max(Light16 into, Light16 from) {
  Light16 out = into;
  for (int c = 0; c < 16; c += 4) {
    const unsigned mask = 0xFu << c;
    if ((from & mask) > (out & mask)) out = Light16((out & ~mask) | (from & mask));
  }
  return out;
}

}  // namespace

void light_column(const ColumnNeighbourhood& hood, std::span<Light16> out, ColumnLightScratch& scratch) {
  const glm::ivec3 size = hood.world_size;
  const int height = size.y;
  if (out.size() != std::size_t(height) * kSectionSize * kSectionSize)
    throw Error("light output holds " + std::to_string(out.size()) + " cells, the column " +
                    std::to_string(height * kSectionSize * kSectionSize),
                "light_column", "pass the column's light array");
  const int x0 = hood.column.x * kSectionSize, z0 = hood.column.y * kSectionSize;
  // The region: cells within 15 of the column on x and z, clipped to the world.
  const int rx0 = std::max(0, x0 - kLightMax), rx1 = std::min(size.x, x0 + kSectionSize + kLightMax);
  const int rz0 = std::max(0, z0 - kLightMax), rz1 = std::min(size.z, z0 + kSectionSize + kLightMax);
  const int ex = rx1 - rx0, ez = rz1 - rz0;
  const std::size_t layer = std::size_t(ex) * std::size_t(ez);
  const std::size_t cells = layer * std::size_t(height);
  for (int dz = -1; dz <= 1; ++dz)
    for (int dx = -1; dx <= 1; ++dx) {
      const int cx = hood.column.x + dx, cz = hood.column.y + dz;
      const bool inside = cx >= 0 && cz >= 0 && cx * kSectionSize < size.x && cz * kSectionSize < size.z;
      if (inside && (!hood.materials[dz + 1][dx + 1] || !hood.forms[dz + 1][dx + 1]))
        throw Error("neighbour column (" + std::to_string(cx) + ", " + std::to_string(cz) + ") is missing",
                    "light_column", "pass every neighbour inside the world");
    }
  scratch.light.resize(cells);
  scratch.open.resize(cells);
  scratch.sky.resize(layer);
  scratch.queue.clear();
  Light16* light = scratch.light.data();
  std::uint8_t* open = scratch.open.data();
  Light16 emission[256] = {};
  for (int m = 0; m < kMaterialCount; ++m) emission[m] = light_emission(std::uint8_t(m));
  auto local = [&](int x, int y, int z) {
    return (std::size_t(y) * std::size_t(ez) + std::size_t(z - rz0)) * std::size_t(ex) + std::size_t(x - rx0);
  };
  // Transparency and emission, row by row (a row of 16 cells lies in one neighbour column).
  for (int y = 0; y < height; ++y) {
    const std::size_t sec = std::size_t(y >> 4) * kSectionCells;
    for (int z = rz0; z < rz1; ++z) {
      const int dz = (z >> 4) - hood.column.y;
      for (int x = rx0; x < rx1;) {
        const int dx = (x >> 4) - hood.column.x;
        const std::uint8_t* m = hood.materials[dz + 1][dx + 1] + sec;
        const std::uint8_t* f = hood.forms[dz + 1][dx + 1] + sec;
        const int end = std::min(rx1, ((x >> 4) + 1) * kSectionSize);
        for (; x < end; ++x) {
          const std::size_t c = std::size_t(cell_index(x & 15, y & 15, z & 15));
          const std::size_t i = local(x, y, z);
          open[i] = light_transparent(m[c], f[c]) ? 1 : 0;
          light[i] = emission[m[c]];
        }
      }
    }
  }
  // Sun: 15 above each column's first opaque cell.
  for (std::size_t c = 0; c < layer; ++c) {
    int top = -1;
    for (int y = height - 1; y >= 0; --y) {
      const std::size_t i = std::size_t(y) * layer + c;
      if (!open[i]) {
        top = y;
        break;
      }
      light[i] = Light16(light[i] | kLightMax << 12);
    }
    scratch.sky[c] = top;
  }
  // Seeds: lamps, and open-sky cells at or below a neighbour column's first opaque cell (elsewhere open sky
  // meets only open sky or opaque cells, and sun 14 raises neither).
  const int* sky = scratch.sky.data();
  for (int z = rz0; z < rz1; ++z)
    for (int x = rx0; x < rx1; ++x) {
      const std::size_t c = std::size_t(z - rz0) * std::size_t(ex) + std::size_t(x - rx0);
      int reach = -1;
      if (x > rx0) reach = std::max(reach, sky[c - 1]);
      if (x + 1 < rx1) reach = std::max(reach, sky[c + 1]);
      if (z > rz0) reach = std::max(reach, sky[c - std::size_t(ex)]);
      if (z + 1 < rz1) reach = std::max(reach, sky[c + std::size_t(ex)]);
      const int own = sky[c];
      for (int y = 0; y < height; ++y) {
        const std::size_t i = std::size_t(y) * layer + c;
        if ((light[i] & 0x0FFF) != 0 || (y > own && y <= reach)) scratch.queue.push_back(std::uint32_t(i));
      }
    }
  // Flood inside the region (neighbours outside it cannot light the column within 15 steps).
  const std::size_t row = std::size_t(ex);
  for (std::size_t head = 0; head < scratch.queue.size(); ++head) {
    const std::size_t i = scratch.queue[head];
    const Light16 v = step_down(light[i]);
    if (v == 0) continue;
    const int x = int(i % row), z = int(i / row % std::size_t(ez)), y = int(i / layer);
    auto visit = [&](std::size_t n) {
      if (!open[n]) return;
      const Light16 raised = channel_max(light[n], v);
      if (raised == light[n]) return;
      light[n] = raised;
      scratch.queue.push_back(std::uint32_t(n));
    };
    if (x > 0) visit(i - 1);
    if (x + 1 < ex) visit(i + 1);
    if (y > 0) visit(i - layer);
    if (y + 1 < height) visit(i + layer);
    if (z > 0) visit(i - row);
    if (z + 1 < ez) visit(i + row);
  }
  for (int y = 0; y < height; ++y)
    for (int z = 0; z < kSectionSize; ++z) {
      const Light16* src = light + local(x0, y, z0 + z);
      Light16* dst = out.data() + std::size_t(y >> 4) * kSectionCells + std::size_t(cell_index(0, y & 15, z));
      std::copy_n(src, kSectionSize, dst);
    }
}

}  // namespace myriad::voxel
