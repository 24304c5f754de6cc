#include "myriad/crowd_bake/pipeline.hpp"

#include "myriad/core/error.hpp"
#include "myriad/core/stopwatch.hpp"
#include "myriad/crowd_bake/import.hpp"
#include "myriad/crowd_bake/texture_rebake.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace myriad::crowd {
namespace {

constexpr int kStages = 8;

CrowdLod to_crowd_lod(const BakeMesh& mesh, std::vector<std::uint32_t> columns, std::uint32_t texture) {
  CrowdLod lod;
  lod.positions = mesh.positions;
  lod.normals = mesh.normals;
  lod.uvs = mesh.uvs.empty() ? std::vector<glm::vec2>(mesh.vertex_count(), glm::vec2(0.0f)) : mesh.uvs;
  lod.columns = std::move(columns);
  lod.indices = mesh.indices;
  lod.triangle_material = mesh.triangle_material;
  lod.texture = texture;
  return lod;
}

std::string describe_failure(const char* lod, const HoleCheckResult& h, const HoleCheckOptions& limits) {
  std::string s = std::string(lod) + " failed the hole check:";
  auto add = [&](const char* what, float value, float limit, int view) {
    if (value <= limit || view < 0 || static_cast<std::size_t>(view) >= h.views.size()) return;
    const DirectionCheck& c = h.views[static_cast<std::size_t>(view)];
    const glm::vec3 d = c.direction;
    const std::string pose = c.pose == 0 ? "bind pose" : "frame " + std::to_string(c.pose) + " of 3";
    char buf[224];
    std::snprintf(buf, sizeof buf, " %s %.2f %% > %.2f %% from view %d (direction %.2f %.2f %.2f, %s);", what,
                  double(value) * 100.0, double(limit) * 100.0, view, double(d.x), double(d.y), double(d.z),
                  pose.c_str());
    s += buf;
  };
  add("holes", h.worst_holes, limits.hole_limit, h.worst_holes_view);
  add("loss", h.worst_loss, limits.loss_limit, h.worst_loss_view);
  return s;
}

}  // namespace

