#include "myriad/crowd_bake/lod/hole_check.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/crowd/vat.hpp"
#include "myriad/crowd_bake/lod/silhouette_compare.hpp"
#include "myriad/crowd_bake/lod/silhouette_raster.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace myriad::crowd {

namespace {

constexpr const char* kBindPoseLabel = "bind pose";

// Fraction of the original's pixels; a view where the original shows nothing counts any candidate
// pixel as total loss (the candidate appears where nothing should be).
float fraction(std::size_t pixels, std::size_t original_pixels) {
  if (original_pixels == 0) return pixels > 0 ? 1.0f : 0.0f;
  return static_cast<float>(pixels) / static_cast<float>(original_pixels);
}

SilhouetteView view_of(const HoleCheckReference::View& v, int resolution) {
  SilhouetteView view;
  view.direction = v.direction;
  view.center = v.center;
  view.half_extent = v.half_extent;
  view.resolution = resolution;
  return view;
}

// Worst values over the views, in order (ties keep the first view).
void summarize(HoleCheckResult& result, const HoleCheckOptions& options) {
  result.worst_holes = result.worst_loss = result.worst_silhouette = 0.0f;
  result.worst_holes_view = result.worst_loss_view = result.worst_silhouette_view = -1;
  result.worst_score = 0.0f;
  result.worst_pose = 0;
  for (std::size_t i = 0; i < result.views.size(); ++i) {
    const DirectionCheck& c = result.views[i];
    const int index = static_cast<int>(i);
    if (result.worst_holes_view < 0 || c.holes > result.worst_holes)
      result.worst_holes = c.holes, result.worst_holes_view = index;
    if (result.worst_loss_view < 0 || c.loss > result.worst_loss)
      result.worst_loss = c.loss, result.worst_loss_view = index;
    if (result.worst_silhouette_view < 0 || c.silhouette > result.worst_silhouette)
      result.worst_silhouette = c.silhouette, result.worst_silhouette_view = index;
    const float score = std::max(
        {c.holes / options.hole_limit, c.loss / options.loss_limit, c.silhouette / options.silhouette_limit});
    if (i == 0 || score > result.worst_score) result.worst_score = score, result.worst_pose = c.pose;
  }
  result.passed = result.worst_holes <= options.hole_limit && result.worst_loss <= options.loss_limit &&
                  result.worst_silhouette <= options.silhouette_limit;
}

}  // namespace

void HoleCheckOptions::validate() const {
  if (resolution < 8 || resolution > 4096) {
    throw Error("hole check: resolution " + std::to_string(resolution) + " is out of range",
                "HoleCheckOptions::resolution", "use 8..4096 pixels (the default is 120)");
  }
  if (directions < 1 || directions > 1000) {
    throw Error("hole check: " + std::to_string(directions) + " view directions",
                "HoleCheckOptions::directions", "use 1..1000 directions (the default is 11)");
  }
  if (loss_margin_px < 0 || loss_margin_px > resolution / 4) {
    throw Error("hole check: loss margin " + std::to_string(loss_margin_px) + " px is out of range",
                "HoleCheckOptions::loss_margin_px", "use 0..resolution / 4 pixels");
  }
  if (frames_per_clip < 1 || frames_per_clip > 64) {
    throw Error("hole check: " + std::to_string(frames_per_clip) + " frames per clip",
                "HoleCheckOptions::frames_per_clip", "use 1..64 (the default is 4)");
  }
  // Fractions of the original's pixels: 1 already lets every candidate pass.
  struct Limit {
    float value;
    const char *name, *field, *example;
  };
  const Limit limits[] = {
      {hole_limit, "hole", "HoleCheckOptions::hole_limit", "e.g. 0.01 for 1 %"},
      {loss_limit, "loss", "HoleCheckOptions::loss_limit", "e.g. 0.06 for 6 %"},
      {silhouette_limit, "silhouette", "HoleCheckOptions::silhouette_limit", "e.g. 0.05 for 5 %"}};
  for (const Limit& l : limits)
    if (!(l.value > 0.0f && l.value <= 1.0f))
      throw Error(std::string(l.name) + " limit must be a fraction in (0, 1]", l.field, l.example);
}

HoleCheckResult check_holes(const BakeMesh& original, const BakeMesh& candidate,
                            std::span<const BakeMaterial> materials, const HoleCheckOptions& options) {
  return check_holes_in_motion(original, candidate, materials, options, {});
}

