// Two-phase Hi-Z occlusion for culling passes. myriad::hiz_box_occluded (core/cull/hiz_occlusion.cpp) is the
// exact CPU reference: same expressions in the same order, `precise` so nothing is fused.
//
// The including shader defines HIZ_FIRST_BINDING: from there on the bindings are the visibility words
// (one per candidate: 1 = drawn last frame), the CullCounters and, with HIZ_TEST (the late pass's
// pipeline), the pyramid sampler and the HizParams buffer (render::TwoPhaseCull binds them in this
// order). Without HIZ_TEST the pyramid is not bound and nothing is occluded.
#ifndef MYRIAD_HIZ_GLSL
#define MYRIAD_HIZ_GLSL

#extension GL_KHR_shader_subgroup_ballot : require
#include "hiz_layout.h"

layout(binding = HIZ_FIRST_BINDING, scalar) buffer HizVisibility { uint visibility[]; };
layout(binding = HIZ_FIRST_BINDING + 1, scalar) buffer HizCounters { CullCounters counters; };

#ifdef HIZ_TEST
layout(binding = HIZ_FIRST_BINDING + 2) uniform sampler2D hiz_pyramid;  // R32F MIN pyramid, reverse-Z depth
layout(binding = HIZ_FIRST_BINDING + 3, scalar) readonly buffer HizBuffer { HizParams hiz; };

// Conservative occlusion of a box: its 8 corners' clip-space rectangle gives a pixel rectangle and the
// nearest depth; the level is the smallest where the rectangle spans at most 2x2 texels, and the
// farthest of those texels is compared. A corner at or behind the camera plane, or a rectangle wholly
// off screen, means "not occluded" (the frustum test decides those).
bool hiz_box_occluded(vec3 lo, vec3 hi) {
  vec2 rect_lo = vec2(1e30), rect_hi = vec2(-1e30);
  float nearest = 0.0;
  for (int i = 0; i < 8; ++i) {
    vec3 c = vec3((i & 1) != 0 ? hi.x : lo.x, (i & 2) != 0 ? hi.y : lo.y, (i & 4) != 0 ? hi.z : lo.z);
    precise vec4 p = hiz.view_proj[0] * c.x + hiz.view_proj[1] * c.y + hiz.view_proj[2] * c.z + hiz.view_proj[3];
    if (p.w <= 1e-6) return false;
    precise vec3 ndc = p.xyz / p.w;
    rect_lo = min(rect_lo, ndc.xy);
    rect_hi = max(rect_hi, ndc.xy);
    nearest = max(nearest, ndc.z);
  }
  if (rect_hi.x < -1.0 || rect_hi.y < -1.0 || rect_lo.x > 1.0 || rect_lo.y > 1.0) return false;
  ivec2 src = ivec2(int(hiz.source_width), int(hiz.source_height));
  precise vec2 flo = (rect_lo * 0.5 + 0.5) * vec2(src);
  precise vec2 fhi = (rect_hi * 0.5 + 0.5) * vec2(src);
  ivec2 pmin = clamp(ivec2(floor(flo)), ivec2(0), src - 1);
  ivec2 pmax = clamp(ivec2(floor(fhi)), ivec2(0), src - 1);
  // Source pixel -> level-0 texel -> parent texels, clamped like the pyramid's odd-edge widening.
  // Level sizes from level 0's (a mip chain halves, rounding down, to at least 1): textureSize with a
  // level that differs between invocations is not exact on every driver (llvmpipe answered with
  // another invocation's level), and the sizes decide the texels.
  ivec2 base = textureSize(hiz_pyramid, 0);
  ivec2 dim = base;
  ivec2 tmin = min(pmin >> 1, dim - 1), tmax = min(pmax >> 1, dim - 1);
  int level = 0;
  while ((tmax.x - tmin.x > 1 || tmax.y - tmin.y > 1) && level + 1 < int(hiz.levels)) {
    ++level;
    dim = max(base >> level, ivec2(1));
    tmin = min(tmin >> 1, dim - 1);
    tmax = min(tmax >> 1, dim - 1);
  }
  float farthest =
      min(min(texelFetch(hiz_pyramid, tmin, level).x, texelFetch(hiz_pyramid, ivec2(tmax.x, tmin.y), level).x),
          min(texelFetch(hiz_pyramid, ivec2(tmin.x, tmax.y), level).x, texelFetch(hiz_pyramid, tmax, level).x));
  return nearest < farthest;
}
#else
bool hiz_box_occluded(vec3 lo, vec3 hi) { return false; }
#endif

// Adds each active invocation's `yes` to `word` with one atomic per subgroup.
#define HIZ_COUNT(word, yes)                                         \
  {                                                                  \
    uint hiz_count_n = subgroupBallotBitCount(subgroupBallot(yes));  \
    if (subgroupElect() && hiz_count_n > 0u) atomicAdd(word, hiz_count_n); \
  }

// The two-phase rule for candidate `id` that passed every test but occlusion (`passed`), with bounds
// [lo, hi]: whether this phase draws it. Early: only what was drawn last frame. Late: what the pyramid
// does not hide and early did not draw; visibility is rewritten for the next frame. Single: all.
// Every invocation of the dispatch must call it (the counters are subgroup operations); `in_range`
// false for invocations past the candidates (they count nothing and touch no visibility word).
bool hiz_phase_keep(uint phase, bool in_range, uint id, bool passed, vec3 lo, vec3 hi) {
  bool keep = in_range && passed;
  bool occluded = false;
  if (phase == CULL_PHASE_EARLY) {
    keep = keep && visibility[id] != 0u;
  } else if (phase == CULL_PHASE_LATE) {
    occluded = keep && hiz_box_occluded(lo, hi);
    if (in_range) {
      bool drawn_early = visibility[id] != 0u;
      visibility[id] = (keep && !occluded) ? 1u : 0u;
      keep = keep && !occluded && !drawn_early;
    }
  }
  if (phase != CULL_PHASE_EARLY) {
    HIZ_COUNT(counters.frustum_passed, in_range && passed);
    HIZ_COUNT(counters.occluded, occluded);
  }
  return keep;
}

#endif