BakeOutput bake_crowd(const anim::ImportedModel& model, const std::string& name, const BakeOptions& options,
                      const BakeProgress& progress) {
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

  const BakeSource src = import_for_bake(model, name);
  const std::vector<std::vector<anim::Mat3x4>> poses = motion_palettes(model);
  auto timed_check = [&](const BakeMesh& candidate) {
    Stopwatch check_clock;
    HoleCheckResult result = check_holes_in_motion(src.mesh, candidate, src.materials, options.holes, poses);
    checking_ms += check_clock.elapsed_ms();
    return result;
  };
  rep.original_vertices = src.mesh.vertex_count();
  rep.original_triangles = src.mesh.triangle_count();
  rep.non_manifold_edges = src.non_manifold_edges;
  rep.degenerate_triangles = src.degenerate_triangles;
  stage_done("import");

  const WeldResult welded = weld(src.mesh, options.weld);
  rep.welded_vertices = welded.vertices_after;
  stage_done("weld");

  const UnwrapResult unwrapped =
      unwrap_and_rebake(welded.mesh, src.mesh, src.materials, src.textures, options.unwrap);
  const BakeMesh& lod0 = unwrapped.mesh;
  validate(lod0, src.materials.size(), "unwrapped LOD0");
  if (unwrapped.source_vertex.size() != lod0.vertex_count())
    throw Error("unwrap: source_vertex size differs from its mesh");
  rep.charts = unwrapped.chart_count;
  rep.lods[0].vertices = lod0.vertex_count();
  rep.lods[0].triangles = lod0.triangle_count();
  rep.lods[0].attempts = 1;
  rep.lods[0].budget = "all triangles (welded, re-unwrapped)";
  stage_done("unwrap");

  // LOD1 with hole-check retries.
  Lod1Options lod1_options = options.lod1;
  if (lod1_options.head_bones.empty()) lod1_options.head_bones = head_bones(model);
  Lod1Result lod1;
  LodReport& r1 = rep.lods[1];
  for (int attempt = 0; attempt <= options.retries; ++attempt) {
    lod1 = simplify_lod1(lod0, lod1_options);
    r1.attempts = attempt + 1;
    r1.checked = true;
    r1.holes = timed_check(lod1.mesh);
    char buf[96];
    std::snprintf(buf, sizeof buf, "ratio %.2f (head %.2f)", double(lod1_options.target_ratio),
                  double(lod1_options.head_ratio));
    r1.budget = buf;
    if (r1.holes.passed || lod1_options.target_ratio >= 1.0f) break;
    lod1_options.target_ratio = std::min(1.0f, lod1_options.target_ratio + options.lod1_ratio_step);
    lod1_options.head_ratio = std::min(1.0f, std::max(lod1_options.head_ratio, lod1_options.target_ratio));
  }
  r1.vertices = lod1.mesh.vertex_count();
  r1.triangles = lod1.mesh.triangle_count();
  rep.lod1_pieces = lod1.pieces;
  rep.lod1_pieces_stopped = lod1.pieces_stopped_above_target;
  rep.lod1_pass1_triangles = lod1.pass1_triangles;
  rep.lod1_pass2_error = lod1.pass2_error;
  stage_done("lod1");

  // LOD2's texels come from the original textures (LOD0 keeps the original's triangle order and
  // corners), not from LOD0's atlas: one resampling fewer.
  const bool original_uvs = src.mesh.uvs.size() == src.mesh.positions.size();
  const TriangleColour original_colour = [&](std::uint32_t t, glm::vec3 bary) {
    const std::uint32_t* f = &src.mesh.indices[3 * static_cast<std::size_t>(t)];
    const glm::vec2 uv =
        original_uvs ? bary.x * src.mesh.uvs[f[0]] + bary.y * src.mesh.uvs[f[1]] + bary.z * src.mesh.uvs[f[2]]
                     : glm::vec2(0.0f);
    return sample_base_color(src.materials[src.mesh.triangle_material[t]], src.textures, uv);
  };
  Lod2Options lod2_options = options.lod2;
  Lod2Result lod2;
  LodReport& r2 = rep.lods[2];
  for (int attempt = 0; attempt <= options.retries; ++attempt) {
    lod2 = remesh_lod2(lod0, unwrapped.texture, src.materials, lod2_options, &original_colour);
    if (lod2.attachments.size() != lod2.mesh.vertex_count())
      throw Error("LOD2: one attachment per vertex expected");
    r2.attempts = attempt + 1;
    r2.checked = true;
    r2.holes = timed_check(lod2.mesh);
    r2.budget = std::to_string(lod2_options.target_triangles) + " triangles";
    if (r2.holes.passed) break;
    lod2_options.target_triangles += options.lod2_triangle_step;
  }
  r2.vertices = lod2.mesh.vertex_count();
  r2.triangles = lod2.mesh.triangle_count();
  stage_done("lod2");

  if (!options.contact_sheets.empty()) {
    const std::filesystem::path base = options.contact_sheets;
    write_contact_sheet(base.string() + "_lod1.png", src.mesh, lod1.mesh, src.materials, options.holes);
    write_contact_sheet(base.string() + "_lod2.png", src.mesh, lod2.mesh, src.materials, options.holes);
  }
  stage_done("contact sheets");

  if (!r1.holes.passed) rep.failure += describe_failure("LOD1", r1.holes, options.holes) + " ";
  if (!r2.holes.passed) rep.failure += describe_failure("LOD2", r2.holes, options.holes);

  // VAT columns: welded vertices some LOD uses, then LOD2's attached columns (a weight of exactly 1 on
  // one vertex reuses that vertex's column instead).
  const std::vector<std::uint32_t>& welded_of_lod0 = unwrapped.source_vertex;
  std::vector<std::uint32_t> column_of_welded(welded.mesh.vertex_count(), UINT32_MAX);
  BakeMesh skinned;
  auto column_of_lod0 = [&](std::uint32_t v) {
    const std::uint32_t w = welded_of_lod0[v];
    if (column_of_welded[w] == UINT32_MAX) {
      column_of_welded[w] = static_cast<std::uint32_t>(skinned.positions.size());
      skinned.positions.push_back(welded.mesh.positions[w]);
      skinned.normals.push_back(welded.mesh.normals[w]);
      skinned.joints.push_back(welded.mesh.joints[w]);
      skinned.weights.push_back(welded.mesh.weights[w]);
    }
    return column_of_welded[w];
  };
  std::vector<std::uint32_t> lod0_columns(lod0.vertex_count());
  for (std::uint32_t i : lod0.indices) lod0_columns[i] = column_of_lod0(i);
  std::vector<std::uint32_t> lod1_columns;
  for (std::uint32_t v : lod1.lod0_vertex) lod1_columns.push_back(lod0_columns[v]);
  std::vector<Attachment> attached;
  std::vector<std::uint32_t> lod2_columns;
  const auto skinned_count = static_cast<std::uint32_t>(skinned.positions.size());
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
  if (skinned.positions.size() != skinned_count)
    throw Error("LOD2: attachments name LOD0 vertices no triangle uses");
  const Vat vat = bake_vat(model, skinned, attached, options.vat);
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
  f.textures = {unwrapped.texture, lod2.texture};
  f.lods.push_back(to_crowd_lod(lod0, std::move(lod0_columns), 0));
  f.lods.push_back(to_crowd_lod(lod1.mesh, std::move(lod1_columns), 0));
  f.lods.push_back(to_crowd_lod(lod2.mesh, std::move(lod2_columns), 1));
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
  rep.passed = rep.failure.empty();
  return out;
}

}  // namespace myriad::crowd
