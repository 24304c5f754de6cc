// Re-unwrapping of a welded mesh (SPEC C3): charts grown across smooth edges with seams only where the
// dihedral angle exceeds a limit, charts over a size bound halved first (so the unwrap's time stays
// linear in the mesh), one parameterization per chart, charts packed into one atlas, and the base
// colour re-baked per triangle from the original mesh's UVs and textures at the same texel density.
// A chart whose re-unwrap would cost more vertices than its original UV seams keeps its original UVs,
// so the result never has more vertices than the welded mesh with the original seams kept.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <span>

namespace myriad::crowd {

struct UnwrapOptions {
  float seam_angle_deg = 70.0f;  // edges sharper than this become chart seams, (0, 180]
  // Adjacent charts are merged while their union still flattens within the limits (fewer seam
  // vertices); with join_sharp_edges also across sharp edges (false keeps a seam on every one).
  bool merge_charts = true;
  bool join_sharp_edges = true;
  // Charts whose re-unwrap costs more vertices than their original UV seams keep their original UVs,
  // so LOD0 never exceeds the welded mesh with those seams (UnwrapResult::vertex_bound). False
  // re-unwraps every chart (the unwrap's own tests).
  bool keep_original_uvs = true;
  int padding_px = 2;            // gutter around each chart in the atlas (texels, 0..64)
  float texels_per_unit = 0.0f;  // atlas density; 0 = the original's texel density
  int max_atlas_size = 4096;     // texels a side (16..16384); the density is lowered only to fit this

  // Throws myriad::Error naming the first invalid field (unwrap_and_rebake calls it).
  void validate() const;
};

struct UnwrapResult {
  BakeMesh mesh;                             // split only along chart seams; uvs filled in [0,1]
  std::vector<std::uint32_t> source_vertex;  // per output vertex: the welded vertex it copies
  anim::Texture texture;                     // the atlas: base colour × texture of the original
  std::size_t chart_count = 0;
  std::size_t vertex_bound = 0;          // the welded mesh with its original UV seams: never exceeded
  std::size_t charts_kept_original = 0;  // re-unwrapped charts that kept their original UVs instead
  float texels_per_unit = 0.0f;          // the atlas density used
};

// `welded` and `original` have the same triangles in the same order (welding only merges vertices);
// `original` carries the source UVs that `materials`/`textures` are sampled through.
UnwrapResult unwrap_and_rebake(const BakeMesh& welded, const BakeMesh& original,
                               std::span<const BakeMaterial> materials,
                               std::span<const anim::Texture> textures, const UnwrapOptions& options);

}  // namespace myriad::crowd
