// Vegetation placement (vegetation.hpp) for a section of the streamed world: the same records, byte for byte,
// as place_vegetation on the fixed world of the same size and seed (generate_world + compute_light, and the
// same edits through edit_voxel). Placement reads only the section's own column (VegetationColumn), so this
// sits beside StreamWorld rather than in it, and vegetation.cpp does not depend on streaming.
#pragma once

#include <cstdint>

#include "myriad/voxel/stream/stream_world.hpp"
#include "myriad/voxel/data/vegetation.hpp"

namespace myriad::voxel {

// The streamed column's cells and light as placement reads them (no flags: a streamed column keeps none, as
// generate_world sets none). Throws myriad::Error unless the column is meshed (its light is then resident).
VegetationColumn vegetation_column(const StreamWorld& world, glm::ivec2 column);

// place_vegetation for `section` of a meshed column (cleared first; capacity kept). Throws myriad::Error for
// a section outside the world or whose column is not ColumnState::kMeshed. Reads the column's cells and
// light, so call it when they are stable (StreamWorld::idle(), see column_materials): a light job launched by
// an update() writes the column's light on a worker thread until a later update() collects it.
void place_vegetation(const StreamWorld& world, glm::ivec3 section, std::uint64_t seed,
                      SectionVegetation& out);

}  // namespace myriad::voxel
