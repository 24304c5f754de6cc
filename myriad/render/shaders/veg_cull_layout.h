// Layouts of the vegetation culling pass (veg_cull.comp), shared by C++ and GLSL.
#ifndef MYRIAD_VEG_CULL_LAYOUT_H
#define MYRIAD_VEG_CULL_LAYOUT_H

#include "shared_types.h"
#include "hiz_layout.h"  // the phase word (CULL_PHASE_*), the pyramid's parameters, the counters

// Cross-fade words: the lists buffer holds, after the kGpuMaxLods instance lists, one word per list slot
// (same index + VEG_LISTS * capacity). Low 16 bits: the fade threshold q (0..65535); VEG_FADE_IN set:
// the pixel is drawn where the screen dither value is below q (the incoming LOD), clear: where it is
// at or above q (the outgoing LOD, or a plain instance with q = 0). Both entries of a fading instance
// carry the same q, so the two masks are exact complements.
#define VEG_LISTS 4u
#define VEG_FADE_IN 0x10000u
#define VEG_FADE_Q_MASK 0xFFFFu
#define VEG_ARGS_BYTES 84
MYRIAD_SHADER_NAMESPACE_BEGIN
// One dispatch per visible group segment [first, first + count) of a runtime type's arrays. Planes
// and camera are relative to the render origin (the frame the spheres are stored in).
struct VegCullPush {
  vec4 planes[6];
  vec3 camera;
  uint first;
  uint count;
  uint phase;  // CULL_PHASE_*
  uint pad1;
  uint pad2;
};
// Per type: squared LOD switch distances (the last is the draw distance), the squared distances where
// each LOD's cross-fade band starts (== switch_sq: no band), their number (<= 4), the hash band
// (myriad::vegetation::HashedLod) and the capacity of each per-LOD list.
struct VegCullParams {
  vec4 switch_sq;
  vec4 fade_start_sq;
  uint lod_count;
  float band;
  uint capacity;
  uint pad;
};
// The args buffer: one indexed indirect draw per LOD list, then the number of appends that found
// their list full (nothing was written for them; instance_count stays at most the capacity).
struct VegCullArgs {
  DrawIndexedCommand args[4];
  uint overflow;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(VegCullPush, 128, planes, 0, camera, 96, first, 108, count, 112, phase, 116, pad1, 120,
                    pad2, 124);
MYRIAD_CHECK_LAYOUT(VegCullParams, 48, switch_sq, 0, fade_start_sq, 16, lod_count, 32, band, 36, capacity, 40,
                    pad, 44);
MYRIAD_CHECK_LAYOUT(VegCullArgs, VEG_ARGS_BYTES, args, 0, overflow, 80);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
