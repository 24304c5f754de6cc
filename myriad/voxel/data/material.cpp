// The built-in material table (names, tiles, transition priorities, lamp colours).
#include "myriad/voxel/data/material.hpp"

#include <array>

namespace myriad::voxel {

std::span<const Material> materials() {
  static constexpr std::array<Material, kMaterialCount> kTable{{
      {"air", 0, 0, 0, 0, 0, 0, 0},
      {"stone", 1, 1, 1, 1, 0, 0, 0},
      {"dirt", 2, 2, 2, 2, 0, 0, 0},
      {"grass", 3, 4, 2, 5, 0, 0, 0},
      {"sand", 5, 5, 5, 4, 0, 0, 0},
      {"gravel", 6, 6, 6, 3, 0, 0, 0},
      {"clay", 7, 7, 7, 2, 0, 0, 0},
      {"snow", 8, 9, 2, 6, 0, 0, 0},
      {"lamp_warm", 10, 10, 10, 0, 15, 12, 7},
      {"lamp_cold", 11, 11, 11, 0, 7, 11, 15},
      {"lamp_red", 12, 12, 12, 0, 14, 3, 2},
  }};
  return kTable;
}

}  // namespace myriad::voxel
