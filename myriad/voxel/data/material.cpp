// The built-in material table (names, tiles, transition priorities, lamp colours, upright side tiles,
// baked models). Tiles 13 (wood planks) and 14 (stone bricks) are the models' parts' tiles too.
#include "myriad/voxel/data/material.hpp"

#include <array>

namespace myriad::voxel {

std::span<const Material> materials() {
  static constexpr std::array<Material, kMaterialCount> kTable{{
      {"air", 0, 0, 0, 0, 0, 0, 0, false, kNoModel},
      {"stone", 1, 1, 1, 1, 0, 0, 0, false, kNoModel},
      {"dirt", 2, 2, 2, 2, 0, 0, 0, false, kNoModel},
      {"grass", 3, 4, 2, 5, 0, 0, 0, true, kNoModel},
      {"sand", 5, 5, 5, 4, 0, 0, 0, false, kNoModel},
      {"gravel", 6, 6, 6, 3, 0, 0, 0, false, kNoModel},
      {"clay", 7, 7, 7, 2, 0, 0, 0, false, kNoModel},
      {"snow", 8, 9, 2, 6, 0, 0, 0, true, kNoModel},
      {"lamp_warm", 10, 10, 10, 0, 15, 12, 7, false, kNoModel},
      {"lamp_cold", 11, 11, 11, 0, 7, 11, 15, false, kNoModel},
      {"lamp_red", 12, 12, 12, 0, 14, 3, 2, false, kNoModel},
      {"wood", 13, 13, 13, 0, 0, 0, 0, false, kNoModel},
      {"stone_brick", 14, 14, 14, 0, 0, 0, 0, false, kNoModel},
      {"fence", 13, 13, 13, 0, 0, 0, 0, false, kModelFence},
      {"post", 13, 13, 13, 0, 0, 0, 0, false, kModelPost},
      {"lamp", 10, 10, 10, 0, 14, 11, 6, false, kModelLamp},
      {"torch", 10, 10, 10, 0, 13, 9, 4, false, kModelTorch},
      {"slab", 14, 14, 14, 0, 0, 0, 0, false, kModelSlab},
      {"stairs", 14, 14, 14, 0, 0, 0, 0, false, kModelStairs},
  }};
  return kTable;
}

}  // namespace myriad::voxel
