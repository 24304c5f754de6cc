// LOD2 as a new closed mesh (SPEC C6): the original is thickened, voxel-remeshed (mesh → level set →
// mesh), enclosed inner shells are dropped, the result is simplified to a triangle budget,
// shrink-wrapped onto the original surface, unwrapped and textured from the original, and every vertex
// is attached to its nearest original triangle so it animates from LOD0's VAT columns.
//
// Per skin region (remesh_lod2_by_region), each region of dominant joints is remeshed on its own and
// attached only to its own triangles: limbs close together in the bind pose (an arm at the torso, the
// legs, fingers) are never bridged, and every vertex moves with the part it was made from.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"
#include "myriad/crowd_bake/texture/texture_rebake.hpp"

#include "myriad/anim/import/gltf_import.hpp"

#include <span>
#include <vector>

namespace myriad::crowd {

inline constexpr int kMinLod2Triangles = 16, kMaxLod2Triangles = 100000;

struct Lod2Options {
  int target_triangles = 300;  // the article's range is 200–460 by enemy type; 16..100000
  float thickness = 0.0f;      // added shell thickness; 0 = automatic from the bounds
  float voxel_size = 0.0f;     // remesh resolution; 0 = automatic from the bounds

  // Throws myriad::Error naming the first invalid field (remesh_lod2 and remesh_lod2_by_region call it).
  void validate() const;
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

// Per renderer joint (ImportedModel::joints), the nearest ancestor that is a renderer joint; -1 at a root.
std::vector<int> renderer_joint_parents(const anim::ImportedModel& model);

// Skin regions of LOD0's triangles by dominant joint: a region starts at each root and at each limb
// leaving a branch point of the joint tree (a joint with two or more children carrying surface: arms
// and neck off the chest, legs off the hips), unless that limb holds less than `min_area_fraction` of
// the surface. Returns the region of every triangle; `region_count` is set.
std::vector<std::uint32_t> skin_regions(const BakeMesh& lod0, std::span<const int> joint_parents,
                                        float min_area_fraction, std::size_t& region_count);

// Every region remeshed alone (budget shared by surface area, at least 24 triangles each) and the
// closed shells joined into one mesh, each vertex attached to a triangle of its own region.
Lod2Result remesh_lod2_by_region(const BakeMesh& lod0, const anim::Texture& lod0_texture,
                                 std::span<const BakeMaterial> materials, const Lod2Options& options,
                                 std::span<const std::uint32_t> region_of_triangle, std::size_t region_count,
                                 const TriangleColour* source_colour = nullptr);

}  // namespace myriad::crowd
