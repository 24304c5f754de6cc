// Dropping enclosed shells from a closed voxel surface (SPEC C6): LOD2 keeps only what can be seen.
// Inner shells come from thickening a closed body (the offset surface inside it, wound inward) and
// from separate parts swallowed by another part; both are invisible from outside.
#pragma once

#include "myriad/crowd_bake/remesh/remesh_volume.hpp"

namespace myriad::crowd {

struct ShellStats {
  std::size_t shells = 0;   // connected components found
  std::size_t dropped = 0;  // inward-wound or enclosed by a kept shell
};

// Keeps the outward-wound connected components that no other kept component encloses (ray parity),
// orienting the whole surface so that kept shells have positive volume; unused vertices are removed.
ShellStats keep_outer_shells(VoxelSurface& surface);

}  // namespace myriad::crowd
