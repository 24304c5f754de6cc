// The ring every streamer keeps around its point of interest: the grid offsets within a Chebyshev radius,
// nearest first (by Chebyshev distance, then Euclidean, then row and column, so the order is the same on
// every run). A streamer walks them from the camera's cell to find what it needs, and the offsets at one
// distance are contiguous, so a ring with a hole in its middle (the far levels) walks only its band.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace myriad {

inline int chebyshev(glm::ivec2 d) { return std::max(std::abs(d.x), std::abs(d.y)); }

class StreamRing {
 public:
  StreamRing() = default;
  explicit StreamRing(int radius);

  std::span<const glm::ivec2> offsets() const { return offsets_; }
  // The offsets at Chebyshev distance `from` to `to` (clamped to 0..radius), nearest first.
  std::span<const glm::ivec2> band(int from, int to) const;

 private:
  // Index in offsets_ of the first offset at distance d (0..radius + 1; radius + 1 is the end).
  std::size_t first_at(int d) const;

  int radius_ = -1;
  std::vector<glm::ivec2> offsets_;
  std::vector<std::size_t> first_;  // per distance 0..radius + 1
};

}  // namespace myriad
