// Lower levels of detail of an avatar part (the article's LOD groups, SPEC B3): each level keeps about
// half the vertices of the level above (meshoptimizer's edge collapse on positions, attributes carried
// along), with the mesh's open borders locked so that parts split from one body stay joined at their
// seams at every level. A level that cannot shrink further (everything left is border) repeats the
// level above. Joints, weights, UVs and colours follow the kept vertices.
#pragma once

#include "myriad/anim/import/gltf_import.hpp"

#include <cstddef>
#include <vector>

namespace myriad::anim {

inline constexpr std::size_t kMaxPartLods = 4;

// levels[0] is `mesh` itself; levels[k] targets half the triangles of levels[k - 1]. `levels` in 1..4.
std::vector<SkinnedMesh> make_part_lods(const SkinnedMesh& mesh, std::size_t levels);

}  // namespace myriad::anim
