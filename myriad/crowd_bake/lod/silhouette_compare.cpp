#include "myriad/crowd_bake/lod/silhouette_compare.hpp"

#include <algorithm>

namespace myriad::crowd {

std::vector<std::uint8_t> silhouette_outline(std::span<const std::uint8_t> mask, int resolution) {
  const std::size_t n = static_cast<std::size_t>(resolution);
  // 0 = not yet reached, 1 = background reached from the border.
  std::vector<std::uint8_t> outside(n * n, 0);
  std::vector<std::size_t> stack;
  auto push = [&](std::size_t i) {
    if (!mask[i] && !outside[i]) {
      outside[i] = 1;
      stack.push_back(i);
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    push(i);
    push((n - 1) * n + i);
    push(i * n);
    push(i * n + n - 1);
  }
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    const std::size_t x = i % n, y = i / n;
    if (x > 0) push(i - 1);
    if (x + 1 < n) push(i + 1);
    if (y > 0) push(i - n);
    if (y + 1 < n) push(i + n);
  }
  std::vector<std::uint8_t> outline(n * n);
  for (std::size_t i = 0; i < n * n; ++i) outline[i] = outside[i] ? 0 : 1;
  return outline;
}

std::vector<std::uint8_t> dilate_mask(std::span<const std::uint8_t> mask, int resolution, int radius) {
  std::vector<std::uint8_t> grown(mask.begin(), mask.end());
  for (int y = 0; y < resolution; ++y) {
    for (int x = 0; x < resolution; ++x) {
      if (!mask[static_cast<std::size_t>(y * resolution + x)]) continue;
      for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
          const int nx = x + dx, ny = y + dy;
          if (dx * dx + dy * dy > radius * radius || nx < 0 || ny < 0 || nx >= resolution ||
              ny >= resolution) {
            continue;
          }
          grown[static_cast<std::size_t>(ny * resolution + nx)] = 1;
        }
      }
    }
  }
  return grown;
}

SilhouetteDifference compare_silhouettes(std::span<const std::uint8_t> original,
                                         std::span<const std::uint8_t> candidate, int resolution,
                                         int loss_margin_px) {
  const std::vector<std::uint8_t> allowed =
      dilate_mask(silhouette_outline(original, resolution), resolution, loss_margin_px);
  return compare_silhouettes(original, allowed, candidate, resolution, loss_margin_px);
}

SilhouetteDifference compare_silhouettes(std::span<const std::uint8_t> original,
                                         std::span<const std::uint8_t> allowed,
                                         std::span<const std::uint8_t> candidate, int resolution,
                                         int loss_margin_px) {
  const std::vector<std::uint8_t> candidate_outline = silhouette_outline(candidate, resolution);
  const std::vector<std::uint8_t> covered = dilate_mask(candidate_outline, resolution, loss_margin_px);
  SilhouetteDifference diff;
  diff.holes.assign(original.size(), 0);
  diff.loss.assign(original.size(), 0);
  diff.silhouette.assign(original.size(), 0);
  for (std::size_t i = 0; i < original.size(); ++i) {
    diff.original_pixels += original[i];
    diff.holes[i] = original[i] && candidate_outline[i] && !candidate[i] ? 1 : 0;
    diff.loss[i] = candidate[i] && !allowed[i] ? 1 : 0;
    diff.silhouette[i] = original[i] && !covered[i] ? 1 : 0;
    diff.hole_pixels += diff.holes[i];
    diff.loss_pixels += diff.loss[i];
    diff.silhouette_pixels += diff.silhouette[i];
  }
  return diff;
}

}  // namespace myriad::crowd
