#include "myriad/anim/kit/kit_info.hpp"

#include "myriad/anim/pose/pose.hpp"

#include "myriad/anim/kit/dedup.hpp"

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

void skin_body(const Avatar& kit, std::span<const glm::mat4> model, std::vector<glm::vec3>& out) {
  out.clear();
  const bool any_body =
      std::any_of(kit.parts.begin(), kit.parts.end(), [](const AvatarPart& p) { return !p.clothing; });
  std::vector<Mat3x4> palette;
  for (const AvatarPart& part : kit.parts) {
    if (any_body && part.clothing) continue;
    palette.resize(part.skin.joints.size());
    build_palette(model, part.skin.joints, part.skin.inverse_binds, palette);
    for (std::size_t v = 0; v < part.mesh.positions.size(); ++v) {
      const glm::vec3 p =
          skin_position(palette, part.mesh.joints[v], part.mesh.weights[v], part.mesh.positions[v]);
      out.emplace_back(kit.root_transform * glm::vec4(p, 1.0f));
    }
  }
}

KitStance kit_stance(const Avatar& kit, const Clip* clip) {
  const Skeleton& sk = kit.skeleton;
  LocalPose pose;
  pose.resize(sk.size());
  if (clip) {
    SamplingCache cache;
    cache.reset(*clip);
    sample(sk, *clip, 0.0f, cache, pose);
  } else {
    pose = sk.rest;
  }
  std::vector<glm::mat4> model(sk.size());
  local_to_model(sk.parents, pose, model);
  std::vector<glm::vec3> body;
  skin_body(kit, model, body);
  KitStance s;
  s.from_clip = clip != nullptr;
  s.lo = glm::vec3(INFINITY);
  s.hi = glm::vec3(-INFINITY);
  s.lowest = glm::vec3(0.0f, INFINITY, 0.0f);
  for (const glm::vec3& w : body) {
    s.lo = glm::min(s.lo, w);
    s.hi = glm::max(s.hi, w);
    if (w.y < s.lowest.y) s.lowest = w;
  }
  if (!(s.lo.y <= s.hi.y)) return KitStance{};
  s.height = s.hi.y - s.lo.y;
  s.centre = glm::vec3(0.5f * (s.lo.x + s.hi.x), s.lo.y, 0.5f * (s.lo.z + s.hi.z));
  return s;
}

}  // namespace myriad::anim
