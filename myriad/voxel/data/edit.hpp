// Voxel edits (SPEC V13, CPU side): set one voxel, relight incrementally (removal included) and report
// exactly the sections whose mesh or vegetation can change: those whose padded 18^3 block contains the
// edited cell or a cell whose light changed (AO, culling, transitions and soft light read only that block).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "myriad/voxel/data/world.hpp"

namespace myriad::voxel {

struct EditResult {
  std::vector<int> dirty_sections;  // sorted section indices to re-mesh (and re-place vegetation)
  std::size_t light_changed = 0;    // cells whose light changed
};

// Throws myriad::Error for coordinates outside the world or unknown materials (the world is unchanged).
EditResult edit_voxel(World& world, glm::ivec3 p, std::uint8_t material, std::uint8_t form);

// The box of sections (inclusive, in section coordinates, possibly outside the world) whose padded
// 18^3 block holds cell `p`: its own section, and the neighbour across each face it touches.
struct SectionBox {
  glm::ivec3 lo, hi;
};
SectionBox sections_around_cell(glm::ivec3 p);

// Sections whose padded block contains any of the cells (World::index values), sorted and unique.
std::vector<int> sections_reading(const World& world, std::span<const std::size_t> cells);

}  // namespace myriad::voxel
