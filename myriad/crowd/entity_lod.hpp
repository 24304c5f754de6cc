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
#pragma once

#include "myriad/core/bounds.hpp"

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
};

struct LodCurve {
  float slope = 1.0f;
  float offset = 0.0f;
  float c = 1.0f;  // threshold·2·tan(fov/2)/screen_height
  // LOD >= k+1 exactly when distance >= diameter·switch_ratio[k].
  std::array<float, kCrowdLodCount - 1> switch_ratio{};

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

}  // namespace myriad::crowd
