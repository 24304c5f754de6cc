// Per-entity culling and LOD choice for VAT crowds (SPEC C8): frustum test of a yaw-invariant bounding
// sphere, LOD from the squared camera distance against diameter-scaled switch distances, the two-phase
// Hi-Z rule (hiz.glsl; the pyramid only in crowd_cull_hiz.comp), and an append to the (type, LOD)
// draw slot. Same expressions, same order as crowd::cull_entities (CPU reference).
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "crowd_layout.h"
#include "frustum.glsl"
#include "bounded_append.glsl"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Entities { CrowdEntity entities[]; };
layout(binding = 1, scalar) readonly buffer Types { CrowdTypeGpu types[]; };
layout(binding = 2, scalar) buffer Commands { DrawIndexedCommand commands[]; };
layout(binding = 3, scalar) writeonly buffer Visible { uint visible[]; };
layout(binding = 4, scalar) buffer Overflow { uint overflow; };
#define HIZ_FIRST_BINDING 5  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"

layout(push_constant, scalar) uniform Push { CrowdCullPush pc; };

int select_level(float distance_sq, float diameter) {
  if (pc.forced_level >= 0) return min(pc.forced_level, CROWD_LOD_COUNT - 1);
  int level = 0;
  for (int k = 0; k < CROWD_LOD_COUNT - 1; ++k) {
    precise float switch_distance = diameter * pc.switch_ratio[k];
    precise float switch_sq = switch_distance * switch_distance;
    if (distance_sq >= switch_sq) ++level;
  }
  return level;
}

void main() {
  // Every index is bounded by the buffers it reads, not only by the CPU's counts. No early return:
  // the two-phase rule counts with subgroup operations.
  uint id = gl_GlobalInvocationID.x;
  uint type_count = pc.types_phase & 0xffffu;
  uint phase = pc.types_phase >> 16;
  bool in_range = id < min(min(pc.entity_count, uint(entities.length())), uint(visibility.length()));
  bool passed = false;
  vec4 sphere = vec4(0.0);
  uint slot = 0u;
  if (in_range) {
    CrowdEntity e = entities[id];
    uint type = e.type_clip & 0xffffu;
    // The CPU side rejects entities of unknown types before upload.
    if (type < min(type_count, uint(types.length()))) {
      float scale = unpackHalf2x16(e.yaw_scale).y;
      precise float radius = types[type].bound_radius * scale;
      sphere = vec4(e.position, radius);
      if (frustum_intersects_sphere(pc.planes, sphere)) {
        precise vec3 d = e.position - pc.camera;
        precise float distance_sq = d.x * d.x + d.y * d.y + d.z * d.z;
        precise float diameter = types[type].diameter * scale;
        slot = type * CROWD_LOD_COUNT + uint(select_level(distance_sq, diameter));
        passed = slot < uint(commands.length());
      }
    }
  }
  precise vec3 lo = sphere.xyz - sphere.w;
  precise vec3 hi = sphere.xyz + sphere.w;
  if (!hiz_phase_keep(phase, in_range, id, passed, lo, hi)) return;
  // Each slot of a type holds the type's entity count (the CPU sized the list for that), and never
  // runs past the list.
  uint type = slot / CROWD_LOD_COUNT;
  uint first = commands[slot].first_instance;
  uint size = uint(visible.length());
  uint capacity = min(types[type].slot_capacity, size - min(first, size));
  uint index;
  BOUNDED_APPEND(commands[slot].instance_count, 1u, capacity, index);
  if (index < capacity) visible[first + index] = id;
}
