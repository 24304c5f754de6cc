// What the voxel grass and tree culling passes share (V14, V15): their layouts and helpers, the push
// constant and its decoding, and the view tests every candidate takes before the two-phase rule.
// Included before the pass's own bindings, with RANGES_BINDING defined (the pass's live ranges).
#ifndef MYRIAD_VOXEL_VEGETATION_CULL_GLSL
#define MYRIAD_VOXEL_VEGETATION_CULL_GLSL

#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#include "frustum.glsl"
#include "bounded_append.glsl"
#include "voxel/mesh/voxel_layout.h"

layout(local_size_x = 64) in;
layout(push_constant, scalar) uniform Push { VoxelVegetationCullPush pc; };

#define VEGETATION_RANGES_BINDING RANGES_BINDING
#include "voxel_vegetation_ranges.glsl"

// The instance slots of the pass (grass or trees) and its CULL_PHASE_*.
uint cull_slots() { return pc.capacity_phase & 0x3FFFFFFFu; }
uint cull_phase() { return pc.capacity_phase >> 30; }

// Slice, frustum and distance: an instance rooted at `root` with bounds `sphere` is in view.
bool in_view(vec3 root, vec4 sphere) {
  return !(root.y > pc.slice_height) && frustum_intersects_sphere(pc.planes, sphere) &&
         !(distance(pc.camera.xyz, root) > pc.max_distance);
}

#endif
