#version 460
// Frustum culling with subgroup-aggregated compaction: each subgroup reserves its survivors' slots
// with one atomic, without assuming a subgroup size (8 on lavapipe, 32 on NVIDIA).
#extension GL_EXT_scalar_block_layout : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_GOOGLE_include_directive : require
#include "cull_layout.h"
#include "frustum.glsl"
#include "bounded_append.glsl"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Spheres { vec4 spheres[]; };  // xyz centre, w radius
layout(binding = 1, scalar) writeonly buffer Commands { DrawIndexedCommand commands[]; };
layout(binding = 2, scalar) buffer Count { uint draw_count; };
layout(binding = 3, scalar) buffer Overflow { uint overflow; };

layout(push_constant, scalar) uniform Push { CullSpheresPush pc; };

void main() {
  uint id = gl_GlobalInvocationID.x;
  bool visible = false;
  if (id < min(pc.sphere_count, uint(spheres.length()))) {  // bounded by the buffer too
    visible = frustum_intersects_sphere(pc.planes, spheres[id]);
  }
  uvec4 ballot = subgroupBallot(visible);
  uint total = subgroupBallotBitCount(ballot);
  uint base = 0;
  uint capacity = min(pc.command_capacity, uint(commands.length()));
  if (subgroupElect() && total > 0) BOUNDED_APPEND(draw_count, total, capacity, base);
  base = subgroupBroadcastFirst(base);
  uint slot = base + subgroupBallotExclusiveBitCount(ballot);
  if (visible && slot < capacity) commands[slot] = DrawIndexedCommand(pc.index_count, 1, pc.first_index, 0, id);
}
