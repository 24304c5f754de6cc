// Parallel meshing over sections.
#include "myriad/voxel/mesh/world_mesher.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/parallel.hpp"

namespace myriad::voxel {

void WorldMesher::mesh_all(const World& world, const MeshOptions& options, std::vector<SectionMesh>& meshes) {
  meshes.resize(std::size_t(world.section_count()));
  parallel_for(0, meshes.size(), 4, [&](std::size_t b, std::size_t e) {
    MeshScratch& scratch = scratch_.local();
    for (std::size_t s = b; s < e; ++s)
      mesh_section(world, world.section_coord(int(s)), options, scratch, meshes[s]);
  });
}

void WorldMesher::mesh_sections(const World& world, std::span<const int> sections, const MeshOptions& options,
                                std::vector<SectionMesh>& meshes) {
  if (meshes.size() != std::size_t(world.section_count()))
    throw Error("mesh list has " + std::to_string(meshes.size()) + " entries, the world " +
                    std::to_string(world.section_count()) + " sections",
                "WorldMesher::mesh_sections", "call mesh_all once first");
  parallel_for(0, sections.size(), 1, [&](std::size_t b, std::size_t e) {
    MeshScratch& scratch = scratch_.local();
    for (std::size_t k = b; k < e; ++k) {
      const int s = sections[k];
      mesh_section(world, world.section_coord(s), options, scratch, meshes[std::size_t(s)]);
    }
  });
}

}  // namespace myriad::voxel
