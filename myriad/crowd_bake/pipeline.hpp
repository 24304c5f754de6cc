// The crowd LOD baker, start to end: import → weld (C3) → unwrap + re-bake → LOD1 (C5) → hole check →
// LOD2 (C6) → hole check (C7) → VAT of the used columns (C1, C4) → a CrowdFile. A failed hole check
// retries that LOD with a larger budget; when the retries are spent the bake fails and the report
// names the LOD, the view direction and the measured holes/loss against the limits.
#pragma once

#include "myriad/crowd/crowd_file.hpp"
#include "myriad/crowd_bake/hole_check.hpp"
#include "myriad/crowd_bake/lod1_simplify.hpp"
#include "myriad/crowd_bake/lod2_remesh.hpp"
#include "myriad/crowd_bake/uv_unwrap.hpp"
#include "myriad/crowd/vat.hpp"
#include "myriad/crowd_bake/weld.hpp"

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
  int retries = 3;                       // extra attempts per LOD after a failed hole check
  float lod1_ratio_step = 0.12f;         // added to LOD1's ratios per retry
  int lod2_triangle_step = 80;           // added to LOD2's target per retry
  std::filesystem::path contact_sheets;  // "<prefix>_lod1.png", "_lod2.png"; empty: none written
};

struct LodReport {
  std::size_t vertices = 0;
  std::size_t triangles = 0;
  bool checked = false;  // LOD0 is not hole-checked (it is the original surface, welded)
  HoleCheckResult holes;
  int attempts = 0;
  std::string budget;  // the budget of the accepted (or last) attempt, in words
};

struct StageTime {
  std::string stage;
  double ms = 0.0;
};

struct BakeReport {
  std::string name;
  std::size_t original_vertices = 0;
  std::size_t original_triangles = 0;
  std::size_t non_manifold_edges = 0;    // of the original, by position (reported, not fatal)
  std::size_t degenerate_triangles = 0;  // of the original, zero area
  std::size_t welded_vertices = 0;
  std::size_t charts = 0;
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
  bool passed = false;
  std::string failure;  // empty when passed
};

struct BakeOutput {
  CrowdFile file;  // complete only when report.passed
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
