// Layouts of the voxel terrain pass (terrain.vert/.frag) shared by C++ and GLSL. Geometry and atlas
// records stay in voxel/mesh/voxel_layout.h; these are the per-page and per-arena tables the pass adds.
#ifndef MYRIAD_TERRAIN_LAYOUT_H
#define MYRIAD_TERRAIN_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// Per page slot, beside PageGpu: where the section sits and where its atlas records start in the
// arena's vertex buffer (records share the vertices' 28-byte stride and follow them).
struct TerrainPageGpu {
  vec3 origin;
  uint atlas_first;
};
// Per arena: device addresses of its vertex and index buffers (lo, hi words).
struct ArenaAddressGpu {
  uint vertices_lo;
  uint vertices_hi;
  uint indices_lo;
  uint indices_hi;
};
struct TerrainPush {
  mat4 view_proj;
  vec4 to_light;       // xyz: unit vector towards the light
  float slice_height;  // clip everything above (V14)
  uint arena;          // the arena this draw covers (one indirect draw per visible arena)
  uint debug_mode;     // 0 shaded; 1 light only (no textures) for atlas comparisons
  float cell_scale;    // world units per mesh unit: 1, or 2^L for far LOD meshes of coarse cells
  vec4 floor_rect;     // the world's floor quad while sliced: x0, z0, x1, z1 at y = 0 (terrain_floor.vert)
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(TerrainPageGpu, 16, origin, 0, atlas_first, 12);
MYRIAD_CHECK_LAYOUT(ArenaAddressGpu, 16, vertices_lo, 0, vertices_hi, 4, indices_lo, 8, indices_hi, 12);
MYRIAD_CHECK_LAYOUT(TerrainPush, 112, view_proj, 0, to_light, 64, slice_height, 80, arena, 84, debug_mode, 88,
                    cell_scale, 92, floor_rect, 96);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
