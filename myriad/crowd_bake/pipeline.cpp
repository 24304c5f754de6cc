#include "myriad/crowd_bake/pipeline.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd_bake/texture/texture_rebake.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace myriad::crowd {
namespace {

constexpr int kStages = 8;
// Budgets the whole-model remesh tries (from the base target, one step apart) after the region remesh.
constexpr int kWholeModelAttempts = 2;
// A limb holds at least this fraction of the surface to be a region of its own (else it stays with
// the joint it hangs from).
constexpr float kRegionAreaFraction = 0.015f;

CrowdLod to_crowd_lod(const BakeMesh& mesh, std::vector<std::uint32_t> columns, std::uint32_t texture,
                      const LodReport& report) {
  CrowdLod lod;
  lod.positions = mesh.positions;
  lod.normals = mesh.normals;
  lod.uvs = mesh.uvs.empty() ? std::vector<glm::vec2>(mesh.vertex_count(), glm::vec2(0.0f)) : mesh.uvs;
  lod.columns = std::move(columns);
  lod.indices = mesh.indices;
  lod.triangle_material = mesh.triangle_material;
  lod.texture = texture;
  lod.method = lod_method_name(report.method);
  lod.checked = report.checked;
  lod.within_limits = report.within_limits;
  if (report.checked) {
    lod.holes = report.holes.worst_holes;
    lod.loss = report.holes.worst_loss;
    lod.silhouette = report.holes.worst_silhouette;
  }
  return lod;
}

std::string describe_failure(const char* lod, const LodReport& r, const HoleCheckOptions& limits,
                             const std::vector<std::string>& pose_labels) {
  const HoleCheckResult& h = r.holes;
  std::string s = std::string(lod) + " (" + lod_method_name(r.method) + ", best of " +
                  std::to_string(r.tried.size()) + " tries) is outside the hole-check limits:";
  auto add = [&](const char* what, float value, float limit, int view) {
    if (value <= limit || view < 0 || static_cast<std::size_t>(view) >= h.views.size()) return;
    const DirectionCheck& c = h.views[static_cast<std::size_t>(view)];
    const glm::vec3 d = c.direction;
    const std::size_t pose = static_cast<std::size_t>(c.pose);
    const std::string label = pose < pose_labels.size() ? pose_labels[pose] : "pose " + std::to_string(pose);
    char buf[320];
    std::snprintf(buf, sizeof buf, " %s %.2f %% > %.2f %% from view %d (direction %.2f %.2f %.2f, %s);", what,
                  double(value) * 100.0, double(limit) * 100.0, view % limits.directions, double(d.x),
                  double(d.y), double(d.z), label.c_str());
    s += buf;
  };
  add("holes", h.worst_holes, limits.hole_limit, h.worst_holes_view);
  add("loss", h.worst_loss, limits.loss_limit, h.worst_loss_view);
  add("silhouette", h.worst_silhouette, limits.silhouette_limit, h.worst_silhouette_view);
  return s;
}

// A candidate lower level: its mesh, per vertex what it animates from, and its own texture (LOD2's
// remeshes) or none (levels made of LOD0 vertices sample LOD0's atlas).
struct Candidate {
  BakeMesh mesh;
  std::vector<Attachment> attachments;  // into LOD0 vertices
  std::optional<anim::Texture> texture;
  std::vector<std::uint32_t> lod0_vertex;  // for levels made of LOD0 vertices
};

Candidate from_lod0_vertices(Lod1Result level) {
  Candidate c;
  c.mesh = std::move(level.mesh);
  c.lod0_vertex = std::move(level.lod0_vertex);
  for (const std::uint32_t v : c.lod0_vertex) c.attachments.push_back({v, v, v, glm::vec3(1.0f, 0.0f, 0.0f)});
  return c;
}

Candidate from_remesh(Lod2Result r) {
  Candidate c;
  c.mesh = std::move(r.mesh);
  c.attachments = std::move(r.attachments);
  c.texture = std::move(r.texture);
  return c;
}

// The model with only the clips that can be sampled; the others are named in `skipped`. With none, one
// still clip of the rest pose (`rest_pose` set).
anim::ImportedModel sampleable_clips(const anim::ImportedModel& model, std::vector<std::string>& skipped,
                                     bool& rest_pose) {
  anim::ImportedModel out = model;
  out.clips.clear();
  rest_pose = false;
  for (const anim::Clip& clip : model.clips) {
    const std::string name = clip.name.empty() ? "(unnamed clip)" : clip.name;
    if (!std::isfinite(clip.duration) || clip.duration < 0.0f) {
      skipped.push_back(name + ": duration is not a finite time");
      continue;
    }
    try {
      clip.validate(model.skeleton.size());
    } catch (const Error& e) {
      skipped.push_back(name + ": " + e.what());
      continue;
    }
    out.clips.push_back(clip);
  }
  if (out.clips.empty()) {
    // A model without motion (a prop, a statue, a character exported without its clips) still makes a
    // crowd: one clip of its rest pose, the last step of the chain, named in the report's warnings.
    anim::Clip rest;
    rest.name = kRestClipName;
    out.clips.push_back(std::move(rest));
    rest_pose = true;
  }
  return out;
}

// Of the tried candidates, the first within the limits, else the one closest to them.
std::size_t choose(const std::vector<LodAttempt>& tried, const std::vector<std::uint8_t>& usable) {
  std::size_t best = SIZE_MAX;
  for (std::size_t i = 0; i < tried.size(); ++i) {
    if (!usable[i]) continue;
    if (tried[i].holes.passed) return i;
    if (best == SIZE_MAX || tried[i].holes.worst_score < tried[best].holes.worst_score) best = i;
  }
  return best;
}

}  // namespace

