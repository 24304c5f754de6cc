// LOD2 as a new closed mesh (SPEC C6): the original is thickened, voxel-remeshed (mesh → level set →
// mesh), enclosed inner shells are dropped, the result is simplified to a triangle budget,
// shrink-wrapped onto the original surface, unwrapped and textured from the original, and every vertex
// is attached to its nearest original triangle so it animates from LOD0's VAT columns.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"
#include "myriad/crowd_bake/texture_rebake.hpp"

#include <span>

namespace myriad::crowd {

struct Lod2Options {
  int target_triangles = 300;  // the article's range is 200–460 by enemy type
  float thickness = 0.0f;      // added shell thickness; 0 = automatic from the bounds
  float voxel_size = 0.0f;     // remesh resolution; 0 = automatic from the bounds
};

struct Lod2Result {
  BakeMesh mesh;                        // positions/normals/uvs/indices; skin data blended from a, b, c
  std::vector<Attachment> attachments;  // one per mesh vertex, into the LOD0 vertices
  anim::Texture texture;                // at LOD0's texel density, from LOD0's atlas or `source_colour`
};

// `lod0` is the welded, unwrapped LOD0 with `lod0_texture` its atlas. With `source_colour` (LOD0
// triangle t at barycentric b -> colour; LOD0 keeps the original's triangle order, so this can read
// the original textures) LOD2's texels are sampled from it instead of from LOD0's atlas: one
// resampling fewer, no atlas blur or gutter in LOD2's colours.
Lod2Result remesh_lod2(const BakeMesh& lod0, const anim::Texture& lod0_texture,
                       std::span<const BakeMaterial> materials, const Lod2Options& options,
                       const TriangleColour* source_colour = nullptr);

}  // namespace myriad::crowd
