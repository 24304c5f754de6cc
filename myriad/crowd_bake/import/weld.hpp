// Welding LOD0 (SPEC C3): vertices that exist only because of UV seams are merged, so the VAT needs one
// column per distinct (position, normal) instead of one per UV copy. UVs are ignored (the mesh is
// re-unwrapped afterwards); triangles keep their order, so welded triangle t is original triangle t.
//
// The rule, exactly (so tests can check it): vertices are candidates when their positions are equal
// (bit for bit, -0 = +0) and so is their skin binding (joints and weights) and their key in `apart`
// (when given). Candidates are visited in
// index order; each joins the earliest-created cluster at its position whose every member has a normal
// within `normal_angle_deg` of its own (complete linkage), or starts a new cluster. So every merged pair
// is within the angle (welding is never transitive across the limit), and a vertex stays apart from an
// earlier cluster only when some member of it is beyond the angle.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <span>
#include <vector>

namespace myriad::crowd {

struct WeldOptions {
  float normal_angle_deg = 25.0f;  // [0, 180]

  // Throws myriad::Error naming the first invalid field (weld calls it).
  void validate() const;
};

struct WeldResult {
  BakeMesh mesh;                         // uvs empty; normal = normalised sum of the merged normals
  std::vector<std::uint32_t> welded_of;  // per original vertex: its welded vertex
  std::size_t vertices_before = 0;
  std::size_t vertices_after = 0;
};

// `apart` (empty, or one key per vertex): vertices whose keys differ are never merged (the import's
// morph keys: a welded vertex must move as every vertex it merges).
WeldResult weld(const BakeMesh& mesh, const WeldOptions& options = {},
                std::span<const std::uint32_t> apart = {});

}  // namespace myriad::crowd
