// What a kit is made of, in figures: skeleton dedup (SPEC B6/B8) measured on the kit itself — palette
// matrices per avatar with one palette per part (what the parts' own skins ask for) and after dedup,
// for the bare body and with every item worn — the joints each part really uses, and the bounds of
// the kit in the avatar's frame (for culling).
#pragma once

#include "myriad/anim/avatar.hpp"
#include "myriad/core/bounds.hpp"

#include <cstddef>
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

}  // namespace myriad::anim
