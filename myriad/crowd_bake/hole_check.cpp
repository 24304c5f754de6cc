#include "myriad/crowd_bake/hole_check.hpp"

#include "myriad/core/error.hpp"
#include "myriad/crowd/vat.hpp"
#include "myriad/crowd_bake/silhouette_compare.hpp"
#include "myriad/crowd_bake/silhouette_raster.hpp"

#include <string>

namespace myriad::crowd {

namespace {

void validate_options(const HoleCheckOptions& options) {
  if (options.resolution < 8 || options.resolution > 4096) {
    throw Error("hole check: resolution " + std::to_string(options.resolution) + " is out of range",
                "HoleCheckOptions::resolution", "use 8..4096 pixels (the default is 120)");
  }
  if (options.directions < 1 || options.directions > 1000) {
    throw Error("hole check: " + std::to_string(options.directions) + " view directions",
                "HoleCheckOptions::directions", "use 1..1000 directions (the default is 11)");
  }
  if (options.loss_margin_px < 0 || options.loss_margin_px > options.resolution / 4) {
    throw Error("hole check: loss margin " + std::to_string(options.loss_margin_px) + " px is out of range",
                "HoleCheckOptions::loss_margin_px");
  }
}

// Fraction of the original's pixels; a view where the original shows nothing counts any candidate
// pixel as total loss (the candidate appears where nothing should be).
float fraction(std::size_t pixels, std::size_t original_pixels) {
  if (original_pixels == 0) return pixels > 0 ? 1.0f : 0.0f;
  return static_cast<float>(pixels) / static_cast<float>(original_pixels);
}

}  // namespace

HoleCheckResult check_holes(const BakeMesh& original, const BakeMesh& candidate,
                            std::span<const BakeMaterial> materials, const HoleCheckOptions& options) {
  validate_options(options);
  validate(original, materials.size(), "hole check (original)");
  validate(candidate, materials.size(), "hole check (candidate)");
  HoleCheckResult result;
  for (const glm::vec3& direction : silhouette_directions(options.directions)) {
    const SilhouetteView view = frame_silhouette(original, direction, options.resolution);
    const std::vector<std::uint8_t> a = rasterize_silhouette(original, materials, view);
    const std::vector<std::uint8_t> b = rasterize_silhouette(candidate, materials, view);
    const SilhouetteDifference diff = compare_silhouettes(a, b, options.resolution, options.loss_margin_px);
    DirectionCheck check;
    check.direction = view.direction;
    check.holes = fraction(diff.hole_pixels, diff.original_pixels);
    check.loss = fraction(diff.loss_pixels, diff.original_pixels);
    const int index = static_cast<int>(result.views.size());
    if (result.worst_holes_view < 0 || check.holes > result.worst_holes) {
      result.worst_holes = check.holes;
      result.worst_holes_view = index;
    }
    if (result.worst_loss_view < 0 || check.loss > result.worst_loss) {
      result.worst_loss = check.loss;
      result.worst_loss_view = index;
    }
    result.views.push_back(check);
  }
  result.passed = result.worst_holes <= options.hole_limit && result.worst_loss <= options.loss_limit;
  return result;
}

// The posed frames the hole check also looks at (SPEC C7 in motion): three frames of the longest clip,
// at a quarter, half and three quarters of it, as renderer-skeleton palettes.
std::vector<std::vector<anim::Mat3x4>> motion_palettes(const anim::ImportedModel& model) {
  std::vector<std::vector<anim::Mat3x4>> out;
  const anim::Clip* longest = nullptr;
  for (const anim::Clip& c : model.clips) {
    if (!longest || c.duration > longest->duration) longest = &c;
  }
  if (!longest || !(longest->duration > 0.0f)) return out;
  anim::SamplingCache cache;
  cache.reset(*longest);
  anim::LocalPose local;
  local.resize(model.skeleton.size());
  std::vector<glm::mat4> model_space(model.skeleton.size());
  for (int k = 1; k <= 3; ++k) {
    anim::sample(model.skeleton, *longest, longest->duration * static_cast<float>(k) / 4.0f, cache, local);
    anim::local_to_model(model.skeleton.parents, local, model_space);
    std::vector<anim::Mat3x4> palette(model.joints.size());
    anim::build_palette(model_space, model.joints, model.inverse_binds, palette);
    out.push_back(std::move(palette));
  }
  return out;
}

BakeMesh skinned(const BakeMesh& mesh, std::span<const anim::Mat3x4> palette) {
  BakeMesh out = mesh;
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    for (int k = 0; k < 4; ++k) {
      if (mesh.joints[v][k] >= palette.size())
        throw Error("hole check: a vertex names a joint outside the palette");
    }
    out.positions[v] = anim::skin_position(palette, mesh.joints[v], mesh.weights[v], mesh.positions[v]);
    out.normals[v] = skin_normal(palette, mesh.joints[v], mesh.weights[v], mesh.normals[v]);
  }
  return out;
}

HoleCheckResult check_holes_in_motion(const BakeMesh& original, const BakeMesh& candidate,
                                      std::span<const BakeMaterial> materials,
                                      const HoleCheckOptions& options,
                                      std::span<const std::vector<anim::Mat3x4>> palettes) {
  HoleCheckResult result = check_holes(original, candidate, materials, options);
  for (std::size_t p = 0; p < palettes.size(); ++p) {
    const HoleCheckResult posed =
        check_holes(skinned(original, palettes[p]), skinned(candidate, palettes[p]), materials, options);
    for (DirectionCheck check : posed.views) {
      check.pose = static_cast<int>(p + 1);
      const int index = static_cast<int>(result.views.size());
      if (check.holes > result.worst_holes) result.worst_holes = check.holes, result.worst_holes_view = index;
      if (check.loss > result.worst_loss) result.worst_loss = check.loss, result.worst_loss_view = index;
      result.views.push_back(check);
    }
  }
  result.passed = result.worst_holes <= options.hole_limit && result.worst_loss <= options.loss_limit;
  return result;
}

}  // namespace myriad::crowd
