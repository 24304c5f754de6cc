// The built-in material table (names, tiles, transition priorities, lamp colours, upright side tiles).
#include "myriad/voxel/data/material.hpp"

#include <array>

namespace myriad::voxel {

std::span<const Material> materials() {
  static constexpr std::array<Material, kMaterialCount> kTable{{
      {"air", 0, 0, 0, 0, 0, 0, 0, false},
      {"stone", 1, 1, 1, 1, 0, 0, 0, false},
      {"dirt", 2, 2, 2, 2, 0, 0, 0, false},
      {"grass", 3, 4, 2, 5, 0, 0, 0, true},
      {"sand", 5, 5, 5, 4, 0, 0, 0, false},
      {"gravel", 6, 6, 6, 3, 0, 0, 0, false},
      {"clay", 7, 7, 7, 2, 0, 0, 0, false},
      {"snow", 8, 9, 2, 6, 0, 0, 0, true},
      {"lamp_warm", 10, 10, 10, 0, 15, 12, 7, false},
      {"lamp_cold", 11, 11, 11, 0, 7, 11, 15, false},
      {"lamp_red", 12, 12, 12, 0, 14, 3, 2, false},
  }};
  return kTable;
}

}  // namespace myriad::voxel
