// View frustum from a view-projection matrix, with AABB and sphere tests. This is the exact CPU
// reference that every GPU culling pass is compared with: the shaders evaluate the same expressions
// in the same order with `precise` (no FMA contraction), so results match bit for bit.
#pragma once

#include "myriad/core/cull/bounds.hpp"

#include <array>

namespace myriad {

enum class DepthConvention {
  kZeroToOne,  // near -> 0, far -> 1
  kReverseZ,   // near -> 1, far -> 0 (far may be at infinity)
};

// Left/right are clip-space x = -w / +w; bottom/top are y = +w / -w, the bottom and top rows of a
// Vulkan framebuffer, i.e. view-space -Y / +Y with the (y-flipped) projections of math.hpp.
enum FrustumPlane : int { kLeft = 0, kRight, kBottom, kTop, kNear, kFar, kFrustumPlaneCount };

struct Frustum {
  // Normalized planes, normals pointing inward. An infinite far plane is stored as
  // (0, 0, 0, +FLT_MAX) so it accepts everything with the same arithmetic.
  std::array<Plane, kFrustumPlaneCount> planes{};

  static Frustum from_view_proj(const glm::mat4& view_proj,
                                DepthConvention depth = DepthConvention::kZeroToOne);

  // True when the sphere is at least partly inside (conservative at corners, like all plane tests).
  bool intersects(const Sphere& s) const {
    for (const Plane& p : planes) {
      if (p.distance(s.center) < -s.radius) return false;
    }
    return true;
  }
  bool intersects(const Aabb& box) const;
  // True when the box lies wholly inside all planes (lets a tree accept a whole subtree).
  bool contains(const Aabb& box) const;
};

}  // namespace myriad
