// Sun and RGB lamp light by flood fill (SPEC V9). Levels 0..15 per channel, one less per step through
// cells that let light through (every shape but the full cube); lamps emit their material's colour, and
// every transparent cell with open sky straight above it gets sun 15. The result is the unique fixpoint
// max over paths, so any order of work (threads, passes) gives the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "myriad/voxel/data/world.hpp"

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

// The 3 x 3 section columns around column `column` of a world of size `world_size`, each stored alone
// (section sy's cells at sy * kSectionCells, cell_index order): [dz + 1][dx + 1], null outside the world.
struct ColumnNeighbourhood {
  glm::ivec3 world_size{0};
  glm::ivec2 column{0};  // section coordinates x, z
  const std::uint8_t* materials[3][3] = {};
  const std::uint8_t* forms[3][3] = {};
};

// Scratch of light_column: a region of up to 46 x height x 46 cells; reused, allocates only when cold.
struct ColumnLightScratch {
  std::vector<Light16> light;
  std::vector<std::uint8_t> open;  // light passes
  std::vector<int> sky;            // first opaque cell from the top per region column, -1 when open
  std::vector<std::uint32_t> queue;
};

// Lights one section column from its neighbourhood alone and writes its cells' light to `out` (stored like
// the column: section sy at sy * kSectionCells). Light travels at most 14 steps, so every path that lights
// the column stays within 15 cells of it, inside the 3 x 3 columns: the result equals compute_light on the
// whole world for this column, bit for bit (the fixpoint is unique). Needs all neighbours inside the world.
void light_column(const ColumnNeighbourhood& hood, std::span<Light16> out, ColumnLightScratch& scratch);

}  // namespace myriad::voxel
