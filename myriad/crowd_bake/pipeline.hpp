// The crowd LOD baker, start to end: import → weld (C3) → unwrap + re-bake → LOD1 (C5) → hole check →
// LOD2 (C6) → hole check (C7) → VAT of the used columns (C1, C4) → a CrowdFile. Every level comes from
// an ordered fallback chain (LOD1: per-piece simplification at growing ratios, then LOD0 itself; LOD2:
// the voxel remesh per skin region at growing budgets, the whole model remeshed at once, LOD1
// simplified further with its borders free, then LOD1 itself), so a bake always yields a complete file; the
// report says per level which method made it, what each attempt measured, and whether it is within the limits
// (`passed` is true only when every level is). A lower level never has more vertices than the level above.
#pragma once

#include "myriad/crowd/crowd_file.hpp"
#include "myriad/crowd_bake/lod/hole_check.hpp"
#include "myriad/crowd_bake/lod/lod1_simplify.hpp"
#include "myriad/crowd_bake/remesh/lod2_remesh.hpp"
#include "myriad/crowd_bake/uv/uv_unwrap.hpp"
#include "myriad/crowd/vat.hpp"
#include "myriad/crowd_bake/import/weld.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace myriad::crowd {

struct BakeOptions {
  WeldOptions weld;
  UnwrapOptions unwrap;
  Lod1Options lod1;  // head_bones are filled in from the skeleton when left empty
  Lod2Options lod2;
  HoleCheckOptions holes;
  VatOptions vat;
  // Extra attempts per LOD after a failed hole check (0..100). LOD2's last retry asks for
  // lod2.target_triangles + retries * lod2_triangle_step, which must stay a valid target, so a bake the
  // options allow is never refused after its first stages.
  int retries = 3;
  float lod1_ratio_step = 0.12f;  // added to LOD1's ratios per retry, [0, 1]
  int lod2_triangle_step = 80;    // added to LOD2's target per retry, >= 0
  // The last step of each chain: the level above itself (LOD1 = LOD0, LOD2 = LOD1), which always holds
  // when the level above does. False ends the chains before it, keeping the closest try (outside the
  // limits, and said so) — for callers that would rather see a failure than a repeated level.
  bool level_above_fallback = true;
  std::filesystem::path contact_sheets;  // "<prefix>_lod1.png", "_lod2.png"; empty: none written

  // Throws myriad::Error naming the first invalid field, the nested options' first (bake_crowd calls it).
  void validate() const;
};

// How a level was made (the step of its fallback chain that produced it).
enum class LodMethod : std::uint8_t {
  kWeldedUnwrapped = 0,  // LOD0: the welded original, re-unwrapped
  kPieceSimplify = 1,    // LOD1: LOD0 simplified per piece (SPEC C5)
  kVoxelRemesh = 2,      // LOD2: the whole model voxel-remeshed (SPEC C6)
  kRegionRemesh = 3,     // LOD2: remeshed per skin region and joined (limbs never bridged)
  kSimplifiedAbove = 4,  // LOD2: the level above simplified further, borders free
  kLevelAbove = 5,       // the level above itself (nothing smaller held, or it is already small)
};
const char* lod_method_name(LodMethod method);

// One try of a level's chain: what was tried and what the hole check measured.
struct LodAttempt {
  LodMethod method = LodMethod::kPieceSimplify;
  std::string budget;  // in words, e.g. "ratio 0.52 (head 0.85)", "300 triangles"
  std::size_t vertices = 0;
  std::size_t triangles = 0;
  HoleCheckResult holes;
  std::string note;  // why the try was skipped or refused, when it was
};

struct LodReport {
  std::size_t vertices = 0;
  std::size_t triangles = 0;
  bool checked = false;  // LOD0 is not hole-checked (it is the original surface, welded)
  HoleCheckResult holes;
  int attempts = 0;
  std::string budget;  // the budget of the accepted (or last) attempt, in words
  LodMethod method = LodMethod::kWeldedUnwrapped;
  bool within_limits = true;      // LOD0 always; a checked level when its hole check passed
  std::vector<LodAttempt> tried;  // every attempt of the chain, in order
};

struct StageTime {
  std::string stage;
  double ms = 0.0;
};

// The clip a model without motion is baked with: its rest pose, one frame.
inline constexpr const char* kRestClipName = "rest";

struct BakeReport {
  std::string name;
  std::size_t original_vertices = 0;
  std::size_t original_triangles = 0;
  std::size_t non_manifold_edges = 0;    // of the original, by position (reported, not fatal)
  std::size_t degenerate_triangles = 0;  // of the original, zero area
  std::size_t welded_vertices = 0;
  // The welded mesh with the original's UV seams and material borders kept: one vertex per distinct
  // (welded vertex, original UV, material). LOD0 never has more vertices (nor more than the original).
  std::size_t lod0_vertex_bound = 0;
  std::size_t charts = 0;
  std::size_t charts_kept_original = 0;  // charts that kept their original UVs (cheaper than re-unwrapped)
  LodReport lods[3];
  std::vector<Lod1Piece> lod1_pieces;
  std::size_t lod1_pieces_stopped = 0;
  std::size_t lod1_pass1_triangles = 0;  // LOD1 after the per-piece pass, before the cross-border pass
  float lod1_pass2_error = 0.0f;         // the cross-border pass's largest relative error (0: not run)
  std::size_t vat_columns = 0;
  std::size_t vat_columns_naive = 0;  // one column per vertex of every LOD, the original LOD0 unwelded
  std::size_t vat_rows = 0;
  std::size_t vat_bytes_before = 0;  // naive columns × rows × 8 bytes
  std::size_t vat_bytes_after = 0;   // used columns × rows × 8 bytes
  std::vector<StageTime> times;
  std::vector<std::string> skipped_clips;  // clips that could not be sampled, with the reason
  // No clip could be sampled (or the model has none): the file holds one still clip, kRestClipName,
  // of the rest pose.
  bool rest_pose_only = false;
  std::vector<std::string> warnings;  // fallbacks taken, levels outside the limits, skipped clips
  bool passed = false;                // every level within the hole-check limits
  std::string failure;                // empty when passed: the levels outside the limits, with view and pose
};

struct BakeOutput {
  CrowdFile file;  // always complete; with report.passed false it holds the best level found
  BakeReport report;
};

// Progress: stage name and the number of stages done so far out of the total.
using BakeProgress = std::function<void(const std::string& stage, int done, int total)>;

BakeOutput bake_crowd(const anim::ImportedModel& model, const std::string& name, const BakeOptions& options,
                      const BakeProgress& progress = {});

// The model's meshes as the part table of its .crowd file: name, the joint a part follows alone (every
// vertex weighted 1 to it), the number of joints it is weighted to, triangles, material name.
std::vector<CrowdPart> describe_parts(const anim::ImportedModel& model);

// The report as text: vertices/triangles per LOD, VAT bytes before/after, holes/loss per LOD, pieces
// stopped above target, time per stage and, on failure, what failed.
std::string format_report(const BakeReport& report, const HoleCheckOptions& limits);

}  // namespace myriad::crowd
