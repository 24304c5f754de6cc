// GPU layouts of the voxel world, shared unchanged by C++ (the mesher writes them) and GLSL (the terrain
// and vegetation shaders read them): 28-byte terrain vertex, 28-byte surface-atlas record, 16-byte grass
// instance, 24-byte tree instance. Plain structs of 32-bit words only, so std430/scalar layouts equal C++.
#ifndef MYRIAD_VOXEL_VOXEL_LAYOUT_H
#define MYRIAD_VOXEL_VOXEL_LAYOUT_H

#ifdef __cplusplus
#include "myriad/core/layout/gpu_layout.h"
namespace myriad::voxel {
#else
#include "core/layout/gpu_layout.h"
#endif

// Base texture index 0xFFFF in tex01 marks a vertex of a greedy quad that reads the surface atlas.
// A texture index is tile (bits 0-9) | mask variant (bits 10-15); tile 1023 + variant 63 is reserved.
// A transition layer's variant is its edge mask (bits 10-13); a plain polygon's base layer has no mask and
// carries the cell's tile variation there instead (bits 10-12, mesh/tile_variation.hpp), so it never
// reaches 0xFFFF.
#define MYRIAD_VOXEL_ATLAS_MARKER 0xFFFFu
#define MYRIAD_VOXEL_TILE_BITS 10u
#define MYRIAD_VOXEL_TILE_MASK 0x3FFu
#define MYRIAD_VOXEL_UV_TRANSFORM_MASK 0x7u
// Bit of an atlas record's meta where the cell's tile variation starts (bits 4-6).
#define MYRIAD_VOXEL_META_UV_SHIFT 4u

// Terrain vertex, 28 bytes. Positions are section-local (0..16); the page data adds the section origin.
//   normal: octahedral, 2 x snorm16 (core/packing).
//   Plain polygon (single quad, triangle, slope):
//     light = R,G,B lamp + sun, one byte each, AO applied; tex01 = base | transition1 << 16, the base's
//     bits 10-12 its tile variation; tex23 = transition2 | transition3 << 16 (0 = no layer). Texture UV
//     comes from the position, projected on the plane of the polygon's light-sampling side.
//   Greedy quad (tex01 & 0xFFFF == MYRIAD_VOXEL_ATLAS_MARKER):
//     light = section-local index of the quad's first atlas record;
//     tex01 >> 16 = this corner's quad-local cell coordinates u (bits 16-23), v (bits 24-31);
//     tex23 = quad width in cells (bits 0-7) | height in cells (bits 8-15).
//     The fragment shader picks cell (floor(u), floor(v)) and reads record first + v * width + u.
struct TerrainVertex {
  MYRIAD_GPU_TYPES
  float px;
  float py;
  float pz;
  uint normal;
  uint light;
  uint tex01;
  uint tex23;
};

// Surface-atlas record, 28 bytes: one per cell covered by a greedy quad, consecutive per quad.
//   light0..3: the cell's corners in quad-local order (u,v) = (0,0), (1,0), (1,1), (0,1), AO applied.
//   tex01, tex23: base texture + up to 3 transition layers (as in the vertex).
//   meta: bits 0-3 zero (the article's vertex mask: a record is always a whole cell, as triangles never
//         reach the atlas, so the mask would always be full and is not kept),
//         bits 4-6 tile variation (bits 4-5 quarter turns, bit 6 mirror u; mesh/tile_variation.hpp),
//         bit 7 diagonal (0: triangles split along corner 0-2, 1: along 1-3),
//         bits 8-15 AO level per corner (2 bits each, corner k at bits 8+2k; 3 = open),
//         bits 16-31 zero (reserved).
struct AtlasRecord {
  MYRIAD_GPU_TYPES
  uint light0;
  uint light1;
  uint light2;
  uint light3;
  uint tex01;
  uint tex23;
  uint meta;
};

// Grass and other instanced baked models, 16 bytes: world position of the model's base, template index
// (bits 0-15 of template_light) and light as 4 x 4-bit levels (bits 16-31: R, G, B, sun from low to high).
struct GrassInstance {
  MYRIAD_GPU_TYPES
  float px;
  float py;
  float pz;
  uint template_light;
};

// Tree, 24 bytes: root position (world), type (bits 0-15) | height in voxels * 16 (bits 16-31), and two
// light probes packed as R, G, B, sun bytes (core pack_light): at the root and at the top of the crown.
struct TreeInstance {
  MYRIAD_GPU_TYPES
  float px;
  float py;
  float pz;
  uint type_height;
  uint light_root;
  uint light_top;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(TerrainVertex, 28, px, 0, py, 4, pz, 8, normal, 12, light, 16, tex01, 20, tex23, 24);
MYRIAD_CHECK_LAYOUT(AtlasRecord, 28, light0, 0, light1, 4, light2, 8, light3, 12, tex01, 16, tex23, 20, meta,
                    24);
MYRIAD_CHECK_LAYOUT(GrassInstance, 16, px, 0, py, 4, pz, 8, template_light, 12);
MYRIAD_CHECK_LAYOUT(TreeInstance, 24, px, 0, py, 4, pz, 8, type_height, 12, light_root, 16, light_top, 20);
}  // namespace myriad::voxel
#endif

#endif  // MYRIAD_VOXEL_VOXEL_LAYOUT_H
