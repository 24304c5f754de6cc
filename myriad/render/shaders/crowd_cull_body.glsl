// Per-entity culling and LOD choice for VAT crowds (SPEC C8): frustum test of a yaw-invariant bounding
// sphere, LOD from the squared camera distance against diameter-scaled switch distances with
// cross-fade bands and hysteresis (crowd::decide_lod: the entity's state word is read as the previous
// frame's and rewritten, for every entity of a known type), the two-phase Hi-Z rule (hiz.glsl; the
// pyramid only in crowd_cull_hiz.comp), and an append to the (type, LOD) draw slot — to two slots with
// complementary dither entries while the entity is inside a band. Same expressions, same order as
// crowd::cull_entities (CPU reference).
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
layout(binding = 5, scalar) buffer Fading { uint fading_count; };   // visible entities inside a band
layout(binding = 6, scalar) buffer LodState { uint lod_state[]; };  // one CROWD_LOD_* word per entity
#define HIZ_FIRST_BINDING 7  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"

layout(push_constant, scalar) uniform Push { CrowdCullPush pc; };

int select_level(float distance_sq, float diameter, int forced_level) {
  if (forced_level >= 0) return min(forced_level, CROWD_LOD_COUNT - 1);
  int level = 0;
  for (int k = 0; k < CROWD_LOD_COUNT - 1; ++k) {
    precise float switch_distance = diameter * pc.switch_ratio[k];
    precise float switch_sq = switch_distance * switch_distance;
    if (distance_sq >= switch_sq) ++level;
  }
  return level;
}

// crowd::band_boundary: boundary j (0..256) of the band around `switch_distance`.
float band_boundary(float switch_distance, uint j) {
  precise float lower = 1.0 - 128.0 * pc.band_step;
  precise float factor = lower + float(j) * pc.band_step;
  precise float b = switch_distance * factor;
  return b;
}

// crowd::decide_lod, operation for operation.
uint decide_lod(float distance_sq, float diameter, uint previous) {
  uint beyond = 0u;
  for (uint k = 0u; k + 1u < uint(CROWD_LOD_COUNT); ++k) {
    precise float switch_distance = diameter * pc.switch_ratio[k];
    precise float near_edge = band_boundary(switch_distance, 0u);
    precise float far_edge = band_boundary(switch_distance, CROWD_FADE_STEPS);
    precise float far_sq = far_edge * far_edge;
    precise float near_sq = near_edge * near_edge;
    if (distance_sq >= far_sq) {
      ++beyond;
      continue;
    }
    if (!(distance_sq >= near_sq)) break;
    uint q = 0u;
    for (uint bit = CROWD_FADE_STEPS / 2u; bit != 0u; bit >>= 1) {
      precise float b = band_boundary(switch_distance, q + bit);
      precise float b_sq = b * b;
      if (distance_sq >= b_sq) q += bit;
    }
    uint prev = previous & CROWD_LOD_LEVEL_MASK;
    uint level = prev == CROWD_LOD_NONE ? (q >= CROWD_FADE_STEPS / 2u ? k + 1u : k) : clamp(prev, k, k + 1u);
    return level | CROWD_LOD_FADING | (k << CROWD_LOD_BAND_SHIFT) | (q << CROWD_LOD_Q_SHIFT);
  }
  return beyond;
}

// One bounded append of `entry` to draw slot `slot`.
void append(uint slot, uint entry) {
  // Each slot of a type holds the type's entity count (the CPU sized the list for that), and never
  // runs past the list.
  uint type = slot / CROWD_LOD_COUNT;
  uint first = commands[slot].first_instance;
  uint size = uint(visible.length());
  uint capacity = min(types[type].slot_capacity, size - min(first, size));
  uint index;
  BOUNDED_APPEND(commands[slot].instance_count, 1u, capacity, index);
  if (index < capacity) visible[first + index] = entry;
}

void main() {
  // Every index is bounded by the buffers it reads, not only by the CPU's counts. No early return
  // before the two-phase rule: it counts with subgroup operations.
  uint id = gl_GlobalInvocationID.x;
  uint type_count = pc.types_phase & 0xffffu;
  uint phase = (pc.types_phase >> 16) & 0xffu;
  int forced_level = int(pc.types_phase >> 24) - 1;
  bool in_range = id < min(min(pc.entity_count, uint(entities.length())), uint(visibility.length())) &&
                  id < uint(lod_state.length()) && id <= CROWD_ENTRY_ID_MASK;
  bool passed = false;
  bool fading = false;  // listed in two slots: slot (LOD k) and slot + 1 (LOD k+1)
  vec4 sphere = vec4(0.0);
  uint slot = 0u;
  uint state = 0u;
  if (in_range) {
    CrowdEntity e = entities[id];
    uint type = e.type_clip & 0xffffu;
    // The CPU side rejects entities of unknown types before upload.
    if (type < min(type_count, uint(types.length()))) {
      float scale = unpackHalf2x16(e.yaw_scale).y;
      precise vec3 d = e.position - pc.camera;
      precise float distance_sq = d.x * d.x + d.y * d.y + d.z * d.z;
      precise float diameter = types[type].diameter * scale;
      state = decide_lod(distance_sq, diameter, lod_state[id]);
      lod_state[id] = state;
      precise float radius = types[type].bound_radius * scale;
      sphere = vec4(e.position, radius);
      if (frustum_intersects_sphere(pc.planes, sphere)) {
        fading = forced_level < 0 && (state & CROWD_LOD_FADING) != 0u;
        uint level = forced_level >= 0 ? uint(select_level(distance_sq, diameter, forced_level))
                     : fading          ? (state >> CROWD_LOD_BAND_SHIFT) & 1u
                                       : state & CROWD_LOD_LEVEL_MASK;
        slot = type * CROWD_LOD_COUNT + level;
        passed = slot + (fading ? 1u : 0u) < uint(commands.length());
      }
    }
  }
  precise vec3 lo = sphere.xyz - sphere.w;
  precise vec3 hi = sphere.xyz + sphere.w;
  bool keep = hiz_phase_keep(phase, in_range, id, passed, lo, hi);
  HIZ_COUNT(fading_count, keep && fading);
  if (!keep) return;
  if (!fading) {
    append(slot, id);
    return;
  }
  // Inside band k: slot is LOD k's; LOD k+1 gets the incoming entry. The entity's own level casts.
  uint level = state & CROWD_LOD_LEVEL_MASK;
  uint k = slot % CROWD_LOD_COUNT;
  uint entry = id | (((state >> CROWD_LOD_Q_SHIFT) & 0xffu) << CROWD_ENTRY_Q_SHIFT);
  append(slot, entry | (level != k ? CROWD_ENTRY_SECONDARY : 0u));
  append(slot + 1u, entry | CROWD_ENTRY_INCOMING | (level != k + 1u ? CROWD_ENTRY_SECONDARY : 0u));
}