MotionPoses motion_poses(const anim::ImportedModel& model, int frames_per_clip) {
  MotionPoses out;
  anim::LocalPose local;
  local.resize(model.skeleton.size());
  std::vector<glm::mat4> model_space(model.skeleton.size());
  for (const anim::Clip& clip : model.clips) {
    const std::string name = clip.name.empty() ? "(unnamed clip)" : clip.name;
    if (!std::isfinite(clip.duration) || clip.duration < 0.0f) {
      out.skipped_clips.push_back(name + ": duration is not a finite time");
      continue;
    }
    try {
      clip.validate(model.skeleton.size());
    } catch (const Error& e) {
      out.skipped_clips.push_back(name + ": " + e.what());
      continue;
    }
    const int frames = clip.duration > 0.0f ? frames_per_clip : 1;
    anim::SamplingCache cache;
    cache.reset(clip);
    for (int k = 0; k < frames; ++k) {
      const float t = clip.duration * (static_cast<float>(k) + 0.5f) / static_cast<float>(frames);
      anim::sample(model.skeleton, clip, t, cache, local);
      anim::local_to_model(model.skeleton.parents, local, model_space);
      MotionPose pose;
      char label[48];
      std::snprintf(label, sizeof label, " at %.2f s", double(t));
      pose.label = name + label;
      pose.palette.resize(model.joints.size());
      anim::build_palette(model_space, model.joints, model.inverse_binds, pose.palette);
      out.poses.push_back(std::move(pose));
    }
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

HoleCheckReference make_hole_check_reference(const BakeMesh& original,
                                             std::span<const BakeMaterial> materials,
                                             const HoleCheckOptions& options,
                                             std::span<const MotionPose> poses) {
  options.validate();
  validate(original, materials.size(), "hole check (original)");
  HoleCheckReference ref;
  ref.options = options;
  ref.materials.assign(materials.begin(), materials.end());
  ref.pose_labels.resize(poses.size() + 1);
  ref.palettes.resize(poses.size() + 1);
  ref.pose_labels[0] = kBindPoseLabel;
  for (std::size_t p = 0; p < poses.size(); ++p) {
    ref.pose_labels[p + 1] = poses[p].label;
    ref.palettes[p + 1] = poses[p].palette;
  }
  ref.views.resize(ref.palettes.size());
  const std::vector<glm::vec3> directions = silhouette_directions(options.directions);
  tbb::parallel_for(std::size_t{0}, ref.palettes.size(), [&](std::size_t p) {
    const BakeMesh posed = ref.palettes[p].empty() ? original : skinned(original, ref.palettes[p]);
    for (const glm::vec3& direction : directions) {
      const SilhouetteView view = frame_silhouette(posed, direction, options.resolution);
      HoleCheckReference::View v;
      v.direction = view.direction;
      v.center = view.center;
      v.half_extent = view.half_extent;
      v.mask = rasterize_silhouette(posed, materials, view);
      v.allowed = dilate_mask(silhouette_outline(v.mask, options.resolution), options.resolution,
                              options.loss_margin_px);
      ref.views[p].push_back(std::move(v));
    }
  });
  return ref;
}

HoleCheckResult check_holes_in_motion(const HoleCheckReference& reference, const BakeMesh& candidate) {
  const HoleCheckOptions& options = reference.options;
  validate(candidate, reference.materials.size(), "hole check (candidate)");
  const std::size_t per_pose = static_cast<std::size_t>(options.directions);
  HoleCheckResult result;
  result.views.resize(reference.views.size() * per_pose);
  tbb::parallel_for(std::size_t{0}, reference.views.size(), [&](std::size_t p) {
    const BakeMesh posed =
        reference.palettes[p].empty() ? candidate : skinned(candidate, reference.palettes[p]);
    for (std::size_t d = 0; d < per_pose; ++d) {
      const HoleCheckReference::View& v = reference.views[p][d];
      const std::vector<std::uint8_t> b =
          rasterize_silhouette(posed, reference.materials, view_of(v, options.resolution));
      const SilhouetteDifference diff =
          compare_silhouettes(v.mask, v.allowed, b, options.resolution, options.loss_margin_px);
      DirectionCheck& check = result.views[p * per_pose + d];
      check.direction = v.direction;
      check.pose = static_cast<int>(p);
      check.holes = fraction(diff.hole_pixels, diff.original_pixels);
      check.loss = fraction(diff.loss_pixels, diff.original_pixels);
      check.silhouette = fraction(diff.silhouette_pixels, diff.original_pixels);
    }
  });
  summarize(result, options);
  return result;
}

HoleCheckResult check_holes_in_motion(const BakeMesh& original, const BakeMesh& candidate,
                                      std::span<const BakeMaterial> materials,
                                      const HoleCheckOptions& options, std::span<const MotionPose> poses) {
  return check_holes_in_motion(make_hole_check_reference(original, materials, options, poses), candidate);
}

}  // namespace myriad::crowd
