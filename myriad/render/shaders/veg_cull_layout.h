// Layouts of the vegetation culling pass (veg_cull.comp), shared by C++ and GLSL.
#ifndef MYRIAD_VEG_CULL_LAYOUT_H
#define MYRIAD_VEG_CULL_LAYOUT_H

#include "shared_types.h"

#define VEG_PHASE_SINGLE 0u  // append every visible instance
#define VEG_PHASE_EARLY 1u   // only instances visible last frame (no occlusion test)
#define VEG_PHASE_LATE 2u    // all instances (with Hi-Z); update visibility; append the newly visible

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
  uint phase;  // VEG_PHASE_*
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
// Hi-Z inputs for one frame: the view-projection relative to the render origin (reverse-Z), the
// size of the depth buffer the pyramid was built from, the pyramid's level count, on/off.
struct VegHizParams {
  mat4 view_proj;
  uint source_width;
  uint source_height;
  uint levels;
  uint enabled;
};
MYRIAD_SHADER_NAMESPACE_END

#ifdef __cplusplus
static_assert(sizeof(myriad::render::shader::VegCullPush) == 128);
static_assert(sizeof(myriad::render::shader::VegCullParams) == 48);
static_assert(sizeof(myriad::render::shader::VegHizParams) == 80);
static_assert(sizeof(myriad::render::shader::VegCullArgs) == VEG_ARGS_BYTES);
static_assert(offsetof(myriad::render::shader::VegCullArgs, overflow) == 80);
#endif

#endif
