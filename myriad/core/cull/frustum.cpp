// Gribb–Hartmann plane extraction for 0..1 clip depth, and the AABB tests every culling pass
// mirrors. The AABB tests evaluate Plane::distance exactly (same operands, same order) so a shader
// written with `precise` reproduces them bit for bit.
#include "myriad/core/cull/frustum.hpp"

#include <cfloat>
#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad {
namespace {

// Row i of a column-major glm matrix.
glm::vec4 row(const glm::mat4& m, int i) { return {m[0][i], m[1][i], m[2][i], m[3][i]}; }

constexpr const char* kPlaneNames[kFrustumPlaneCount] = {"left", "right", "bottom", "top", "near", "far"};

Plane normalized_plane(glm::vec4 p, int index) {
  const float length = std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
  // A far plane at infinity comes out as (0, 0, 0, w > 0); keep it in a form that accepts
  // everything with the ordinary arithmetic. Also treat a plane further away than ~1e7 of its own
  // units as infinite: normalising it would only amplify rounding noise.
  if (p.w > 0.0f && length <= p.w * 1e-7f) return {glm::vec3(0.0f), FLT_MAX};
  if (!(length > 0.0f) || !std::isfinite(length) || !std::isfinite(p.w))
    throw Error("Frustum::from_view_proj: degenerate view-projection matrix",
                std::string(kPlaneNames[index]) + " plane",
                "check the camera: non-zero field of view, aspect and near distance, finite values");
  const float inv = 1.0f / length;
  return {glm::vec3(p) * inv, p.w * inv};
}

}  // namespace

Frustum Frustum::from_view_proj(const glm::mat4& view_proj, DepthConvention depth) {
  const glm::vec4 r0 = row(view_proj, 0);
  const glm::vec4 r1 = row(view_proj, 1);
  const glm::vec4 r2 = row(view_proj, 2);
  const glm::vec4 r3 = row(view_proj, 3);
  // Clip volume: -w <= x <= w, -w <= y <= w, 0 <= z <= w (reverse-Z swaps which end is near).
  // y = +w is the bottom row of a Vulkan framebuffer (the projections of math.hpp flip y for it).
  glm::vec4 raw[kFrustumPlaneCount];
  raw[kLeft] = r3 + r0;
  raw[kRight] = r3 - r0;
  raw[kBottom] = r3 - r1;
  raw[kTop] = r3 + r1;
  if (depth == DepthConvention::kZeroToOne) {
    raw[kNear] = r2;
    raw[kFar] = r3 - r2;
  } else {
    raw[kNear] = r3 - r2;
    raw[kFar] = r2;
  }
  Frustum f;
  for (int i = 0; i < kFrustumPlaneCount; ++i)
    f.planes[static_cast<std::size_t>(i)] = normalized_plane(raw[i], i);
  return f;
}

bool Frustum::intersects(const Aabb& box) const {
  for (const Plane& p : planes) {
    // The corner furthest along the normal: if even it is outside, the whole box is.
    const glm::vec3 positive(p.normal.x >= 0.0f ? box.max.x : box.min.x,
                             p.normal.y >= 0.0f ? box.max.y : box.min.y,
                             p.normal.z >= 0.0f ? box.max.z : box.min.z);
    if (p.distance(positive) < 0.0f) return false;
  }
  return true;
}

bool Frustum::contains(const Aabb& box) const {
  for (const Plane& p : planes) {
    // The corner least far along the normal: if it is inside, the whole box is.
    const glm::vec3 negative(p.normal.x >= 0.0f ? box.min.x : box.max.x,
                             p.normal.y >= 0.0f ? box.min.y : box.max.y,
                             p.normal.z >= 0.0f ? box.min.z : box.max.z);
    if (!(p.distance(negative) >= 0.0f)) return false;
  }
  return true;
}

}  // namespace myriad
