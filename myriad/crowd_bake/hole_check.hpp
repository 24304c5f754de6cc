// The LOD hole check (SPEC C7): a CPU silhouette rasterizer renders the original and a candidate LOD
// from fixed directions (orthographic, shared framing) honouring per-material back-face culling.
// holes = original pixels inside the candidate's outline that the candidate misses; loss = candidate
// pixels more than `loss_margin_px` outside the original's outline; both as fractions of the original's
// pixel count.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include "myriad/anim/gltf_import.hpp"
#include "myriad/anim/pose.hpp"

#include <filesystem>
#include <span>
#include <vector>

namespace myriad::crowd {

struct HoleCheckOptions {
  int resolution = 120;      // square silhouette images, pixels
  int directions = 11;       // view directions spread over the sphere, deterministic
  float hole_limit = 0.01f;  // fraction of the original's pixels
  float loss_limit = 0.06f;
  int loss_margin_px = 2;
};

struct DirectionCheck {
  glm::vec3 direction{0.0f};
  int pose = 0;  // 0: bind pose; 1..: the posed frames given to check_holes_in_motion
  float holes = 0.0f;
  float loss = 0.0f;
};

struct HoleCheckResult {
  std::vector<DirectionCheck> views;
  float worst_holes = 0.0f;
  float worst_loss = 0.0f;
  int worst_holes_view = -1;  // index into views
  int worst_loss_view = -1;
  bool passed = false;  // worst_holes <= hole_limit && worst_loss <= loss_limit
};

HoleCheckResult check_holes(const BakeMesh& original, const BakeMesh& candidate,
                            std::span<const BakeMaterial> materials, const HoleCheckOptions& options);

// The check in the bind pose and in each posed frame: `palettes` (renderer-skeleton palettes, one per
// frame) skin both meshes (their joints and weights) before the same comparison. Views of every pose
// are listed (DirectionCheck::pose); the worst over all poses decides.
HoleCheckResult check_holes_in_motion(const BakeMesh& original, const BakeMesh& candidate,
                                      std::span<const BakeMaterial> materials,
                                      const HoleCheckOptions& options,
                                      std::span<const std::vector<anim::Mat3x4>> palettes);

// Three frames of the model's longest clip (at 1/4, 1/2 and 3/4 of it) as renderer-skeleton palettes
// (ImportedModel::joints / inverse_binds): the poses the bake checks besides the bind pose. Empty when
// the model has no clip with a duration.
std::vector<std::vector<anim::Mat3x4>> motion_palettes(const anim::ImportedModel& model);

// A copy of `mesh` with positions and normals skinned by `palette` (linear blend, anim::skin_position).
BakeMesh skinned(const BakeMesh& mesh, std::span<const anim::Mat3x4> palette);

// A PNG contact sheet: one row per view with original, candidate and differences (holes red, loss blue).
void write_contact_sheet(const std::filesystem::path& path, const BakeMesh& original,
                         const BakeMesh& candidate, std::span<const BakeMaterial> materials,
                         const HoleCheckOptions& options);

}  // namespace myriad::crowd
