// Layouts of the voxel-world vegetation passes (V15), shared by C++ and GLSL. Instances themselves are
// voxel::GrassInstance (16 bytes) and voxel::TreeInstance (24 bytes) from voxel/voxel_layout.h.
#ifndef MYRIAD_VOXEL_VEGETATION_LAYOUT_H
#define MYRIAD_VOXEL_VEGETATION_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// An instance slot whose template is this value is empty (freed range or slack).
#define MYRIAD_EMPTY_TEMPLATE 0xFFFFu

struct VoxelVegetationCullPush {
  vec4 planes[6];
  vec4 camera;         // xyz camera position, w = near/far LOD switch distance (grass)
  float slice_height;  // instances rooted above it are dropped (V14)
  float max_distance;  // nothing beyond is drawn
  float time;          // seconds, for wind
  // Low 30 bits: instance slots (grass or trees); high 2: CULL_PHASE_* (the push is full at 128 bytes).
  uint capacity_phase;
};
struct VoxelVegetationDrawPush {
  mat4 view_proj;
  vec4 camera;    // xyz camera position
  vec4 to_light;  // xyz: unit vector towards the light
  float slice_height;
  uint lod;  // grass: 0 near (two crossed quads), 1 far (billboard)
  uint pad0;
  uint pad1;
};
// A vertex of a prebuilt tree template (trunk slices + crown), in tree-local units of its height.
struct TreeVertexGpu {
  vec4 position;  // xyz, w = 0 trunk / 1 crown
  vec4 normal;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(VoxelVegetationCullPush, 128, planes, 0, camera, 96, slice_height, 112, max_distance, 116,
                    time, 120, capacity_phase, 124);
MYRIAD_CHECK_LAYOUT(VoxelVegetationDrawPush, 112, view_proj, 0, camera, 64, to_light, 80, slice_height, 96,
                    lod, 100, pad0, 104, pad1, 108);
MYRIAD_CHECK_LAYOUT(TreeVertexGpu, 32, position, 0, normal, 16);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
