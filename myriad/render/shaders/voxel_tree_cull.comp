#version 460
// Voxel trees (V15): once per tree per frame, the wind sway (written for the vertex shader to apply),
// then slice, frustum and distance tests into the visible list of the trees' instanced draw.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#include "frustum.glsl"
#include "bounded_append.glsl"
#include "voxel/voxel_layout.h"

layout(local_size_x = 64) in;
layout(binding = 0, scalar) readonly buffer Trees { TreeInstance trees[]; };
layout(binding = 1, scalar) buffer Draws { DrawCommand draw; };
layout(binding = 2, scalar) writeonly buffer Visible { uint visible[]; };
layout(binding = 3, scalar) writeonly buffer Sway { vec2 sway[]; };
layout(binding = 4, scalar) buffer Overflow { uint overflow; };
layout(push_constant, scalar) uniform Push { VoxelVegetationCullPush pc; };

void main() {
  // Bounded by the buffers it reads and writes, not only by the CPU's capacity.
  uint id = gl_GlobalInvocationID.x;
  if (id >= min(min(pc.capacity, uint(trees.length())), uint(sway.length()))) return;
  TreeInstance t = trees[id];
  if ((t.type_height & 0xFFFFu) == MYRIAD_EMPTY_TEMPLATE) return;
  vec3 p = vec3(t.px, t.py, t.pz);
  float height = float(t.type_height >> 16) / 16.0;
  // Two incommensurate waves with a per-tree phase: neighbours never sway in lockstep.
  float phase = fract(sin(dot(p.xz, vec2(12.9898, 78.233))) * 43758.5453) * 6.2831853;
  float amplitude = 0.04 * height;
  sway[id] = amplitude * vec2(sin(pc.time * 1.3 + phase), 0.6 * sin(pc.time * 2.1 + phase * 1.7));
  if (p.y > pc.slice_height) return;
  if (!frustum_intersects_sphere(pc.planes, vec4(p + vec3(0.0, 0.5 * height, 0.0), 0.75 * height + 1.5))) return;
  if (distance(pc.camera.xyz, p) > pc.max_distance) return;
  uint slot;
  uint capacity = min(pc.capacity, uint(visible.length()));  // one list entry per tree slot
  BOUNDED_APPEND(draw.instance_count, 1u, capacity, slot);
  if (slot < capacity) visible[slot] = id;
}
