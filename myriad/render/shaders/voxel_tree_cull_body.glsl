// Voxel trees (V15): one thread per live tree (its slot from the live ranges): slice, frustum and
// distance tests and the two-phase Hi-Z rule (hiz.glsl; the pyramid only in voxel_tree_cull_hiz.comp)
// into the visible list of the trees' instanced draw. The wind is voxel_tree_wind.comp's.
#extension GL_GOOGLE_include_directive : require
#define RANGES_BINDING 3
#include "voxel_vegetation_cull.glsl"

layout(binding = 0, scalar) readonly buffer Trees { TreeInstance trees[]; };
layout(binding = 1, scalar) buffer Draws { DrawCommand draw; };
layout(binding = 2, scalar) writeonly buffer Visible { uint visible[]; };
layout(binding = 4, scalar) buffer Overflow { uint overflow; };
#define HIZ_FIRST_BINDING 5  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"

void main() {
  // Bounded by the buffers it reads and writes, not only by the CPU's capacity. No early return: the
  // two-phase rule counts with subgroup operations.
  uint slots = cull_slots();
  uint phase = cull_phase();
  uint id;
  bool in_range = live_slot(gl_GlobalInvocationID.x, id) &&
                  id < min(min(slots, uint(trees.length())), uint(visibility.length()));
  bool candidate = false, passed = false;
  vec4 sphere = vec4(0.0);
  if (in_range) {
    TreeInstance t = trees[id];
    candidate = (t.type_height & 0xFFFFu) != MYRIAD_EMPTY_TEMPLATE;
    vec3 p = vec3(t.px, t.py, t.pz);
    float height = float(t.type_height >> 16) / 16.0;
    sphere = vec4(p + vec3(0.0, 0.5 * height, 0.0), 0.75 * height + 1.5);
    passed = candidate && in_view(p, sphere);
  }
  precise vec3 lo = sphere.xyz - sphere.w;
  precise vec3 hi = sphere.xyz + sphere.w;
  if (!hiz_phase_keep(phase, candidate, id, passed, lo, hi)) return;
  uint slot;
  uint capacity = min(slots, uint(visible.length()));  // one list entry per tree slot
  BOUNDED_APPEND(draw.instance_count, 1u, capacity, slot);
  if (slot < capacity) visible[slot] = id;
}
