// The LOD hole check (SPEC C7): a CPU silhouette rasterizer renders the original and a candidate LOD
// from fixed directions (orthographic, shared framing) honouring per-material back-face culling, in
// the bind pose and in frames spread over every clip. Three measures, each a fraction of the
// original's pixel count: holes = original pixels inside the candidate's outline that the candidate
// misses; loss = candidate pixels more than `loss_margin_px` outside the original's outline;
// silhouette = original pixels more than `loss_margin_px` outside the candidate's outline (a limb the
// candidate lost, which holes cannot see: it lies outside the candidate).
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/pose/pose.hpp"

#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace myriad::crowd {

struct HoleCheckOptions {
  int resolution = 120;      // square silhouette images, pixels (8..4096)
  int directions = 11;       // view directions spread over the sphere, deterministic (1..1000)
  float hole_limit = 0.01f;  // fraction of the original's pixels, (0, 1]
  float loss_limit = 0.06f;
  float silhouette_limit = 0.05f;
  int loss_margin_px = 2;   // 0..resolution / 4
  int frames_per_clip = 4;  // posed frames checked per clip, spread over it (motion_poses; 1..64)

  // Throws myriad::Error naming the first invalid field (the checks and the reference call it).
  void validate() const;
};

struct DirectionCheck {
  glm::vec3 direction{0.0f};
  int pose = 0;  // 0: bind pose; 1..: the posed frames given to the check
  float holes = 0.0f;
  float loss = 0.0f;
  float silhouette = 0.0f;
};

struct HoleCheckResult {
  std::vector<DirectionCheck> views;
  float worst_holes = 0.0f;
  float worst_loss = 0.0f;
  float worst_silhouette = 0.0f;
  int worst_holes_view = -1;  // index into views
  int worst_loss_view = -1;
  int worst_silhouette_view = -1;
  // The pose that failed or came closest: the largest measure over its limit, across all views.
  int worst_pose = 0;
  float worst_score = 0.0f;  // that largest measure / limit; the check passes at 1 or below
  bool passed = false;       // every measure within its limit
};

// The bind pose only.
HoleCheckResult check_holes(const BakeMesh& original, const BakeMesh& candidate,
                            std::span<const BakeMaterial> materials, const HoleCheckOptions& options);

// One posed frame the check looks at: renderer-skeleton palette (ImportedModel::joints /
// inverse_binds) and its name, e.g. "Walk at 0.42 s".
struct MotionPose {
  std::string label;
  std::vector<anim::Mat3x4> palette;
};

struct MotionPoses {
  std::vector<MotionPose> poses;
  std::vector<std::string> skipped_clips;  // clips that cannot be sampled, with the reason
};

// `frames_per_clip` frames of every clip, at (k + ½) / frames_per_clip of its duration (one frame for a
// clip without duration). A clip whose channels name joints outside the skeleton or whose keys are
// invalid is skipped and named.
MotionPoses motion_poses(const anim::ImportedModel& model, int frames_per_clip);

// The original's side of the check, computed once and compared with every candidate: per pose (bind
// pose first) and view the framing, the original's mask and its allowed region.
struct HoleCheckReference {
  struct View {
    glm::vec3 direction{0.0f};
    glm::vec3 center{0.0f};  // the orthographic framing of this pose (the original's bounds)
    float half_extent = 1.0f;
    std::vector<std::uint8_t> mask, allowed;
  };
  HoleCheckOptions options;
  std::vector<BakeMaterial> materials;
  std::vector<std::string> pose_labels;             // "bind pose", then the motion poses
  std::vector<std::vector<anim::Mat3x4>> palettes;  // per pose; empty for the bind pose
  std::vector<std::vector<View>> views;             // per pose, per direction
};

HoleCheckReference make_hole_check_reference(const BakeMesh& original,
                                             std::span<const BakeMaterial> materials,
                                             const HoleCheckOptions& options,
                                             std::span<const MotionPose> poses);

// The candidate against the reference in every pose (poses run in parallel). The candidate's joints
// must name entries of the poses' palettes.
HoleCheckResult check_holes_in_motion(const HoleCheckReference& reference, const BakeMesh& candidate);

// Both at once (tests, one-off checks).
HoleCheckResult check_holes_in_motion(const BakeMesh& original, const BakeMesh& candidate,
                                      std::span<const BakeMaterial> materials,
                                      const HoleCheckOptions& options, std::span<const MotionPose> poses);

// A copy of `mesh` with positions and normals skinned by `palette` (linear blend, anim::skin_position).
BakeMesh skinned(const BakeMesh& mesh, std::span<const anim::Mat3x4> palette);

// A PNG contact sheet: one row per view with original, candidate and differences (holes red, loss
// blue, lost silhouette magenta), both meshes skinned by `palette` when one is given (the worst pose).
void write_contact_sheet(const std::filesystem::path& path, const BakeMesh& original,
                         const BakeMesh& candidate, std::span<const BakeMaterial> materials,
                         const HoleCheckOptions& options, std::span<const anim::Mat3x4> palette = {});

}  // namespace myriad::crowd