const char* lod_method_name(LodMethod method) {
  switch (method) {
    case LodMethod::kWeldedUnwrapped:
      return "welded, re-unwrapped";
    case LodMethod::kPieceSimplify:
      return "per-piece simplify";
    case LodMethod::kVoxelRemesh:
      return "voxel remesh";
    case LodMethod::kRegionRemesh:
      return "region remesh";
    case LodMethod::kSimplifiedAbove:
      return "LOD1 simplified further";
    case LodMethod::kLevelAbove:
      return "level above";
  }
  return "unknown";
}

void BakeOptions::validate() const {
  weld.validate();
  unwrap.validate();
  lod1.validate();
  if (retries < 0 || retries > 100) throw Error("bake retries must be in [0, 100]", "BakeOptions::retries");
  if (!(lod1_ratio_step >= 0.0f && lod1_ratio_step <= 1.0f))
    throw Error("the LOD1 ratio step must be in [0, 1]", "BakeOptions::lod1_ratio_step");
  if (lod2_triangle_step < 0 || lod2_triangle_step > kMaxLod2Triangles)
    throw Error("the LOD2 triangle step must be in [0, " + std::to_string(kMaxLod2Triangles) + "]",
                "BakeOptions::lod2_triangle_step");
  // LOD2's last retry asks for the target plus every retry's step: the largest target leaves room for
  // them, so a target accepted here is never refused after the import, weld, unwrap and LOD1 stages
  // (both terms are bounded above: no overflow).
  const int largest = kMaxLod2Triangles - retries * lod2_triangle_step;
  if (lod2.target_triangles < kMinLod2Triangles || lod2.target_triangles > largest)
    throw Error("LOD2 triangle target must be in [" + std::to_string(kMinLod2Triangles) + ", " +
                    std::to_string(largest) + "]",
                "BakeOptions::lod2.target_triangles", "the article uses 200-460");
  lod2.validate();
  holes.validate();
  vat.validate();
}

