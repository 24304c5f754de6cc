// Voxel grass (V15): one thread per live instance (its slot from the live ranges); slice, frustum and distance tests, the two-phase
// Hi-Z rule (hiz.glsl; the pyramid only in voxel_grass_cull_hiz.comp), then the near (two crossed
// quads) or far (camera-facing billboard) list by distance to the camera.
#extension GL_GOOGLE_include_directive : require
#define RANGES_BINDING 4
#include "voxel_vegetation_cull.glsl"

layout(binding = 0, scalar) readonly buffer Grass { GrassInstance grass[]; };
layout(binding = 1, scalar) buffer Draws { DrawCommand draws[2]; };  // [0] near, [1] far
layout(binding = 2, scalar) writeonly buffer Visible { uint visible[]; };  // near at 0, far at capacity
layout(binding = 3, scalar) buffer Overflow { uint overflow; };
#define HIZ_FIRST_BINDING 5  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"

void main() {
  // Bounded by the buffers, not only by the CPU's capacity: each LOD's list is half of `visible`.
  // No early return: the two-phase rule counts with subgroup operations.
  uint slots = cull_slots();
  uint capacity = min(slots, uint(visible.length()) / 2u);
  uint id;
  bool in_range = live_slot(gl_GlobalInvocationID.x, id) &&
                  id < min(min(slots, uint(grass.length())), uint(visibility.length()));
  bool candidate = false, passed = false;
  vec4 sphere = vec4(0.0);
  float d = 0.0;
  if (in_range) {
    GrassInstance g = grass[id];
    vec3 p = vec3(g.px, g.py, g.pz);
    sphere = vec4(p, MYRIAD_GRASS_REACH);  // every vertex however the tuft tilts, sways or is trodden
    candidate = (g.template_light & 0xFFFFu) != MYRIAD_EMPTY_TEMPLATE;
    d = distance(pc.camera.xyz, p);
    passed = candidate && in_view(p, sphere);
  }
  precise vec3 lo = sphere.xyz - sphere.w;
  precise vec3 hi = sphere.xyz + sphere.w;
  if (!hiz_phase_keep(cull_phase(), candidate, id, passed, lo, hi)) return;
  uint lod = d < pc.camera.w ? 0u : 1u;
  uint slot;
  BOUNDED_APPEND(draws[lod].instance_count, 1u, capacity, slot);
  if (slot < capacity) visible[lod * slots + slot] = id;
}
