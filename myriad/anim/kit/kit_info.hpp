// What a kit is made of, in figures: skeleton dedup (SPEC B6/B8) measured on the kit itself — palette
// matrices per avatar with one palette per part (what the parts' own skins ask for) and after dedup,
// for the bare body and with every item worn — the joints each part really uses, and the bounds of
// the kit in the avatar's frame (for culling).
#pragma once

#include "myriad/anim/kit/avatar.hpp"
#include "myriad/core/cull/bounds.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace myriad::anim {

struct KitDedup {
  std::size_t bare_before = 0, bare_after = 0;        // body parts only
  std::size_t clothed_before = 0, clothed_after = 0;  // body parts and every item
};
KitDedup measure_dedup(const Avatar& kit);

// Skeleton joints a part's vertices reference with a non-zero weight, ascending.
std::vector<std::uint16_t> joints_used(const AvatarPart& part);

// A sphere around the kit's bind pose in the avatar's frame (root_transform applied), grown by
// `slack` of its radius for animation.
Sphere kit_bounds(const Avatar& kit, float slack = 0.3f);

// How a kit stands, in the avatar's frame (root_transform applied, +Y up, the file's units: glTF says
// metres): the body parts (every part when none is a body part) skinned in one pose — the first frame
// of `clip`, or the rest pose without one — and their extent. Placing an avatar at ground point g with
// scale s: world = translate(g - s * (centre.x, lowest.y, centre.z)) * scale(s) * root_transform, so
// the lowest point touches the ground and the body is centred over g whatever the armature's origin.
struct KitStance {
  glm::vec3 lowest{0.0f};  // the lowest skinned vertex
  glm::vec3 lo{0.0f}, hi{0.0f};
  glm::vec3 centre{0.0f};  // of the extent in X and Z; centre.y = lowest.y
  float height = 0.0f;     // hi.y - lo.y
  bool from_clip = false;
};
KitStance kit_stance(const Avatar& kit, const Clip* clip = nullptr);

// The body parts' vertices (every part's when none is a body part) skinned with the skeleton's model
// matrices `model`, in the avatar's frame (root_transform applied), part after part.
void skin_body(const Avatar& kit, std::span<const glm::mat4> model, std::vector<glm::vec3>& out);

}  // namespace myriad::anim
