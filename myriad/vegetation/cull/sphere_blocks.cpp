#include "myriad/vegetation/cull/sphere_blocks.hpp"

#include <algorithm>
#include <cmath>

#include "myriad/core/io/error.hpp"

namespace myriad::vegetation {

SphereBlocks build_sphere_blocks(const SphereArrays& s) {
  SphereBlocks b;
  b.sphere_count = s.size();
  for (std::size_t first = 0; first < s.size(); first += kSphereBlock) {
    glm::dvec3 lo(std::numeric_limits<double>::max()), hi(-std::numeric_limits<double>::max());
    for (std::size_t i = first; i < std::min(first + kSphereBlock, s.size()); ++i) {
      const glm::dvec3 c(s.x[i], s.y[i], s.z[i]);
      const double r = double(s.r[i]);
      lo = glm::min(lo, c - r);
      hi = glm::max(hi, c + r);
    }
    b.min.push_back(lo);
    b.max.push_back(hi);
  }
  return b;
}

std::size_t cull_spheres_blocked(const Frustum& frustum, const SphereArrays& s, const SphereBlocks& blocks,
                                 std::uint32_t* out) {
  if (blocks.sphere_count != s.size())
    throw Error("sphere blocks are stale: rebuild them after the spheres changed");
  std::size_t count = 0;
  for (std::size_t b = 0; b < blocks.min.size(); ++b) {
    const std::size_t first = b * kSphereBlock, len = std::min(kSphereBlock, s.size() - first);
    const glm::dvec3 lo = blocks.min[b], hi = blocks.max[b];
    bool outside = false, inside = true;
    for (const Plane& p : frustum.planes) {
      const glm::dvec3 n(p.normal);
      const double d = double(p.d);
      // Nearest and farthest box corners along the normal, exactly in double. The float per-sphere
      // distance n.c + d errs by a few ulps of its largest term; the margin is far above that.
      const double near = n.x * (n.x >= 0 ? lo.x : hi.x) + n.y * (n.y >= 0 ? lo.y : hi.y) +
                          n.z * (n.z >= 0 ? lo.z : hi.z) + d;
      const double far = n.x * (n.x >= 0 ? hi.x : lo.x) + n.y * (n.y >= 0 ? hi.y : lo.y) +
                         n.z * (n.z >= 0 ? hi.z : lo.z) + d;
      const double margin =
          1e-3 + 1e-5 * (std::abs(d) + std::abs(n.x) * std::max(std::abs(lo.x), std::abs(hi.x)) +
                         std::abs(n.y) * std::max(std::abs(lo.y), std::abs(hi.y)) +
                         std::abs(n.z) * std::max(std::abs(lo.z), std::abs(hi.z)));
      if (far < -margin) {  // every sphere: n.c + d + r <= far < 0
        outside = true;
        break;
      }
      if (!(near > margin)) inside = false;  // n.c + d - r >= near > 0 would hold for every sphere
    }
    if (outside) continue;
    if (inside) {
      for (std::size_t k = 0; k < len; ++k) out[count + k] = static_cast<std::uint32_t>(first + k);
      count += len;
      continue;
    }
    const std::size_t got = cull_spheres_flat(frustum, s.x.data() + first, s.y.data() + first,
                                              s.z.data() + first, s.r.data() + first, len, out + count);
    for (std::size_t k = 0; k < got; ++k) out[count + k] += static_cast<std::uint32_t>(first);
    count += got;
  }
  return count;
}

}  // namespace myriad::vegetation
