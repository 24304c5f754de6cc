// Voxel vegetation records (SPEC V15, data half): grass / baked-model instances (16 bytes) and trees
// (24 bytes), owned by the section that holds the air cell they stand in. Placement is a pure function of
// the world and the seed per cell, so re-placing one changed section rewrites only its own records.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/voxel/voxel_layout.h"
#include "myriad/voxel/world.hpp"

namespace myriad::voxel {

inline constexpr std::uint16_t kGrassTemplates = 4;  // templates 0..3: grass tufts
inline constexpr std::uint16_t kFlowerTemplate = 4;  // template 4: flowers
inline constexpr std::uint16_t kTreeTypes = 3;

struct SectionVegetation {
  std::vector<GrassInstance> grass;
  std::vector<TreeInstance> trees;
  void clear() {
    grass.clear();
    trees.clear();
  }
};

// Places instances on top of full grass cells under air in `section` (cleared first; capacity kept).
void place_vegetation(const World& world, glm::ivec3 section, std::uint64_t seed, SectionVegetation& out);
void place_all_vegetation(const World& world, std::uint64_t seed, std::vector<SectionVegetation>& out);

}  // namespace myriad::voxel
