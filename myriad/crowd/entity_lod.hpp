// Per-entity LOD choice for VAT crowds (SPEC C8), the CPU reference the GPU culling pass reproduces.
//
//   LOD = log2(d·C/D)·slope + offset,   C = threshold·2·tan(fov/2)/screen_height
//
// d = camera distance, D = diameter of the entity's world bounds (prefab scale included, ×1.22 because
// rotating an entity grows its axis-aligned bounds). slope and offset are solved so that an entity of
// the reference diameter switches to LOD1 at 93.3 m and LOD2 at 167.9 m with fov 30° at 1440 px, and
// threshold = screen_height/1440 makes those distances independent of the resolution.
//
// The level is decided without evaluating log2: LOD >= k exactly when d >= D·switch_ratio[k-1], with
// switch_ratio = 2^((k-offset)/slope)/C solved once per camera. Comparing squared distances with plain
// multiplications keeps the CPU and the shader bit-identical (log2/exp2 differ between them in the last
// bits, which would flip entities sitting on a boundary).
//
// No LOD pops: cross-fade bands with hysteresis (decide_lod). Each switch k (LOD k -> k+1, at
// s_k = D·switch_ratio[k]) has a band of total width fade_band·s_k centred on it, cut into 256 equal
// steps of distance:
//
//   b_k(j) = s_k·(lower + j·step),   step = fade_band/256,   lower = 1 - 128·step,   j = 0..256
//
// and the band is [b_k(0), b_k(256)). An entity at distance d inside band k is drawn in LOD k and in
// LOD k+1 with the fade q = the largest j <= 255 with d >= b_k(j) (0 at the band's near edge, 255 at
// its far edge, linear in the distance): LOD k+1 takes the pixels whose 8x8 dither value is below q and
// LOD k the others, so every pixel goes to exactly one of them and the share moves with the distance.
// q is found by an 8-step binary search of squared distances against squared boundaries: multiplies,
// adds and compares only, so the shader (crowd_cull_body.glsl, `precise`) gets the same q bit for bit.
//
// Hysteresis: the entity's level (one state word per entity, kept from frame to frame) is
//   - outside every band: the number of bands it is beyond (as select_level with the bands' far edges);
//   - inside band k: the previous frame's level clamped to [k, k+1], or, with no previous level
//     (CROWD_LOD_NONE: the first frame), k+1 when q >= 128 and k otherwise.
// So the level changes only once an entity has left a band on the other side: one that wobbles around
// a switch distance keeps its level. The level is what the entity reports and what casts its shadow
// (the other LOD of a band is drawn dithered but casts nothing); fade_band = 0 gives empty bands and
// the plain select_level. Bands must not overlap (LodCurve::solve checks).
#pragma once

#include "myriad/core/cull/bounds.hpp"
#include "myriad/crowd/crowd_gpu_layout.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace myriad::crowd {

inline constexpr int kCrowdLodCount = 3;
inline constexpr float kRotationBoundsFactor = 1.22f;

struct LodCurveParams {
  float fov_y_radians = 0.5235988f;  // 30°
  float screen_height = 1440.0f;     // pixels
  float reference_diameter = 2.0f;   // D of the entity the switch distances below are tuned for (m)
  float lod1_distance = 93.3f;       // m, for the reference diameter at the reference camera
  float lod2_distance = 167.9f;
  float reference_fov_y_radians = 0.5235988f;  // the camera the distances were tuned with
  float reference_screen_height = 1440.0f;
  // Total width of each switch's cross-fade band as a fraction of its switch distance (0: no band).
  float fade_band = 0.1f;
};

struct LodCurve {
  float slope = 1.0f;
  float offset = 0.0f;
  float c = 1.0f;  // threshold·2·tan(fov/2)/screen_height
  // LOD >= k+1 exactly when distance >= diameter·switch_ratio[k].
  std::array<float, kCrowdLodCount - 1> switch_ratio{};
  float band_step = 0.0f;  // fade_band / 256: one step of a cross-fade band, as a fraction of its switch

  // Solves slope and offset on the reference camera, then evaluates C for the actual camera.
  static LodCurve solve(const LodCurveParams& params);

  // The continuous LOD value (for cross-fade bands and diagnostics; the level uses select_level).
  float lod(float distance, float diameter) const;
};

// D: the largest edge of the entity's world bounds (local bounds × uniform prefab scale) × 1.22.
float entity_diameter(const Aabb& local_bounds, float prefab_scale);

// The level for an entity at squared camera distance `distance_sq`, or `forced_level` when >= 0.
// Evaluated as the shader does: compares distance_sq with (diameter·ratio)² in this operation order.
inline int select_level(const LodCurve& curve, float distance_sq, float diameter, int forced_level = -1) {
  if (forced_level >= 0) return forced_level < kCrowdLodCount ? forced_level : kCrowdLodCount - 1;
  int level = 0;
  for (float ratio : curve.switch_ratio) {
    const float switch_distance = diameter * ratio;
    if (distance_sq >= switch_distance * switch_distance) ++level;
  }
  return level;
}

// Boundary j (0..256) of the cross-fade band around `switch_distance`, in the shader's operation order.
inline float band_boundary(float switch_distance, float band_step, std::uint32_t j) {
  const float lower = 1.0f - 128.0f * band_step;
  const float factor = lower + float(j) * band_step;
  return switch_distance * factor;
}

// The entity's LOD state word (CROWD_LOD_*: level, fading flag, band, q) from its squared camera
// distance, diameter and previous state word (CROWD_LOD_NONE for none), as the header describes.
// The shader repeats it operation for operation.
inline std::uint32_t decide_lod(const LodCurve& curve, float distance_sq, float diameter,
                                std::uint32_t previous) {
  std::uint32_t beyond = 0;
  for (std::uint32_t k = 0; k + 1 < std::uint32_t(kCrowdLodCount); ++k) {
    const float switch_distance = diameter * curve.switch_ratio[k];
    const float near_edge = band_boundary(switch_distance, curve.band_step, 0);
    const float far_edge = band_boundary(switch_distance, curve.band_step, CROWD_FADE_STEPS);
    if (distance_sq >= far_edge * far_edge) {
      ++beyond;
      continue;
    }
    if (!(distance_sq >= near_edge * near_edge)) break;  // before band k, so before every later one
    std::uint32_t q = 0;
    for (std::uint32_t bit = CROWD_FADE_STEPS / 2; bit != 0; bit >>= 1) {
      const float b = band_boundary(switch_distance, curve.band_step, q + bit);
      if (distance_sq >= b * b) q += bit;
    }
    const std::uint32_t prev = previous & CROWD_LOD_LEVEL_MASK;
    const std::uint32_t level =
        prev == CROWD_LOD_NONE ? (q >= CROWD_FADE_STEPS / 2 ? k + 1 : k) : std::clamp(prev, k, k + 1);
    return level | CROWD_LOD_FADING | (k << CROWD_LOD_BAND_SHIFT) | (q << CROWD_LOD_Q_SHIFT);
  }
  return beyond;
}

inline std::uint32_t lod_state_level(std::uint32_t state) { return state & CROWD_LOD_LEVEL_MASK; }
inline bool lod_state_fading(std::uint32_t state) { return (state & CROWD_LOD_FADING) != 0u; }
inline std::uint32_t lod_state_band(std::uint32_t state) { return (state >> CROWD_LOD_BAND_SHIFT) & 1u; }
inline std::uint32_t lod_state_q(std::uint32_t state) { return (state >> CROWD_LOD_Q_SHIFT) & 0xffu; }

}  // namespace myriad::crowd
