// Meshes many sections in parallel (one scratch block per worker thread, reused across calls). Each
// section's output depends only on the world, so results are identical for any thread count.
#pragma once

#include <span>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "myriad/voxel/mesh/mesher.hpp"

namespace myriad::voxel {

class WorldMesher {
 public:
  // Resizes `meshes` to the section count and meshes every section into its slot (World::section_index).
  void mesh_all(const World& world, const MeshOptions& options, std::vector<SectionMesh>& meshes);
  // Re-meshes only the given sections (e.g. EditResult::dirty_sections); `meshes` must hold all sections.
  void mesh_sections(const World& world, std::span<const int> sections, const MeshOptions& options,
                     std::vector<SectionMesh>& meshes);

 private:
  tbb::enumerable_thread_specific<MeshScratch> scratch_;
};

}  // namespace myriad::voxel
