#include "myriad/crowd/entity_lod.hpp"

#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace myriad::crowd {

namespace {
float lod_constant(float fov_y_radians, float screen_height, float reference_height) {
  // threshold = screen_height / reference_height, so C = 2·tan(fov/2)/reference_height for any height:
  // the switch distances follow the field of view but not the resolution.
  const float threshold = screen_height / reference_height;
  return threshold * 2.0f * std::tan(fov_y_radians * 0.5f) / screen_height;
}
}  // namespace

LodCurve LodCurve::solve(const LodCurveParams& p) {
  if (!(p.fov_y_radians > 0.0f && p.fov_y_radians < 3.1f) || !(p.screen_height > 0.0f) ||
      !(p.reference_diameter > 0.0f) || !(p.lod1_distance > 0.0f) || !(p.lod2_distance > p.lod1_distance)) {
    throw Error(
        "crowd LOD curve: needs 0 < fov < pi, screen_height > 0, reference_diameter > 0 and "
        "0 < lod1_distance < lod2_distance");
  }
  LodCurve curve;
  const double c_ref =
      double(lod_constant(p.reference_fov_y_radians, p.reference_screen_height, p.reference_screen_height));
  // LOD(d1) = 1 and LOD(d2) = 2 for the reference entity on the reference camera.
  const double x1 = std::log2(double(p.lod1_distance) * c_ref / double(p.reference_diameter));
  const double x2 = std::log2(double(p.lod2_distance) * c_ref / double(p.reference_diameter));
  const double slope = 1.0 / (x2 - x1);
  const double offset = 1.0 - x1 * slope;
  curve.slope = float(slope);
  curve.offset = float(offset);
  curve.c = lod_constant(p.fov_y_radians, p.screen_height, p.reference_screen_height);
  for (std::size_t k = 0; k < curve.switch_ratio.size(); ++k) {
    // log2(d·C/D)·slope + offset = k+1  ⇔  d/D = 2^((k+1-offset)/slope)/C
    const double level = double(k + 1);
    curve.switch_ratio[k] = float(std::exp2((level - offset) / slope) / double(curve.c));
  }
  // The bands: one step each 1/256 of the width; the far edge of one must come before the near edge of
  // the next (in the float boundaries decide_lod compares), so an entity is in at most one band.
  if (!(p.fade_band >= 0.0f) || !(p.fade_band < 1.0f)) {
    throw Error("crowd LOD curve: fade_band must be in [0, 1) (a fraction of the switch distance)");
  }
  curve.band_step = p.fade_band / float(CROWD_FADE_STEPS);
  for (std::size_t k = 0; k + 1 < curve.switch_ratio.size(); ++k) {
    const float far_edge = band_boundary(curve.switch_ratio[k], curve.band_step, CROWD_FADE_STEPS);
    const float next_near = band_boundary(curve.switch_ratio[k + 1], curve.band_step, 0);
    if (!(far_edge < next_near)) {
      throw Error("crowd LOD curve: fade_band " + std::to_string(p.fade_band) +
                  " makes the cross-fade bands of LOD switches " + std::to_string(k + 1) + " and " +
                  std::to_string(k + 2) + " overlap");
    }
  }
  return curve;
}

float LodCurve::lod(float distance, float diameter) const {
  return std::log2(distance * c / diameter) * slope + offset;
}

float entity_diameter(const Aabb& local_bounds, float prefab_scale) {
  const glm::vec3 size = (local_bounds.max - local_bounds.min) * prefab_scale;
  return std::max({size.x, size.y, size.z}) * kRotationBoundsFactor;
}

}  // namespace myriad::crowd
