#include "myriad/anim/kit_info.hpp"

#include "myriad/anim/dedup.hpp"

#include <algorithm>

namespace myriad::anim {

KitDedup measure_dedup(const Avatar& kit) {
  KitDedup d;
  std::vector<PartSkin> bare, all;
  for (const AvatarPart& p : kit.parts) {
    all.push_back(p.skin);
    d.clothed_before += p.skin.joints.size();
    if (p.clothing) continue;
    bare.push_back(p.skin);
    d.bare_before += p.skin.joints.size();
  }
  d.bare_after = dedup_skeletons(bare).renderer_skeleton.joints.size();
  d.clothed_after = dedup_skeletons(all).renderer_skeleton.joints.size();
  return d;
}

std::vector<std::uint16_t> joints_used(const AvatarPart& part) {
  std::vector<std::uint16_t> used;
  for (std::size_t v = 0; v < part.mesh.joints.size(); ++v) {
    for (int k = 0; k < 4; ++k) {
      const std::uint16_t local = part.mesh.joints[v][k];
      if (part.mesh.weights[v][k] > 0.0f && local < part.skin.joints.size())
        used.push_back(part.skin.joints[local]);
    }
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  return used;
}

Sphere kit_bounds(const Avatar& kit, float slack) {
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const AvatarPart& p : kit.parts) {
    for (const glm::vec3& v : p.mesh.positions) {
      const glm::vec3 w(kit.root_transform * glm::vec4(v, 1.0f));
      lo = glm::min(lo, w);
      hi = glm::max(hi, w);
    }
  }
  if (!(lo.x <= hi.x)) return {glm::vec3(0.0f), 0.0f};
  const glm::vec3 c = 0.5f * (lo + hi);
  return {c, glm::length(hi - c) * (1.0f + slack)};
}

}  // namespace myriad::anim
