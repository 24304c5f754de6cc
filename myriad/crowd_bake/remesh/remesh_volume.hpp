// The voxel half of LOD2 (SPEC C6), kept apart because OpenVDB's headers are slow to compile: the
// input triangles (open, non-manifold or self-intersecting all work) become an unsigned distance
// field, and the surface at distance `thickness` is extracted as a closed triangle mesh. That is the
// original thickened by `thickness` on every side: thin parts gain volume, open sheets become closed
// slabs, and a closed body yields an outer shell plus an inner one that the caller drops.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace myriad::crowd {

struct VoxelSurface {
  std::vector<glm::vec3> positions;
  std::vector<std::uint32_t> indices;  // 3 per triangle; shared vertices (the mesh is welded)
};

VoxelSurface thickened_voxel_surface(const std::vector<glm::vec3>& positions,
                                     const std::vector<std::uint32_t>& indices, float voxel_size,
                                     float thickness);

}  // namespace myriad::crowd
