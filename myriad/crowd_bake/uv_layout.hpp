// The geometric half of the unwrap (SPEC C3), shared by LOD0's re-unwrap and LOD2's automatic UVs:
// segment into charts, flatten each (splitting charts that cannot be flattened), pack them into one
// atlas at a given texel density, and split vertices exactly where charts meet.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <cstdint>
#include <vector>

namespace myriad::crowd {

struct UvLayout {
  BakeMesh mesh;                             // the input's triangles in order, uvs in [0,1]
  std::vector<std::uint32_t> source_vertex;  // per output vertex: the input vertex it copies
  int width = 0;                             // atlas texels
  int height = 0;
  float texels_per_unit = 0.0f;  // as packed (lower than asked only if the atlas hit max_atlas_size)
  std::size_t chart_count = 0;
};

// With `merge`, adjacent charts are merged after segmentation and flattening while their union saves
// vertices and still flattens (merge_charts); with `join_sharp_edges` also across edges sharper than
// the seam angle (the mesh's vertices, and so its shading, are the same either way).
UvLayout layout_uvs(const BakeMesh& mesh, float seam_angle_deg, int padding_px, float texels_per_unit,
                    int max_atlas_size, bool merge = false, bool join_sharp_edges = false);

}  // namespace myriad::crowd
