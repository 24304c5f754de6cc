// Comparing two silhouette masks of one view (SPEC C7): the outline of a silhouette is the silhouette
// with every gap filled that the background cannot reach from the image border.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::crowd {

// The mask with enclosed background filled in (4-connected flood fill of the background from the border).
std::vector<std::uint8_t> silhouette_outline(std::span<const std::uint8_t> mask, int resolution);

// The mask grown by a disc of `radius` pixels.
std::vector<std::uint8_t> dilate_mask(std::span<const std::uint8_t> mask, int resolution, int radius);

struct SilhouetteDifference {
  std::vector<std::uint8_t> holes;  // original pixels inside the candidate's outline it misses
  std::vector<std::uint8_t> loss;   // candidate pixels more than the margin outside the original's outline
  // Original pixels more than the margin outside the candidate's outline: what the candidate lost of
  // the original's shape (a missing limb, a shrunken part), which `holes` cannot see.
  std::vector<std::uint8_t> silhouette;
  std::size_t original_pixels = 0;
  std::size_t hole_pixels = 0;
  std::size_t loss_pixels = 0;
  std::size_t silhouette_pixels = 0;
};

SilhouetteDifference compare_silhouettes(std::span<const std::uint8_t> original,
                                         std::span<const std::uint8_t> candidate, int resolution,
                                         int loss_margin_px);

// The same with the original's side precomputed: `allowed` is the original's outline grown by the
// margin (dilate_mask(silhouette_outline(original), margin)), the same for every candidate.
SilhouetteDifference compare_silhouettes(std::span<const std::uint8_t> original,
                                         std::span<const std::uint8_t> allowed,
                                         std::span<const std::uint8_t> candidate, int resolution,
                                         int loss_margin_px);

}  // namespace myriad::crowd
