#include "myriad/anim/kit/outfit.hpp"

#include <algorithm>
#include <cmath>

namespace myriad::anim {

float hash01(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return static_cast<float>(x >> 8) / 16777216.0f;
}

KitSlots kit_slots(const Avatar& kit) {
  KitSlots out;
  for (std::size_t p = 0; p < kit.parts.size(); ++p) {
    const AvatarPart& part = kit.parts[p];
    const auto index = static_cast<std::uint32_t>(p);
    if (!part.clothing) {
      out.body.push_back(index);
      continue;
    }
    const std::string slot = part.slot.empty() ? part.item : part.slot;
    auto s = std::find_if(out.slots.begin(), out.slots.end(),
                          [&](const KitSlots::Slot& x) { return x.name == slot; });
    if (s == out.slots.end()) s = out.slots.insert(out.slots.end(), KitSlots::Slot{slot, {}, {}});
    const auto i = std::find(s->items.begin(), s->items.end(), part.item);
    if (i == s->items.end()) {
      s->items.push_back(part.item);
      s->parts.push_back({index});
    } else {
      s->parts[static_cast<std::size_t>(i - s->items.begin())].push_back(index);
    }
  }
  return out;
}

Outfit draw_outfit(const KitSlots& slots, std::uint32_t seed, const OutfitRules& rules) {
  Outfit o;
  std::uint32_t h = seed * 0x9E3779B9u + 0x7F4A7C15u;
  const auto next = [&] { return hash01(h++); };
  const float tone = 0.3f + 0.6f * next();
  const glm::vec4 skin(tone, tone * 0.8f, tone * 0.7f, 1.0f);
  for (const std::uint32_t p : slots.body) {
    o.parts.push_back(p);
    o.tint.push_back(skin);
    o.pattern.push_back(0.0f);
  }
  const std::uint32_t patterns = std::max(1u, rules.patterns);
  const auto wear = [&](const std::vector<std::uint32_t>& parts) {
    const glm::vec4 tint(next(), next(), next(), 1.0f);
    const auto pattern = static_cast<float>(
        std::min(patterns - 1, static_cast<std::uint32_t>(next() * static_cast<float>(patterns))));
    for (const std::uint32_t p : parts) {
      o.parts.push_back(p);
      o.tint.push_back(tint);
      o.pattern.push_back(pattern);
    }
  };
  for (const KitSlots::Slot& s : slots.slots) {
    if (rules.everything) {
      for (const std::vector<std::uint32_t>& parts : s.parts) wear(parts);
      continue;
    }
    // One draw per slot: bare with probability bare_slot, else one of its items uniformly.
    const float r = next();
    if (r < rules.bare_slot) continue;
    const float u = (r - rules.bare_slot) / (1.0f - rules.bare_slot);
    wear(s.parts[std::min(s.items.size() - 1,
                          static_cast<std::size_t>(u * static_cast<float>(s.items.size())))]);
  }
  return o;
}

}  // namespace myriad::anim
