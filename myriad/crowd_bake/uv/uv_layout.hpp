// The geometric half of the unwrap (SPEC C3), shared by LOD0's re-unwrap and LOD2's automatic UVs:
// segment into charts, flatten each (splitting charts that cannot be flattened), pack them into one
// atlas at a given texel density, and split vertices exactly where charts meet.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::crowd {

struct UvLayout {
  BakeMesh mesh;                             // the input's triangles in order, uvs in [0,1]
  std::vector<std::uint32_t> source_vertex;  // per output vertex: the input vertex it copies
  int width = 0;                             // atlas texels
  int height = 0;
  float texels_per_unit = 0.0f;  // as packed (lower than asked only if the atlas hit max_atlas_size)
  std::size_t chart_count = 0;
  std::size_t original_uv_bound = 0;     // with keep_original: the all-original vertex count (0 without)
  std::size_t charts_kept_original = 0;  // re-unwrapped charts replaced by their original UVs
  std::size_t original_islands = 0;      // charts packed with original UVs
};

// With `merge`, adjacent charts are merged after segmentation and flattening while their union saves
// vertices and still flattens (merge_charts); with `join_sharp_edges` also across edges sharper than
// the seam angle (the mesh's vertices, and so its shading, are the same either way). With
// `keep_original` (the original UV of every corner), charts whose re-unwrap needs more vertices than
// their original seams keep their original UVs, so the output never has more vertices than the mesh
// with its original seams (UvLayout::original_uv_bound; see uv_keep_original.hpp).
UvLayout layout_uvs(const BakeMesh& mesh, float seam_angle_deg, int padding_px, float texels_per_unit,
                    int max_atlas_size, bool merge = false, bool join_sharp_edges = false,
                    std::span<const glm::vec2> keep_original = {});

}  // namespace myriad::crowd
