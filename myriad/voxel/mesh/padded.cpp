// Gathers a section and its one-cell shell: whole 16-cell rows by memcpy, shell cells one by one.
#include "myriad/voxel/mesh/padded.hpp"

#include <algorithm>
#include <cstring>

#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {

bool section_is_air(const World& world, glm::ivec3 section) {
  const std::uint8_t* m =
      world.materials().data() + std::size_t(world.section_index(section)) * kSectionCells;
  std::uint64_t any = 0;
  for (int i = 0; i < kSectionCells; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, m + i, 8);
    any |= w;
  }
  return any == 0;
}

bool section_is_buried(const World& world, glm::ivec3 section, bool solid_floor) {
  const std::uint8_t* forms = world.forms().data();
  const std::uint8_t* f = forms + std::size_t(world.section_index(section)) * kSectionCells;
  for (int i = 0; i < kSectionCells; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, f + i, 8);
    if (w != ~std::uint64_t(0)) return false;
  }
  for (int face = 0; face < kFaceCount; ++face) {
    const glm::ivec3 n = section + face_direction(face);
    if (!world.contains_section(n)) {
      if (face == kNegY && solid_floor) continue;
      return false;
    }
    const std::uint8_t* nf = forms + std::size_t(world.section_index(n)) * kSectionCells;
    const int a = face_axis(face), layer = face_positive(face) ? 0 : kSectionSize - 1;
    for (int i = 0; i < kSectionSize; ++i)
      for (int j = 0; j < kSectionSize; ++j) {
        glm::ivec3 c;
        c[a] = layer;
        c[(a + 1) % 3] = i;
        c[(a + 2) % 3] = j;
        if (nf[cell_index(c.x, c.y, c.z)] != kFormFull) return false;
      }
  }
  return true;
}

void gather_padded(const World& world, glm::ivec3 section, PaddedBlock& out, bool solid_floor) {
  const glm::ivec3 size = world.size();
  const glm::ivec3 origin = section * kSectionSize - 1;
  out.origin = origin;
  const std::uint8_t* forms = world.forms().data();
  const std::uint8_t* mats = world.materials().data();
  const Light16* lights = world.lights().data();
  const bool has_left = section.x > 0, has_right = section.x + 1 < world.sections().x;
  auto outside = [&](std::size_t i) {
    out.form[i] = kFormEmpty;
    out.material[i] = kAir;
    out.light[i] = kOutsideLight;
  };
  auto copy_cell = [&](std::size_t i, std::size_t src) {
    out.form[i] = forms[src];
    out.material[i] = mats[src];
    out.light[i] = lights[src];
  };
  for (int py = 0; py < kPad; ++py) {
    const int wy = origin.y + py;
    for (int pz = 0; pz < kPad; ++pz) {
      const int wz = origin.z + pz;
      const std::size_t row = std::size_t(pad_index(0, py, pz));
      if (wy < 0 && solid_floor) {
        for (std::size_t px = 0; px < kPad; ++px) {
          out.form[row + px] = kFormFull;
          out.material[row + px] = kStone;
          out.light[row + px] = 0;
        }
        continue;
      }
      if (wy < 0 || wz < 0 || wy >= size.y || wz >= size.z) {
        for (std::size_t px = 0; px < kPad; ++px) outside(row + px);
        continue;
      }
      // Sections are numbered x fastest, so the left and right neighbours are one section away.
      const std::size_t sec = std::size_t(world.section_index({section.x, wy >> 4, wz >> 4}));
      const std::size_t src = sec * kSectionCells + std::size_t(cell_index(0, wy & 15, wz & 15));
      if (has_right) {
        // The right neighbour's x = 0 column is one byte per row, 16 bytes apart, in a section not read
        // yet: prefetch 8 rows ahead so its cache misses overlap instead of stalling the row copies
        // (clamped to that section, so the address stays inside the world arrays).
        const std::size_t cell = std::size_t(cell_index(0, wy & 15, wz & 15));
        const std::size_t ahead =
            src + kSectionCells + std::min<std::size_t>(8 * kSectionSize, kSectionCells - 1 - cell);
        __builtin_prefetch(forms + ahead);
        __builtin_prefetch(mats + ahead);
        __builtin_prefetch(lights + ahead);
      }
      std::memcpy(&out.form[row + 1], forms + src, kSectionSize);
      std::memcpy(&out.material[row + 1], mats + src, kSectionSize);
      std::memcpy(&out.light[row + 1], lights + src, kSectionSize * sizeof(Light16));
      if (has_left)
        copy_cell(row, src - kSectionCells + 15);
      else
        outside(row);
      if (has_right)
        copy_cell(row + kPad - 1, src + kSectionCells);
      else
        outside(row + kPad - 1);
    }
  }
}

}  // namespace myriad::voxel
