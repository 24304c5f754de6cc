#include "myriad/core/stream/stream_ring.hpp"

#include <algorithm>

namespace myriad {

StreamRing::StreamRing(int radius) : radius_(std::max(0, radius)) {
  const int r = radius_;
  offsets_.reserve(std::size_t(2 * r + 1) * std::size_t(2 * r + 1));
  for (int dz = -r; dz <= r; ++dz)
    for (int dx = -r; dx <= r; ++dx) offsets_.push_back({dx, dz});
  std::sort(offsets_.begin(), offsets_.end(), [](glm::ivec2 a, glm::ivec2 b) {
    const int ca = chebyshev(a), cb = chebyshev(b);
    if (ca != cb) return ca < cb;
    const int ea = a.x * a.x + a.y * a.y, eb = b.x * b.x + b.y * b.y;
    if (ea != eb) return ea < eb;
    return a.y != b.y ? a.y < b.y : a.x < b.x;
  });
  // Distance d holds the (2d + 1)^2 - (2d - 1)^2 offsets after the square of side 2d - 1.
  first_.resize(std::size_t(r) + 2);
  for (int d = 0; d <= r + 1; ++d)
    first_[std::size_t(d)] = d == 0 ? 0 : std::size_t(2 * d - 1) * std::size_t(2 * d - 1);
}

std::size_t StreamRing::first_at(int d) const {
  if (first_.empty()) return 0;  // default-constructed: no offsets
  return first_[std::size_t(std::clamp(d, 0, radius_ + 1))];
}

std::span<const glm::ivec2> StreamRing::band(int from, int to) const {
  const std::size_t begin = first_at(from), end = first_at(std::min(to, radius_) + 1);
  return begin < end ? std::span<const glm::ivec2>(offsets_).subspan(begin, end - begin)
                     : std::span<const glm::ivec2>();
}

}  // namespace myriad
