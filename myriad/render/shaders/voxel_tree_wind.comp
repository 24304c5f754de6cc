#version 460
// Voxel trees' wind (V15): once per live tree per frame, the sway offset of its crown (one thread per
// tree, its slot from the live ranges), written for the camera's and the shadow pass's vertex shaders
// to apply. Runs only on frames whose time changed; culling does not depend on it.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#include "voxel/mesh/voxel_layout.h"

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
  // Two incommensurate waves with a per-tree phase: neighbours never sway in lockstep.
  float wave = fract(sin(dot(p.xz, vec2(12.9898, 78.233))) * 43758.5453) * 6.2831853;
  float amplitude = 0.04 * height;
  sway[id] = amplitude * vec2(sin(pc.time * 1.3 + wave), 0.6 * sin(pc.time * 2.1 + wave * 1.7));
}
