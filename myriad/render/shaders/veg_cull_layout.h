// Layouts of the vegetation culling pass (veg_cull.comp), shared by C++ and GLSL.
#ifndef MYRIAD_VEG_CULL_LAYOUT_H
#define MYRIAD_VEG_CULL_LAYOUT_H

#include "shared_types.h"
#include "hiz_layout.h"  // the phase word (CULL_PHASE_*), the pyramid's parameters, the counters
#ifdef __cplusplus
#include "myriad/vegetation/runtime/vegetation_gpu_layout.h"  // the list entry's bits
#else
#include "vegetation/runtime/vegetation_gpu_layout.h"
#endif

// List entries (vegetation_gpu_layout.h): one word per listed instance, its pool slot in the low
// VEG_SLOT_BITS bits, VEG_FADE_IN and the 8-bit fade threshold q (0..255) above. VEG_FADE_IN set: the pixel
// is drawn where the screen dither value is below q (the incoming LOD), clear: where it is at or above q (the
// outgoing LOD, or a plain instance with q = 0). Both entries of a fading instance carry the same q, so the
// two masks are exact complements.
//
// The lists buffer holds two regions of `capacity` words (the pool's slots), each shared by a pair of
// LOD lists: LOD 0 grows up from the start of region 0 and LOD 1 down from its end, LODs 2 and 3 the
// same in region 1 (first_instance of a downward list is lowered as it grows). An append first reserves
// room in its region (region_used), so the pair never overlaps whatever the LOD mix; an instance takes
// one entry, two while it cross-fades.
#define VEG_LISTS 4u
#define VEG_ARGS_BYTES 92
MYRIAD_SHADER_NAMESPACE_BEGIN
// One workgroup per pool page of the live page list (a storage range the CPU fills per cull: the pages
// of live segments that passed the group test), from `first_page` of `page_count`. Planes and camera are
// relative to the render origin (the frame the page offsets are in).
struct VegCullPush {
  vec4 planes[6];
  vec3 camera;
  uint first_page;
  uint page_count;
  uint phase;  // CULL_PHASE_*
  uint pad1;
  uint pad2;
};
// Per type: squared LOD switch distances (the last is the draw distance), the squared distances where
// each LOD's cross-fade band starts (== switch_sq: no band), their number (<= 4), the hash band
// (myriad::vegetation::HashedLod), the pool's slots (the size of each list region), the type's
// bounding sphere per unit scale (vegetation::PlantSphereShape: picks the LOD) and the culling sphere of
// each LOD and of each LOD's cross-fade into the next (vegetation::PlantLodShapes).
struct VegCullParams {
  vec4 switch_sq;
  vec4 fade_start_sq;
  uint lod_count;
  float band;
  uint capacity;
  float sphere_mid;
  float sphere_radius;
  uint pad0;
  uint pad1;
  uint pad2;
  vec4 fade_inv;  // 1 / (switch_sq - fade_start_sq) per LOD, 0 without a band
  vec4 lod_mid;
  vec4 lod_radius;
  vec4 fade_mid;
  vec4 fade_radius;
};
// The args buffer: one indexed indirect draw per LOD list, the number of appends that found their
// region full (nothing was written for them), and the words reserved in each region.
struct VegCullArgs {
  DrawIndexedCommand args[4];
  uint overflow;
  uint region_used[2];
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(VegCullPush, 128, planes, 0, camera, 96, first_page, 108, page_count, 112, phase, 116,
                    pad1, 120, pad2, 124);
MYRIAD_CHECK_LAYOUT(VegCullParams, 144, switch_sq, 0, fade_start_sq, 16, lod_count, 32, band, 36, capacity,
                    40, sphere_mid, 44, sphere_radius, 48, pad0, 52, pad1, 56, pad2, 60, fade_inv, 64,
                    lod_mid, 80, lod_radius, 96, fade_mid, 112, fade_radius, 128);
MYRIAD_CHECK_LAYOUT(VegCullArgs, VEG_ARGS_BYTES, args, 0, overflow, 80, region_used, 84);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
