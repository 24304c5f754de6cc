// A leaner pass over the flat sphere arrays: per block of 64 consecutive spheres (spatially sorted in
// tree order, so a block is a small patch of ground) the bounds of the block's spheres. A block outside
// one frustum plane is skipped without reading its 1 KiB of spheres, a block inside all planes is
// accepted without per-sphere tests, and only blocks the frustum cuts go through cull_spheres_flat.
// The block tests run in double with a margin above any float rounding of the per-sphere test, so the
// output equals cull_spheres_flat's exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "myriad/vegetation/cull/cpu_cull.hpp"

namespace myriad::vegetation {

inline constexpr std::size_t kSphereBlock = 64;

struct SphereBlocks {
  std::vector<glm::dvec3> min, max;  // of the spheres' bounding boxes, per block
  std::size_t sphere_count = 0;
};

SphereBlocks build_sphere_blocks(const SphereArrays& spheres);

// Same indices, in the same order, as cull_spheres_flat over all of `spheres` (`blocks` built from them).
std::size_t cull_spheres_blocked(const Frustum& frustum, const SphereArrays& spheres,
                                 const SphereBlocks& blocks, std::uint32_t* out);

}  // namespace myriad::vegetation
