#version 460
// Voxel trees' wind (V15): once per live tree per frame, the sway offset of its crown (one thread per
// tree, its slot from the live ranges), written for the camera's and the shadow pass's vertex shaders
// to apply: the one wind field (plant_motion.glsl) at the tree's root, scaled by its height and
// stiffness. Runs only on frames whose time or wind changed; culling does not depend on it.
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#include "voxel/mesh/voxel_layout.h"
#include "plant_motion.glsl"

layout(local_size_x = 64) in;
layout(binding = 0, scalar) readonly buffer Trees { TreeInstance trees[]; };
#define VEGETATION_RANGES_BINDING 1
#include "voxel_vegetation_ranges.glsl"
layout(binding = 2, scalar) writeonly buffer Sway { vec2 sway[]; };
layout(push_constant, scalar) uniform Push { VoxelTreeWindPush pc; };

void main() {
  uint id;
  if (!live_slot(gl_GlobalInvocationID.x, id) || id >= min(uint(trees.length()), uint(sway.length()))) return;
  TreeInstance t = trees[id];
  if ((t.type_height & 0xFFFFu) == MYRIAD_EMPTY_TEMPLATE) return;
  vec3 p = vec3(t.px, t.py, t.pz);
  float height = float(t.type_height >> 16) / 16.0;
  PlantMotion motion = PlantMotion(pc.motion);
  // The crown's offset: the bend (per metre of height) times the height; trees are not trampled.
  sway[id] = wind_bend(motion.header.wind, p.xz + motion.header.origin, pc.time) * plant_sway_weight(height) *
             height;
}
