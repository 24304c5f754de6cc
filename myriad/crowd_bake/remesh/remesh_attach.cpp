#include "myriad/crowd_bake/remesh/remesh_steps.hpp"

#include <algorithm>
#include <array>

namespace myriad::crowd {

Attachment attach_to_nearest(glm::vec3 point, const BakeMesh& original, const ClosestPointQuery& query) {
  const ClosestHit hit = query.closest(point);
  Attachment attachment;
  attachment.a = original.indices[3 * static_cast<std::size_t>(hit.triangle)];
  attachment.b = original.indices[3 * static_cast<std::size_t>(hit.triangle) + 1];
  attachment.c = original.indices[3 * static_cast<std::size_t>(hit.triangle) + 2];
  const glm::vec3 w = glm::max(hit.bary, glm::vec3(0.0f));
  const float sum = w.x + w.y + w.z;
  attachment.w = sum > 0.0f ? w / sum : glm::vec3(1.0f, 0.0f, 0.0f);
  // The largest weight takes the remainder: the sum is 1 to rounding and no weight turns negative.
  glm::vec3& w1 = attachment.w;
  if (w1.x >= w1.y && w1.x >= w1.z) {
    w1.x = 1.0f - w1.y - w1.z;
  } else if (w1.y >= w1.z) {
    w1.y = 1.0f - w1.x - w1.z;
  } else {
    w1.z = 1.0f - w1.x - w1.y;
  }
  return attachment;
}

void blend_skin(const BakeMesh& original, const Attachment& attachment, glm::u16vec4& joints,
                glm::vec4& weights) {
  std::array<std::uint16_t, 12> joint{};
  std::array<float, 12> weight{};
  std::size_t used = 0;
  const std::uint32_t corners[3] = {attachment.a, attachment.b, attachment.c};
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 4; ++i) {
      const float w = attachment.w[k] * original.weights[corners[k]][i];
      if (w <= 0.0f) continue;
      const std::uint16_t j = original.joints[corners[k]][i];
      std::size_t slot = 0;
      while (slot < used && joint[slot] != j) ++slot;
      if (slot == used) {
        joint[used] = j;
        weight[used++] = 0.0f;
      }
      weight[slot] += w;
    }
  }
  joints = glm::u16vec4(0);
  weights = glm::vec4(0.0f);
  float total = 0.0f;
  for (int i = 0; i < 4 && used > 0; ++i) {
    const std::size_t best = static_cast<std::size_t>(
        std::distance(weight.begin(),
                      std::max_element(weight.begin(), weight.begin() + static_cast<std::ptrdiff_t>(used))));
    if (weight[best] <= 0.0f) break;
    joints[i] = joint[best];
    weights[i] = weight[best];
    total += weight[best];
    weight[best] = 0.0f;
  }
  if (total > 0.0f) {
    weights /= total;
  } else {
    weights = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
    joints = original.joints[attachment.a];
  }
}

}  // namespace myriad::crowd
