// Body of the vegetation culling pass, shared by veg_cull.comp (frustum + LOD) and veg_cull_hiz.comp
// (adds the Hi-Z occlusion test of hiz.glsl: HIZ_TEST is defined). See veg_cull.comp for the contract.
#extension GL_EXT_scalar_block_layout : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_GOOGLE_include_directive : require
#include "veg_cull_layout.h"
#include "frustum.glsl"
#include "bounded_append.glsl"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Spheres { vec4 spheres[]; };  // xyz centre, w radius
layout(binding = 1, scalar) readonly buffer Hashes { float hashes[]; };
layout(binding = 2, scalar) readonly buffer Params { VegCullParams params; };
layout(binding = 3, scalar) writeonly buffer Lists { uint lists[]; };  // lod * capacity + slot
// VegCullArgs: one draw per LOD list, then the overflow word of bounded_append.glsl.
layout(binding = 4, scalar) buffer Args {
  DrawIndexedCommand args[VEG_LISTS];
  uint overflow;
};


layout(push_constant, scalar) uniform Push { VegCullPush pc; };

#define HIZ_FIRST_BINDING 5  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"

// Hashed LOD (select_lod_hashed) and the cross-fade threshold: `e` is the scaled squared distance,
// fading when it lies in the LOD's band [fade_start_sq, switch_sq). The threshold q grows linearly with
// distance across the band (0 at its start, 65535 at the switch), so the incoming LOD takes over
// gradually; only its band membership has a CPU reference (pick_lod_hashed), q just has to be the same
// word for both entries, which it is (computed once here).
uint select_lod(vec3 o, float hash, out bool fading, out uint q) {
  precise float d2 = o.x * o.x + o.y * o.y + o.z * o.z;
  precise float f = 1.0 + params.band * (hash - 0.5);
  precise float e = d2 * f * f;
  uint lod = 0;
  while (lod < params.lod_count && !(e < params.switch_sq[lod])) ++lod;
  fading = lod < params.lod_count && e >= params.fade_start_sq[lod];
  q = 0u;
  if (fading) {
    float a = sqrt(params.fade_start_sq[lod]), b = sqrt(params.switch_sq[lod]);
    q = uint(clamp((sqrt(e) - a) / max(b - a, 1e-6), 0.0, 1.0) * 65535.0);
  }
  return lod;
}

void main() {
  uint local_id = gl_GlobalInvocationID.x;
  uint id = pc.first + local_id;
  bool visible = false;
  bool fading = false;
  uint q = 0u;
  uint lod = 4;
  // Every index is bounded by the buffers it reads and writes, not only by the CPU's count: the
  // per-instance arrays (spheres, hashes, visibility) and the lists, whose capacity per LOD is a
  // quarter of the first half of `lists` (the second half holds the fade words).
  uint capacity = min(params.capacity, lists.length() / (2u * VEG_LISTS));
  uint instances = min(min(uint(spheres.length()), uint(hashes.length())), uint(visibility.length()));
  bool in_range = local_id < pc.count && id < instances;
  bool passed = false;
  vec4 s = vec4(0.0);
  if (in_range) {
    s = spheres[id];
    precise vec3 o = s.xyz - pc.camera;
    lod = select_lod(o, hashes[id], fading, q);
    passed = lod < params.lod_count && frustum_intersects_sphere(pc.planes, s);
  }
  // Two-phase occlusion (hiz.glsl): the early pass only takes last frame's visible instances (drawn
  // before the pyramid is built); the late pass tests everything against the new pyramid, records
  // visibility for the next frame and appends only what the early pass did not draw.
  precise vec3 lo = s.xyz - s.w;
  precise vec3 hi = s.xyz + s.w;
  visible = hiz_phase_keep(pc.phase, in_range, id, passed, lo, hi);
  // A fading instance goes into its LOD's list (fading out) and the next LOD's list (fading in).
  bool fade_in_next = visible && fading && lod + 1u < params.lod_count;
  uint fade_base = VEG_LISTS * params.capacity;  // == half of `lists` when capacity is its own
  for (uint l = 0; l < VEG_LISTS; ++l) {
    bool mine = visible && lod == l;
    bool incoming = fade_in_next && lod + 1u == l;
    uvec4 ballot = subgroupBallot(mine || incoming);
    uint total = subgroupBallotBitCount(ballot);
    uint base = 0;
    if (subgroupElect() && total > 0) BOUNDED_APPEND(args[l].instance_count, total, capacity, base);
    base = subgroupBroadcastFirst(base);
    uint index = base + subgroupBallotExclusiveBitCount(ballot);
    uint slot = l * params.capacity + index;
    if ((mine || incoming) && index < capacity && fade_base + slot < uint(lists.length())) {
      lists[slot] = id;
      lists[fade_base + slot] = incoming ? (VEG_FADE_IN | q) : q;
    }
  }
}
