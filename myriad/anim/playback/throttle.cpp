#include "myriad/anim/playback/throttle.hpp"

namespace myriad::anim {

std::uint32_t UpdateThrottle::interval(float distance, float importance) const {
  if (importance >= important) return 1;
  for (const ThrottleBand& b : bands) {
    if (distance < b.max_distance) return b.interval < 1 ? 1 : b.interval;
  }
  return far_interval < 1 ? 1 : far_interval;
}

std::size_t UpdateThrottle::build_mask(std::uint64_t frame, std::span<const float> distance,
                                       std::span<const float> importance,
                                       std::span<std::uint8_t> mask) const {
  std::size_t updates = 0;
  for (std::size_t c = 0; c < mask.size(); ++c) {
    const std::uint32_t n = interval(distance[c], importance.empty() ? 0.0f : importance[c]);
    mask[c] = (frame + c) % n == 0 ? 1 : 0;
    updates += mask[c];
  }
  return updates;
}

}  // namespace myriad::anim