BakeOutput bake_crowd(const anim::ImportedModel& input_model, const std::string& name,
                      const BakeOptions& options, const BakeProgress& progress) {
  options.validate();
  BakeOutput out;
  BakeReport& rep = out.report;
  rep.name = name;
  int done = 0;
  Stopwatch clock;
  double checking_ms = 0.0;  // hole-check time inside the current LOD stage, reported as its own stage
  auto stage_done = [&](const char* stage) {
    rep.times.push_back({stage, clock.elapsed_ms() - checking_ms});
    if (checking_ms > 0.0) rep.times.push_back({std::string(stage) + " hole check", checking_ms});
    checking_ms = 0.0;
    clock.restart();
    if (progress) progress(stage, ++done, kStages);
  };

  const anim::ImportedModel model = sampleable_clips(input_model, rep.skipped_clips, rep.rest_pose_only);
  for (const std::string& s : rep.skipped_clips) rep.warnings.push_back("clip skipped: " + s);
  if (rep.rest_pose_only) {
    rep.warnings.push_back(
        std::string(input_model.clips.empty() ? "the model has no animation" : "no clip could be sampled") +
        ": baked its rest pose as one still clip '" + kRestClipName + "'");
  }
  const BakeSource src = import_for_bake(model, name);
  const MotionPoses motion = motion_poses(model, options.holes.frames_per_clip);
  const HoleCheckReference reference =
      make_hole_check_reference(src.mesh, src.materials, options.holes, motion.poses);
  auto timed_check = [&](const BakeMesh& candidate) {
    Stopwatch check_clock;
    HoleCheckResult result = check_holes_in_motion(reference, candidate);
    checking_ms += check_clock.elapsed_ms();
    return result;
  };
  rep.original_vertices = src.mesh.vertex_count();
  rep.original_triangles = src.mesh.triangle_count();
  rep.non_manifold_edges = src.non_manifold_edges;
  rep.degenerate_triangles = src.degenerate_triangles;
  stage_done("import");

  const WeldResult welded = weld(src.mesh, options.weld, src.morph_key);
  rep.welded_vertices = welded.vertices_after;
  stage_done("weld");

  const UnwrapResult unwrapped =
      unwrap_and_rebake(welded.mesh, src.mesh, src.materials, src.textures, options.unwrap);
  const BakeMesh& lod0 = unwrapped.mesh;
  validate(lod0, src.materials.size(), "unwrapped LOD0");
  if (unwrapped.source_vertex.size() != lod0.vertex_count())
    throw Error("unwrap: source_vertex size differs from its mesh");
  rep.charts = unwrapped.chart_count;
  rep.lod0_vertex_bound = unwrapped.vertex_bound;
  rep.charts_kept_original = unwrapped.charts_kept_original;
  LodReport& r0 = rep.lods[0];
  r0.vertices = lod0.vertex_count();
  r0.triangles = lod0.triangle_count();
  r0.attempts = 1;
  r0.method = LodMethod::kWeldedUnwrapped;
  r0.budget = "all triangles (welded, re-unwrapped; " + std::to_string(unwrapped.charts_kept_original) +
              " charts kept their original UVs)";
  stage_done("unwrap");

  // LOD1: per-piece simplification at growing ratios, then LOD0 itself.
  Lod1Options lod1_options = options.lod1;
  if (lod1_options.head_bones.empty()) lod1_options.head_bones = head_bones(model);
  LodReport& r1 = rep.lods[1];
  r1.checked = true;
  std::vector<Lod1Result> lod1_tries;
  std::vector<std::uint8_t> lod1_usable;
  for (int attempt = 0; attempt <= options.retries; ++attempt) {
    Lod1Result lod1 = simplify_lod1(lod0, lod1_options);
    LodAttempt a;
    a.method = LodMethod::kPieceSimplify;
    char buf[96];
    std::snprintf(buf, sizeof buf, "ratio %.2f (head %.2f)", double(lod1_options.target_ratio),
                  double(lod1_options.head_ratio));
    a.budget = buf;
    a.vertices = lod1.mesh.vertex_count();
    a.triangles = lod1.mesh.triangle_count();
    a.holes = timed_check(lod1.mesh);
    const bool passed = a.holes.passed;
    r1.tried.push_back(std::move(a));
    lod1_tries.push_back(std::move(lod1));
    lod1_usable.push_back(1);
    if (passed || lod1_options.target_ratio >= 1.0f) break;
    lod1_options.target_ratio = std::min(1.0f, lod1_options.target_ratio + options.lod1_ratio_step);
    lod1_options.head_ratio = std::min(1.0f, std::max(lod1_options.head_ratio, lod1_options.target_ratio));
  }
  if (!r1.tried.back().holes.passed && options.level_above_fallback) {
    Lod1Result whole = whole_lod0(lod0);
    LodAttempt a;
    a.method = LodMethod::kLevelAbove;
    a.budget = "all of LOD0";
    a.vertices = whole.mesh.vertex_count();
    a.triangles = whole.mesh.triangle_count();
    a.holes = timed_check(whole.mesh);
    r1.tried.push_back(std::move(a));
    lod1_tries.push_back(std::move(whole));
    lod1_usable.push_back(1);
  }
  const std::size_t pick1 = choose(r1.tried, lod1_usable);
  const Lod1Result& lod1 = lod1_tries[pick1];
  r1.method = r1.tried[pick1].method;
  r1.budget = r1.tried[pick1].budget;
  r1.holes = r1.tried[pick1].holes;
  r1.within_limits = r1.holes.passed;
  r1.attempts = static_cast<int>(r1.tried.size());
  r1.vertices = lod1.mesh.vertex_count();
  r1.triangles = lod1.mesh.triangle_count();
  rep.lod1_pieces = lod1.pieces;
  rep.lod1_pieces_stopped = lod1.pieces_stopped_above_target;
  rep.lod1_pass1_triangles = lod1.pass1_triangles;
  rep.lod1_pass2_error = lod1.pass2_error;
  stage_done("lod1");

  // LOD2: the voxel remesh per skin region at growing budgets, the whole model remeshed at once, LOD1
  // simplified further (borders free), LOD1 itself. A candidate with more vertices than LOD1 is refused
  // unchecked. LOD2's texels come from the original textures (LOD0 keeps the original's triangle order and
  // corners), not from LOD0's atlas: one resampling fewer.
  const bool original_uvs = src.mesh.uvs.size() == src.mesh.positions.size();
  const TriangleColour original_colour = [&](std::uint32_t t, glm::vec3 bary) {
    const std::uint32_t* f = &src.mesh.indices[3 * static_cast<std::size_t>(t)];
    const glm::vec2 uv =
        original_uvs ? bary.x * src.mesh.uvs[f[0]] + bary.y * src.mesh.uvs[f[1]] + bary.z * src.mesh.uvs[f[2]]
                     : glm::vec2(0.0f);
    return sample_base_color(src.materials[src.mesh.triangle_material[t]], src.textures, uv);
  };
  LodReport& r2 = rep.lods[2];
  r2.checked = true;
  std::vector<Candidate> lod2_tries;
  std::vector<std::uint8_t> lod2_usable;
  bool lod2_done = false;
  auto try_lod2 = [&](LodMethod method, const std::string& budget, const std::function<Candidate()>& make) {
    if (lod2_done) return;
    LodAttempt a;
    a.method = method;
    a.budget = budget;
    Candidate c;
    bool usable = false;
    try {
      c = make();
      a.vertices = c.mesh.vertex_count();
      a.triangles = c.mesh.triangle_count();
      if (c.attachments.size() != c.mesh.vertex_count())
        throw Error("LOD2: one attachment per vertex expected");
      if (a.vertices > r1.vertices) {
        a.note = std::to_string(a.vertices) + " vertices, more than LOD1's " + std::to_string(r1.vertices);
      } else {
        a.holes = timed_check(c.mesh);
        usable = true;
        lod2_done = a.holes.passed;
      }
    } catch (const Error& e) {
      a.note = std::string("failed: ") + e.what();
    }
    r2.tried.push_back(std::move(a));
    lod2_tries.push_back(std::move(c));
    lod2_usable.push_back(usable ? 1 : 0);
  };
  const int base = options.lod2.target_triangles;
  if (r1.triangles <= static_cast<std::size_t>(base)) {
    r2.tried.push_back(
        {LodMethod::kVoxelRemesh,
         std::to_string(base) + " triangles",
         0,
         0,
         {},
         "skipped: LOD1 has " + std::to_string(r1.triangles) + " triangles, within the budget"});
    lod2_tries.emplace_back();
    lod2_usable.push_back(0);
  } else {
    // Per skin region first (limbs are never bridged), then the whole model at once (a model of one
    // region, or where the regions' joins show).
    std::size_t regions = 0;
    const std::vector<std::uint32_t> region =
        skin_regions(lod0, renderer_joint_parents(model), kRegionAreaFraction, regions);
    for (int attempt = 0; attempt <= options.retries && regions > 1; ++attempt) {
      Lod2Options o = options.lod2;
      o.target_triangles = base + attempt * options.lod2_triangle_step;
      try_lod2(LodMethod::kRegionRemesh,
               std::to_string(o.target_triangles) + " triangles over " + std::to_string(regions) + " regions",
               [&] {
                 return from_remesh(remesh_lod2_by_region(lod0, unwrapped.texture, src.materials, o, region,
                                                          regions, &original_colour));
               });
    }
    for (int attempt = 0; attempt < kWholeModelAttempts || (regions <= 1 && attempt <= options.retries);
         ++attempt) {
      Lod2Options o = options.lod2;
      o.target_triangles = base + attempt * options.lod2_triangle_step;
      try_lod2(LodMethod::kVoxelRemesh, std::to_string(o.target_triangles) + " triangles", [&] {
        return from_remesh(remesh_lod2(lod0, unwrapped.texture, src.materials, o, &original_colour));
      });
    }
  }
  for (int attempt = 0; attempt <= options.retries; ++attempt) {
    const std::size_t target = static_cast<std::size_t>(base + attempt * options.lod2_triangle_step);
    if (target >= r1.triangles) break;
    try_lod2(LodMethod::kSimplifiedAbove, std::to_string(target) + " triangles",
             [&] { return from_lod0_vertices(simplify_further(lod0, lod1, target)); });
  }
  if (options.level_above_fallback)
    try_lod2(LodMethod::kLevelAbove, "LOD1 as it is",
             [&] { return from_lod0_vertices(copy_level(lod0, lod1)); });
  const std::size_t pick2 = choose(r2.tried, lod2_usable);
  if (pick2 == SIZE_MAX) throw Error("LOD2: no candidate could be made");
  const Candidate& lod2 = lod2_tries[pick2];
  r2.method = r2.tried[pick2].method;
  r2.budget = r2.tried[pick2].budget;
  r2.holes = r2.tried[pick2].holes;
  r2.within_limits = r2.holes.passed;
  r2.attempts = static_cast<int>(r2.tried.size());
  r2.vertices = lod2.mesh.vertex_count();
  r2.triangles = lod2.mesh.triangle_count();
  stage_done("lod2");

  if (!options.contact_sheets.empty()) {
    const std::filesystem::path base_path = options.contact_sheets;
    write_contact_sheet(base_path.string() + "_lod1.png", src.mesh, lod1.mesh, src.materials, options.holes,
                        reference.palettes[static_cast<std::size_t>(r1.holes.worst_pose)]);
    write_contact_sheet(base_path.string() + "_lod2.png", src.mesh, lod2.mesh, src.materials, options.holes,
                        reference.palettes[static_cast<std::size_t>(r2.holes.worst_pose)]);
  }
  stage_done("contact sheets");

  if (!r1.within_limits)
    rep.failure += describe_failure("LOD1", r1, options.holes, reference.pose_labels) + " ";
  if (!r2.within_limits) rep.failure += describe_failure("LOD2", r2, options.holes, reference.pose_labels);
  if (r1.method != LodMethod::kPieceSimplify)
    rep.warnings.push_back(std::string("LOD1 fell back to ") + lod_method_name(r1.method));
  if (r2.method != LodMethod::kRegionRemesh && r2.method != LodMethod::kVoxelRemesh)
    rep.warnings.push_back(std::string("LOD2 made by ") + lod_method_name(r2.method) + " (" + r2.budget +
                           ")");
  if (!r1.within_limits)
    rep.warnings.push_back("LOD1 is outside the hole-check limits (the closest of its tries)");
  if (!r2.within_limits)
    rep.warnings.push_back("LOD2 is outside the hole-check limits (the closest of its tries)");

  // VAT columns: welded vertices some LOD uses, then LOD2's attached columns (a weight of exactly 1 on
  // one vertex reuses that vertex's column instead).
  const std::vector<std::uint32_t>& welded_of_lod0 = unwrapped.source_vertex;
  std::vector<std::uint32_t> column_of_welded(welded.mesh.vertex_count(), UINT32_MAX);
  BakeMesh skinned_columns;
  auto column_of_lod0 = [&](std::uint32_t v) {
    const std::uint32_t w = welded_of_lod0[v];
    if (column_of_welded[w] == UINT32_MAX) {
      column_of_welded[w] = static_cast<std::uint32_t>(skinned_columns.positions.size());
      skinned_columns.positions.push_back(welded.mesh.positions[w]);
      skinned_columns.normals.push_back(welded.mesh.normals[w]);
      skinned_columns.joints.push_back(welded.mesh.joints[w]);
      skinned_columns.weights.push_back(welded.mesh.weights[w]);
    }
    return column_of_welded[w];
  };
  std::vector<std::uint32_t> lod0_columns(lod0.vertex_count());
  for (std::uint32_t i : lod0.indices) lod0_columns[i] = column_of_lod0(i);
  std::vector<std::uint32_t> lod1_columns;
  for (std::uint32_t v : lod1.lod0_vertex) lod1_columns.push_back(lod0_columns[v]);
  std::vector<Attachment> attached;
  std::vector<std::uint32_t> lod2_columns;
  const auto skinned_count = static_cast<std::uint32_t>(skinned_columns.positions.size());
  for (const Attachment& a : lod2.attachments) {
    if (a.a >= lod0.vertex_count() || a.b >= lod0.vertex_count() || a.c >= lod0.vertex_count())
      throw Error("LOD2: an attachment names a vertex outside LOD0");
    const Attachment col{column_of_lod0(a.a), column_of_lod0(a.b), column_of_lod0(a.c), a.w};
    if (a.w == glm::vec3(1.0f, 0.0f, 0.0f)) {
      lod2_columns.push_back(col.a);
      continue;
    }
    lod2_columns.push_back(skinned_count + static_cast<std::uint32_t>(attached.size()));
    attached.push_back(col);
  }
  if (skinned_columns.positions.size() != skinned_count)
    throw Error("LOD2: attachments name LOD0 vertices no triangle uses");
  // Morph offsets per skinned column: those of any original vertex the column's welded vertex merges
  // (weld merged only vertices with equal offsets).
  VertexMorphs column_morphs;
  if (!src.morphs.empty()) {
    std::vector<std::uint32_t> original_of_welded(welded.mesh.vertex_count(), UINT32_MAX);
    for (std::size_t o = welded.welded_of.size(); o-- > 0;)
      original_of_welded[welded.welded_of[o]] = static_cast<std::uint32_t>(o);
    std::vector<std::uint32_t> welded_of_column(skinned_count);
    for (std::size_t w = 0; w < column_of_welded.size(); ++w)
      if (column_of_welded[w] != UINT32_MAX)
        welded_of_column[column_of_welded[w]] = static_cast<std::uint32_t>(w);
    column_morphs.targets = src.morphs.targets;
    column_morphs.first.push_back(0);
    for (std::uint32_t c = 0; c < skinned_count; ++c) {
      for (const MorphOffset& o : src.morphs.of(original_of_welded[welded_of_column[c]]))
        column_morphs.offsets.push_back(o);
      column_morphs.first.push_back(static_cast<std::uint32_t>(column_morphs.offsets.size()));
    }
  }
  const Vat vat = bake_vat(model, skinned_columns, attached, options.vat, column_morphs);
  rep.vat_columns = vat.columns;
  rep.vat_rows = vat.rows;
  rep.vat_columns_naive = rep.original_vertices + r1.vertices + r2.vertices;
  rep.vat_bytes_before = rep.vat_columns_naive * vat.rows * sizeof(glm::u16vec4);
  rep.vat_bytes_after = vat.texel_bytes();
  stage_done("vat");

  CrowdFile& f = out.file;
  f.name = name;
  for (const BakeMaterial& m : src.materials) f.materials.push_back({m.name, m.double_sided});
  f.parts = describe_parts(model);
  f.textures = {unwrapped.texture};
  std::uint32_t lod2_texture = 0;
  if (lod2.texture) {
    lod2_texture = 1;
    f.textures.push_back(*lod2.texture);
  }
  f.lods.push_back(to_crowd_lod(lod0, std::move(lod0_columns), 0, r0));
  f.lods.push_back(to_crowd_lod(lod1.mesh, std::move(lod1_columns), 0, r1));
  f.lods.push_back(to_crowd_lod(lod2.mesh, std::move(lod2_columns), lod2_texture, r2));
  f.bind_min = glm::vec3(INFINITY);
  f.bind_max = glm::vec3(-INFINITY);
  for (const CrowdLod& lod : f.lods) {
    for (glm::vec3 p : lod.positions)
      f.bind_min = glm::min(f.bind_min, p), f.bind_max = glm::max(f.bind_max, p);
  }
  f.animated_min = vat.clips.front().bounds_min;
  f.animated_max = vat.clips.front().bounds_max;
  for (const VatClip& c : vat.clips) {
    f.animated_min = glm::min(f.animated_min, c.bounds_min);
    f.animated_max = glm::max(f.animated_max, c.bounds_max);
  }
  f.fps = vat.fps;
  f.columns = vat.columns;
  f.skinned_columns = skinned_count;
  f.rows = vat.rows;
  f.clips = vat.clips;
  f.attachments = attached;
  f.texels = vat.texels;
  stage_done("assemble");
  rep.passed = r1.within_limits && r2.within_limits;
  return out;
}

}  // namespace myriad::crowd
