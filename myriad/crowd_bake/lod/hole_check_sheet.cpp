// The contact sheet of a hole check: one row per view, three tiles per row (original, candidate,
// differences), so a failed LOD can be judged by eye; in the pose given (the bake passes its worst).
#include "myriad/crowd_bake/lod/hole_check.hpp"

#include "myriad/core/image/image_io.hpp"
#include "myriad/crowd_bake/lod/silhouette_compare.hpp"
#include "myriad/crowd_bake/lod/silhouette_raster.hpp"

#include <array>

namespace myriad::crowd {

namespace {

using Rgb = std::array<std::uint8_t, 3>;

constexpr int kGap = 4;  // pixels between tiles and rows
constexpr Rgb kBackground{24, 24, 28};
constexpr Rgb kSeparator{70, 70, 80};
constexpr Rgb kFilled{235, 235, 235};
constexpr Rgb kBoth{150, 150, 150};
constexpr Rgb kOriginalOnly{80, 80, 80};      // outside the candidate's outline: simplification, not a hole
constexpr Rgb kCandidateOnly{200, 200, 120};  // within the loss margin
constexpr Rgb kHole{230, 40, 40};
constexpr Rgb kLoss{50, 90, 240};
constexpr Rgb kSilhouette{220, 60, 220};  // original shape the candidate lost (outside its outline)

}  // namespace

void write_contact_sheet(const std::filesystem::path& path, const BakeMesh& unposed_original,
                         const BakeMesh& unposed_candidate, std::span<const BakeMaterial> materials,
                         const HoleCheckOptions& options, std::span<const anim::Mat3x4> palette) {
  // check_holes validates the options and both meshes with the same messages.
  (void)check_holes(unposed_original, unposed_candidate, materials, options);
  const BakeMesh original = palette.empty() ? unposed_original : skinned(unposed_original, palette);
  const BakeMesh candidate = palette.empty() ? unposed_candidate : skinned(unposed_candidate, palette);
  const int res = options.resolution;
  const int width = 3 * res + 4 * kGap;
  const int height = options.directions * (res + kGap) + kGap;
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4, 255);
  auto put = [&](int x, int y, Rgb colour) {
    const std::size_t i =
        (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
    rgba[i] = colour[0];
    rgba[i + 1] = colour[1];
    rgba[i + 2] = colour[2];
  };
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) put(x, y, kSeparator);
  }
  int row = 0;
  for (const glm::vec3& direction : silhouette_directions(options.directions)) {
    const SilhouetteView view = frame_silhouette(original, direction, res);
    const std::vector<std::uint8_t> a = rasterize_silhouette(original, materials, view);
    const std::vector<std::uint8_t> b = rasterize_silhouette(candidate, materials, view);
    const SilhouetteDifference diff = compare_silhouettes(a, b, res, options.loss_margin_px);
    const int top = kGap + row * (res + kGap);
    for (int y = 0; y < res; ++y) {
      for (int x = 0; x < res; ++x) {
        const std::size_t i = static_cast<std::size_t>(y * res + x);
        put(kGap + x, top + y, a[i] ? kFilled : kBackground);
        put(2 * kGap + res + x, top + y, b[i] ? kFilled : kBackground);
        Rgb colour = kBackground;
        if (diff.holes[i]) {
          colour = kHole;
        } else if (diff.loss[i]) {
          colour = kLoss;
        } else if (diff.silhouette[i]) {
          colour = kSilhouette;
        } else if (a[i] && b[i]) {
          colour = kBoth;
        } else if (a[i]) {
          colour = kOriginalOnly;
        } else if (b[i]) {
          colour = kCandidateOnly;
        }
        put(3 * kGap + 2 * res + x, top + y, colour);
      }
    }
    ++row;
  }
  write_png_rgba8(path, static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), rgba);
}

}  // namespace myriad::crowd
