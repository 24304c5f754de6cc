#version 460
// Voxel grass (V15): one thread per instance slot; slice, frustum and distance tests, then the near
// (two crossed quads) or far (camera-facing billboard) list by distance to the camera.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_layout.h"
#include "frustum.glsl"
#include "bounded_append.glsl"
#include "voxel/voxel_layout.h"

layout(local_size_x = 64) in;
layout(binding = 0, scalar) readonly buffer Grass { GrassInstance grass[]; };
layout(binding = 1, scalar) buffer Draws { DrawCommand draws[2]; };  // [0] near, [1] far
layout(binding = 2, scalar) writeonly buffer Visible { uint visible[]; };  // near at 0, far at capacity
layout(binding = 3, scalar) buffer Overflow { uint overflow; };
layout(push_constant, scalar) uniform Push { VoxelVegetationCullPush pc; };

void main() {
  // Bounded by the buffers, not only by the CPU's capacity: each LOD's list is half of `visible`.
  uint capacity = min(pc.capacity, uint(visible.length()) / 2u);
  uint id = gl_GlobalInvocationID.x;
  if (id >= min(pc.capacity, uint(grass.length()))) return;
  GrassInstance g = grass[id];
  if ((g.template_light & 0xFFFFu) == MYRIAD_EMPTY_TEMPLATE) return;
  vec3 p = vec3(g.px, g.py, g.pz);
  if (p.y > pc.slice_height) return;
  if (!frustum_intersects_sphere(pc.planes, vec4(p + vec3(0.0, 0.5, 0.0), 0.75))) return;
  float d = distance(pc.camera.xyz, p);
  if (d > pc.max_distance) return;
  uint lod = d < pc.camera.w ? 0u : 1u;
  uint slot;
  BOUNDED_APPEND(draws[lod].instance_count, 1u, capacity, slot);
  if (slot < capacity) visible[lod * pc.capacity + slot] = id;
}
