#include "myriad/anim/pose/blend.hpp"

#include <algorithm>

namespace myriad::anim {

namespace {

void copy_pose(const LocalPose& from, LocalPose& to) {
  if (&from == &to) return;
  const std::size_t n = from.size();
  std::copy_n(from.translation.begin(), n, to.translation.begin());
  std::copy_n(from.rotation.begin(), n, to.rotation.begin());
  std::copy_n(from.scale.begin(), n, to.scale.begin());
}

}  // namespace

void blend_poses(const LocalPose& a, const LocalPose& b, float w, LocalPose& out) {
  if (!(w > 0.0f)) {  // also NaN: never blend garbage into a pose
    copy_pose(a, out);
    return;
  }
  if (w >= 1.0f) {
    copy_pose(b, out);
    return;
  }
  const float v = 1.0f - w;
  const std::size_t n = a.size();
  // Each joint reads a[i] and b[i] before writing out[i], so out may alias either input.
  for (std::size_t i = 0; i < n; ++i) {
    out.translation[i] = a.translation[i] * v + b.translation[i] * w;
    out.scale[i] = a.scale[i] * v + b.scale[i] * w;
    const glm::quat qa = a.rotation[i];
    glm::quat qb = b.rotation[i];
    // q and -q are the same rotation; blending across hemispheres would take the long way round
    // (and pass through zero at the halfway point).
    if (glm::dot(qa, qb) < 0.0f) qb = -qb;
    out.rotation[i] = glm::normalize(
        glm::quat(qa.w * v + qb.w * w, qa.x * v + qb.x * w, qa.y * v + qb.y * w, qa.z * v + qb.z * w));
  }
}

}  // namespace myriad::anim
