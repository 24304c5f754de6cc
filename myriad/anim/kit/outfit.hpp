// Per-avatar customization (SPEC B2/B5): an avatar's outfit drawn from its kit under a seed — for
// each slot one of its items or, now and then, none — with one tint and pattern per worn item and a
// skin tone. The same seed always gives the same outfit.
#pragma once

#include "myriad/anim/kit/avatar.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace myriad::anim {

// The kit's slots in order of first appearance, each with its items (names, in order of appearance)
// and, per item, the kit parts (meshes) it consists of.
struct KitSlots {
  struct Slot {
    std::string name;
    std::vector<std::string> items;
    std::vector<std::vector<std::uint32_t>> parts;  // per item
  };
  std::vector<Slot> slots;
  std::vector<std::uint32_t> body;  // the body parts, worn by every avatar
};
KitSlots kit_slots(const Avatar& kit);

struct OutfitRules {
  float bare_slot = 0.2f;      // chance that a slot is left empty
  std::uint32_t patterns = 4;  // pattern ids 0..patterns-1 (0 = plain)
  bool everything = false;     // wear every item (ignores slots; for dedup figures and tests)
};

struct Outfit {
  std::vector<std::uint32_t> parts;  // kit part indices worn: body parts, then the items' parts
  std::vector<glm::vec4> tint;       // per worn part (items: the item's tint; body parts: skin tone)
  std::vector<float> pattern;        // per worn part (body parts: 0)
};

Outfit draw_outfit(const KitSlots& slots, std::uint32_t seed, const OutfitRules& rules = {});

// A small deterministic hash to [0, 1): per-avatar values without global RNG state.
float hash01(std::uint32_t x);

}  // namespace myriad::anim
