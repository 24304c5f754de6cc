// Layouts shared by every two-phase (Hi-Z) culling pass, C++ and GLSL alike: the phase word each pass
// takes (the values of render::FramePhase), the pyramid's parameters and the per-view cull counters.
#ifndef MYRIAD_HIZ_LAYOUT_H
#define MYRIAD_HIZ_LAYOUT_H

#include "shared_types.h"

#define CULL_PHASE_SINGLE 0u  // everything that passes frustum and LOD; no pyramid
#define CULL_PHASE_EARLY 1u   // only what was visible last frame; no pyramid
#define CULL_PHASE_LATE 2u  // everything, tested against the pyramid; visibility updated; newly visible only

MYRIAD_SHADER_NAMESPACE_BEGIN
// The pyramid a late pass tests against: the view-projection (in the frame the bounds are stored in,
// reverse-Z), the size of the depth image the pyramid was built from and its level count.
struct HizParams {
  mat4 view_proj;
  uint source_width;
  uint source_height;
  uint levels;
  uint pad;
};
// What a camera cull saw, written by the single and late passes (reset by single and early):
// candidates that passed every test but occlusion, and those of them the pyramid hid.
struct CullCounters {
  uint frustum_passed;
  uint occluded;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(HizParams, 80, view_proj, 0, source_width, 64, source_height, 68, levels, 72, pad, 76);
MYRIAD_CHECK_LAYOUT(CullCounters, 8, frustum_passed, 0, occluded, 4);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
