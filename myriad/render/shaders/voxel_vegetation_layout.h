// Layouts of the voxel-world vegetation passes (V15), shared by C++ and GLSL. Instances themselves are
// voxel::GrassInstance (16 bytes) and voxel::TreeInstance (24 bytes) from voxel/mesh/voxel_layout.h.
#ifndef MYRIAD_VOXEL_VEGETATION_LAYOUT_H
#define MYRIAD_VOXEL_VEGETATION_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// An instance slot whose template is this value is empty (freed range or slack).
#define MYRIAD_EMPTY_TEMPLATE 0xFFFFu
// Tree templates per tree type (voxel::kTreeVariants): template id = type * variants + variant.
#define MYRIAD_TREE_VARIANTS 3u
// Tree-local height below which a tree does not sway (voxel::kTreeRigidHeight).
#define MYRIAD_TREE_RIGID_HEIGHT 0.15
// How far from its root a grass tuft's vertex can be, however it tilts, sways or is trodden (half a
// 0.9 m quad across and 0.91 m up make 1.02 m): the radius of its culling sphere about the root.
#define MYRIAD_GRASS_REACH 1.05
// The live instances of one pass (grass or trees) as ranges of the dense instance array, one per
// section with instances (VoxelVegetationRanges, then `count` uvec2 entries {first slot, live instances
// before this range}). Culling and wind run one thread per live instance and find its slot by a binary
// search over the entries.

struct VoxelVegetationCullPush {
  vec4 planes[6];
  vec4 camera;         // xyz camera position, w = near/far LOD switch distance (grass)
  float slice_height;  // instances rooted above it are dropped (V14)
  float max_distance;  // nothing beyond is drawn
  float time;          // seconds, for wind
  // Low 30 bits: instance slots (grass or trees); high 2: CULL_PHASE_* (the push is full at 128 bytes).
  uint capacity_phase;
};
struct VoxelVegetationRanges {
  uint count;  // entries
  uint live;   // live instances over all entries
  uint pad0;
  uint pad1;
};
// The trees' wind: the scene clock and the device address of the plant motion (plant_motion.glsl).
struct VoxelTreeWindPush {
  float time;  // seconds
  uint pad0;
  uvec2 motion;
};
struct VoxelVegetationDrawPush {
  mat4 view_proj;
  vec4 camera;    // xyz camera position
  vec4 to_light;  // xyz: unit vector towards the light
  float slice_height;
  uint lod;              // grass: 0 near (two crossed quads), 1 far (billboard)
  uint template_stride;  // trees: vertices per template (shorter templates end in degenerate ones)
  float time;            // grass: the scene clock, seconds (wind)
  uvec2 motion;          // grass: device address of the plant motion (wind and trampling)
  uint pad1;
  uint pad2;
};
// A vertex of a prebuilt tree template (trunk slices + crown), in tree-local units of its height;
// templates lie one after another, `template_stride` vertices each.
struct TreeVertexGpu {
  vec4 position;  // xyz, w = 0 trunk / 1 crown
  vec4 normal;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(VoxelVegetationCullPush, 128, planes, 0, camera, 96, slice_height, 112, max_distance, 116,
                    time, 120, capacity_phase, 124);
MYRIAD_CHECK_LAYOUT(VoxelVegetationDrawPush, 128, view_proj, 0, camera, 64, to_light, 80, slice_height, 96,
                    lod, 100, template_stride, 104, time, 108, motion, 112, pad1, 120, pad2, 124);
MYRIAD_CHECK_LAYOUT(VoxelVegetationRanges, 16, count, 0, live, 4, pad0, 8, pad1, 12);
MYRIAD_CHECK_LAYOUT(VoxelTreeWindPush, 16, time, 0, pad0, 4, motion, 8);
MYRIAD_CHECK_LAYOUT(TreeVertexGpu, 32, position, 0, normal, 16);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
