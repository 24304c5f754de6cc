// Skinning update throttling (SPEC B9): far or unimportant characters re-sample and rebuild their
// palettes every N frames instead of every frame; the GPU keeps drawing their last palette.
// Characters are staggered by index so a given far band spreads its updates over N frames.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::anim {

struct ThrottleBand {
  float max_distance;      // applies to characters nearer than this
  std::uint32_t interval;  // update every `interval` frames (1 = every frame)
};

struct UpdateThrottle {
  // Ascending max_distance; characters beyond the last band use `far_interval`.
  std::vector<ThrottleBand> bands{{15.0f, 1}, {40.0f, 2}, {80.0f, 4}};
  std::uint32_t far_interval = 8;
  float important = 1.0f;  // importance at or above this always updates every frame

  std::uint32_t interval(float distance, float importance) const;
  // mask[c] = 1 when character c updates in `frame`. Returns the number of updates.
  std::size_t build_mask(std::uint64_t frame, std::span<const float> distance,
                         std::span<const float> importance, std::span<std::uint8_t> mask) const;
};

}  // namespace myriad::anim
