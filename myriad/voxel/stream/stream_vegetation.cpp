// Vegetation of a streamed column: the column's spans handed to the shared placement.
#include "myriad/voxel/stream/stream_vegetation.hpp"

#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad::voxel {

VegetationColumn vegetation_column(const StreamWorld& world, glm::ivec2 column) {
  // The message is built only when thrown: placement runs per section and allocates nothing else.
  auto fail = [&](const char* what, const char* hint) {
    throw Error(what,
                "vegetation of streamed column " + std::to_string(column.x) + " " + std::to_string(column.y),
                hint);
  };
  if (column.x < 0 || column.y < 0 || column.x >= world.columns().x || column.y >= world.columns().y)
    fail("the column lies outside the world", "use 0 <= column < world size / 16 on x and z");
  if (world.column_state(column) != ColumnState::kMeshed)
    fail("the column is not meshed", "place vegetation for the sections StreamWorld::update reports meshed");
  const auto mats = world.column_materials(column);
  const auto forms = world.column_forms(column);
  const auto light = world.column_light(column);
  return {mats.data(), forms.data(), light.data(), nullptr, kSectionCells, world.options().world_size.y};
}

void place_vegetation(const StreamWorld& world, glm::ivec3 section, std::uint64_t seed,
                      SectionVegetation& out) {
  const VegetationColumn column = vegetation_column(world, {section.x, section.z});
  if (section.y < 0 || section.y * kSectionSize >= column.height)
    throw Error("the section lies outside the world",
                "vegetation of streamed section " + std::to_string(section.x) + " " +
                    std::to_string(section.y) + " " + std::to_string(section.z),
                "use 0 <= section.y < world height / 16");
  place_vegetation(column, section, seed, out);
}

}  // namespace myriad::voxel
