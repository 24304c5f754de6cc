// Sun and RGB lamp light by flood fill (SPEC V9). Levels 0..15 per channel, one less per step through
// cells that let light through (every shape but the full cube); lamps emit their material's colour, and
// every transparent cell with open sky straight above it gets sun 15. The result is the unique fixpoint
// max over paths, so any order of work (threads, passes) gives the same bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/voxel/world.hpp"

namespace myriad::voxel {

// Does light pass through a cell with this material and form?
bool light_transparent(std::uint8_t material, std::uint8_t form);
// The cell's own light (lamp emission; sun not included).
Light16 light_emission(std::uint8_t material);

struct LightStats {
  int passes = 0;           // checkerboard passes (both colours) until nothing crossed a border
  int section_updates = 0;  // section flood fills run
};

// Lights the whole world from scratch. Sections are flooded in parallel in two checkerboard colours
// (face neighbours always differ in colour, so a section reads its idle neighbours' border light and
// writes only its own cells); passes repeat until no light crossed a section border in the last one.
LightStats compute_light(World& world);

// Relights after a change. The box [lo, hi] must hold every cell whose material, form or sky exposure
// changed (edit_voxel adds the column below an edit whose first opaque cell moved). Only cells within 15
// steps of the box can change, so that region is reset to its sources and flooded again with the light
// coming in over its border. Appends the world indices (World::index) of cells whose light changed to
// `changed` when given.
void relight_box(World& world, glm::ivec3 lo, glm::ivec3 hi, std::vector<std::size_t>* changed = nullptr);

}  // namespace myriad::voxel
