// Body of the vegetation culling pass, shared by veg_cull.comp (frustum + LOD) and veg_cull_hiz.comp
// (adds the Hi-Z occlusion test of hiz.glsl: HIZ_TEST is defined). See veg_cull.comp for the contract.
#extension GL_EXT_scalar_block_layout : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_GOOGLE_include_directive : require
#include "veg_cull_layout.h"
#include "vegetation/runtime/vegetation_gpu_layout.h"
#include "frustum.glsl"

layout(local_size_x = VEG_PAGE_SLOTS) in;

layout(binding = 0, scalar) readonly buffer Records { PlantRecord records[]; };
layout(binding = 1, scalar) readonly buffer Pages { PlantPage pages[]; };
layout(binding = 2, scalar) readonly buffer Decode { float decode[]; };
layout(binding = 3, scalar) readonly buffer Params { VegCullParams params; };
layout(binding = 4, scalar) readonly buffer LivePages { uint live_pages[]; };
layout(binding = 5, scalar) writeonly buffer Lists { uint lists[]; };  // two regions of list pairs
layout(binding = 6, scalar) buffer Args {
  DrawIndexedCommand args[VEG_LISTS];
  uint overflow;
  uint region_used[2];
};

layout(push_constant, scalar) uniform Push { VegCullPush pc; };

#define HIZ_FIRST_BINDING 7  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"
#include "veg_expand.glsl"

// Hashed LOD and the cross-fade threshold, exactly vegetation::pick_lod_hashed: `e` is the scaled
// squared distance, fading when it lies in the LOD's band [fade_start_sq, switch_sq). The threshold q
// grows linearly with e across the band (0 at its start, 255 at the switch), so the incoming LOD takes
// over gradually; a subtraction, a multiply by the CPU's reciprocal and a truncation give the same q as
// the CPU.
uint select_lod(vec3 o, float hash, out bool fading, out uint q) {
  precise float d2 = o.x * o.x + o.y * o.y + o.z * o.z;
  precise float f = 1.0 + params.band * (hash - 0.5);
  precise float e = d2 * f * f;
  uint lod = 0;
  while (lod < params.lod_count && !(e < params.switch_sq[lod])) ++lod;
  fading = lod < params.lod_count && e >= params.fade_start_sq[lod];
  q = 0u;
  if (fading) {
    precise float t = (e - params.fade_start_sq[lod]) * params.fade_inv[lod];
    precise float scaled = clamp(t, 0.0, 1.0) * 255.0;
    q = uint(scaled);
  }
  return lod;
}

void main() {
  // Every index is bounded by the buffers it reads and writes, not only by the CPU's counts: the live
  // list, the page table, the records and visibility words (the slot), and the list regions.
  uint list_index = pc.first_page + gl_WorkGroupID.x;
  uint local_id = gl_LocalInvocationID.x;
  uint capacity = min(min(params.capacity, uint(lists.length()) / 2u), VEG_SLOT_MASK + 1u);
  bool in_range = list_index < min(pc.page_count, uint(live_pages.length()));
  uint page_index = in_range ? live_pages[list_index] : 0u;
  in_range = in_range && page_index < uint(pages.length());
  PlantPage page = pages[in_range ? page_index : 0u];
  uint id = page_index * VEG_PAGE_SLOTS + local_id;
  uint slots = min(min(uint(records.length()), uint(visibility.length())), capacity);
  in_range = in_range && local_id < page.count && id < slots;
  bool fading = false;
  uint q = 0u;
  uint lod = VEG_LISTS;
  bool passed = false;
  vec4 s = vec4(0.0);
  if (in_range) {
    PlantMatrix m = expand_plant_matrix(records[id], page);
    vec4 type_sphere = plant_sphere(m, page, params.sphere_mid, params.sphere_radius);
    float hash = plant_lod_hash(page.tile_x, page.tile_z, page.group, page.group_first + local_id);
    precise vec3 o = type_sphere.xyz - pc.camera;
    lod = select_lod(o, hash, fading, q);
    // Culled with the picked LOD's own sphere (the one enclosing both LODs while fading into the next).
    uint l = min(lod, VEG_LISTS - 1u);
    bool into_next = fading && lod + 1u < params.lod_count;
    s = plant_sphere(m, page, into_next ? params.fade_mid[l] : params.lod_mid[l],
                     into_next ? params.fade_radius[l] : params.lod_radius[l]);
    passed = lod < params.lod_count && frustum_intersects_sphere(pc.planes, s);
  }
  // Two-phase occlusion (hiz.glsl): the early pass only takes last frame's visible instances (drawn
  // before the pyramid is built); the late pass tests everything against the new pyramid, records
  // visibility for the next frame and appends only what the early pass did not draw.
  precise vec3 lo = s.xyz - s.w;
  precise vec3 hi = s.xyz + s.w;
  bool visible = hiz_phase_keep(pc.phase, in_range, id, passed, lo, hi);
  // A fading instance goes into its LOD's list (fading out) and the next LOD's list (fading in).
  bool fade_in_next = visible && fading && lod + 1u < params.lod_count;
  for (uint l = 0; l < VEG_LISTS; ++l) {
    bool mine = visible && lod == l;
    bool incoming = fade_in_next && lod + 1u == l;
    uvec4 ballot = subgroupBallot(mine || incoming);
    uint total = subgroupBallotBitCount(ballot);
    uint index = 0u, granted = 0u;
    if (subgroupElect() && total > 0u) {
      // Room in the pair's region first (clamped back once full, as bounded_append.glsl does), then
      // the place in this LOD's own list.
      uint used = atomicAdd(region_used[l / 2u], total);
      granted = used >= capacity ? 0u : min(total, capacity - used);
      if (granted < total) {
        atomicAdd(overflow, total - granted);
        atomicMin(region_used[l / 2u], capacity);
      }
      if (granted > 0u) {
        index = atomicAdd(args[l].instance_count, granted);
        // A downward list starts where its last entry is.
        if ((l & 1u) == 1u) atomicMin(args[l].first_instance, (l / 2u + 1u) * capacity - (index + granted));
      }
    }
    index = subgroupBroadcastFirst(index);
    granted = subgroupBroadcastFirst(granted);
    uint k = subgroupBallotExclusiveBitCount(ballot);
    uint region = (l / 2u) * capacity;
    uint slot = (l & 1u) == 0u ? region + index + k : region + capacity - 1u - (index + k);
    if ((mine || incoming) && k < granted && slot < uint(lists.length()))
      lists[slot] = id | (incoming ? VEG_FADE_IN : 0u) | (q << VEG_FADE_Q_SHIFT);
  }
}
