// AABB transform by centre and extent (Arvo): the extent is carried through |M|, which gives the
// tight box of the 8 transformed corners for any affine matrix.
#include "myriad/core/cull/bounds.hpp"

#include <cmath>

namespace myriad {

Aabb transform(const Aabb& box, const glm::mat4& m) {
  if (!box.valid()) return box;  // an empty box stays empty
  const glm::vec3 c = box.center();
  const glm::vec3 e = box.half_extent();
  glm::vec3 center(m[3]);
  glm::vec3 extent(0.0f);
  for (int col = 0; col < 3; ++col) {
    const glm::vec3 axis(m[col]);
    center += axis * c[col];
    extent += glm::abs(axis) * e[col];
  }
  return {center - extent, center + extent};
}

}  // namespace myriad
