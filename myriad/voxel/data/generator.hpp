// Procedural world generation: seeded value-noise terrain with hills, caves, several materials, lamps in
// caves and on the surface, and cut shapes that round the terrain's top edges into slopes and corners.
// Deterministic: the same seed gives the same bytes on any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "myriad/voxel/data/world.hpp"

namespace myriad::voxel {

struct GeneratorParams {
  std::uint64_t seed = 1;
  bool round_edges = true;  // false: full cubes only (formByte 255)
  bool caves = true;
  float lamp_chance = 1.0f / 400.0f;  // per cave floor cell; surface lamps are 20x rarer
};

// The reference world of the article: 256 x 64 x 256 voxels = 1024 sections.
inline constexpr glm::ivec3 kReferenceWorldSize{256, 64, 256};

// Generates materials and forms (light is left at zero: run compute_light next).
// Throws myriad::Error for sizes World rejects.
World generate_world(glm::ivec3 size, const GeneratorParams& params);

// Where generate_column writes one section column: section sy's 16^3 cells (cell_index order) start at
// `materials + sy * section_stride` (and the same for `forms`). A World's column has the stride
// sections().x * sections().z * kSectionCells; a column stored alone, kSectionCells.
struct ColumnOut {
  std::uint8_t* materials = nullptr;
  std::uint8_t* forms = nullptr;
  std::size_t section_stride = kSectionCells;
};

// Scratch of generate_column (noise grid, heights); reused between columns, allocates only when cold.
struct ColumnScratch {
  std::vector<float> grid, column;
  std::vector<int> heights;
};

// Generates section column `column` (section coordinates x, z) of the world of size `world_size` exactly as
// generate_world(world_size, params) does: column heights are clamped at that world's edges, so a column
// made alone has the bytes of the same column of the whole world. Writes every cell of the column (air
// included). generate_world is this function over all columns. Throws myriad::Error for sizes World
// rejects or a column outside the world.
void generate_column(glm::ivec3 world_size, glm::ivec2 column, const GeneratorParams& params, ColumnOut out,
                     ColumnScratch& scratch);

// The size of a world streamed column by column: each size a positive multiple of 16, at most 4096.
// Throws myriad::Error naming `field` (the options field that gave it) otherwise.
void check_streamed_world_size(glm::ivec3 size, const char* field);

}  // namespace myriad::voxel
