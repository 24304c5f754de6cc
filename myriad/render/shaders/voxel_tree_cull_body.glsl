// Voxel trees (V15): once per tree per frame (single or early pass), the wind sway (written for the
// vertex shader to apply); then slice, frustum and distance tests and the two-phase Hi-Z rule
// (hiz.glsl; the pyramid only in voxel_tree_cull_hiz.comp) into the visible list of the trees'
// instanced draw.
#extension GL_GOOGLE_include_directive : require
#include "voxel_vegetation_cull.glsl"

layout(binding = 0, scalar) readonly buffer Trees { TreeInstance trees[]; };
layout(binding = 1, scalar) buffer Draws { DrawCommand draw; };
layout(binding = 2, scalar) writeonly buffer Visible { uint visible[]; };
layout(binding = 3, scalar) writeonly buffer Sway { vec2 sway[]; };
layout(binding = 4, scalar) buffer Overflow { uint overflow; };
#define HIZ_FIRST_BINDING 5  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"

void main() {
  // Bounded by the buffers it reads and writes, not only by the CPU's capacity. No early return: the
  // two-phase rule counts with subgroup operations.
  uint slots = cull_slots();
  uint phase = cull_phase();
  uint id = gl_GlobalInvocationID.x;
  bool in_range = id < min(min(min(slots, uint(trees.length())), uint(sway.length())), uint(visibility.length()));
  bool candidate = false, passed = false;
  vec4 sphere = vec4(0.0);
  if (in_range) {
    TreeInstance t = trees[id];
    candidate = (t.type_height & 0xFFFFu) != MYRIAD_EMPTY_TEMPLATE;
    vec3 p = vec3(t.px, t.py, t.pz);
    float height = float(t.type_height >> 16) / 16.0;
    if (candidate && phase != CULL_PHASE_LATE) {
      // Two incommensurate waves with a per-tree phase: neighbours never sway in lockstep.
      float wave = fract(sin(dot(p.xz, vec2(12.9898, 78.233))) * 43758.5453) * 6.2831853;
      float amplitude = 0.04 * height;
      sway[id] = amplitude * vec2(sin(pc.time * 1.3 + wave), 0.6 * sin(pc.time * 2.1 + wave * 1.7));
    }
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
