// `myriad bench crowd-article`: the crowd measured as article 004 measures it — 2560 × 1440, its camera
// (fov 30°, LOD switches at 93.3 m / 167.9 m for 1440 px), 3,000 enemies of every built-in type, the
// sun's shadow map on, views "whole map" and "close-up into the crowd", and a third view the article
// does not name, "zoomed_in" (a strategy camera over the crowd). Per view, alternating within each
// round: per-entity LOD (casters at the camera's levels, LOD1 casters coarser, every caster coarser, no
// shadows) and LOD forced to 0, 1 and 2. Figures: the frame time ratio per-entity LOD / forced LOD0
// beside the article's 0.69 / 0.52, the forced levels' triangles and vertices beside its table, VAT
// vertex reads, the shadow pass's share, and what coarse shadows save and change. Wall clock everywhere
// (on lavapipe, CPU emulation, labelled so), GPU timestamps per pass where the device has them.
#ifdef MYRIAD_HAS_CROWD
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "myriad/crowd_bake/enemy/enemy_roster.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/crowd/crowd_scene.hpp"
#include "suite.hpp"
#include "wall_clock_label.hpp"

namespace myriad::bench {
namespace {

using render::CrowdFrameSpec;
using render::CrowdSceneFrame;
using render::CrowdShadows;

// The frames of one view, in order: what each figure below picks by index.
enum Frame {
  kLodCoarseAll,
  kLodCoarseFromLod1,
  kLodFull,
  kLodOff,
  kForced0,
  kForced1,
  kForced2,
  kFrameCount
};
const CrowdFrameSpec kFrames[kFrameCount] = {
    {-1, CrowdShadows::kCoarseAll}, {-1, CrowdShadows::kCoarseFromLod1}, {-1, CrowdShadows::kFullLod},
    {-1, CrowdShadows::kOff},       {0, CrowdShadows::kFullLod},         {1, CrowdShadows::kFullLod},
    {2, CrowdShadows::kFullLod}};

// The per-entity frame as the renderer draws it by default.
Frame default_lod_frame() {
  switch (render::CrowdRenderer::kCoarseShadowsFromLevel) {
    case 0:
      return kLodCoarseAll;
    case 1:
      return kLodCoarseFromLod1;
    default:
      return kLodFull;
  }
}

void report_view(Report& report, const std::string& view, const std::vector<const CrowdSceneFrame*>& f,
                 const std::string& clock) {
  const std::string p = view + ".";
  const Frame lod = default_lod_frame();
  const double lod0_ms = f[kForced0]->frame_ms;
  const auto ratio = [](double a, double b) { return b > 0.0 ? a / b : 0.0; };
  const char* article = view == "whole_map"  ? "article: 90 -> 130 FPS = 0.69 (whole map)"
                        : view == "close_up" ? "article: 62 -> 120 FPS = 0.52 (close-up)"
                                             : "a third view; the article has no figure for it";
  report.add(p + "lod_over_forced_lod0_ratio", ratio(f[lod]->frame_ms, lod0_ms), "", article);
  report.add(p + "lod_coarse_all_shadows_over_forced_lod0_ratio", ratio(f[kLodCoarseAll]->frame_ms, lod0_ms),
             "", "per-entity LOD, every caster one level coarser (opt-in)");
  report.add(p + "lod_coarse_from_lod1_shadows_over_forced_lod0_ratio",
             ratio(f[kLodCoarseFromLod1]->frame_ms, lod0_ms), "",
             "per-entity LOD, LOD1 casters cast LOD2 (opt-in)");
  report.add(p + "forced_lod1_over_forced_lod0_ratio", ratio(f[kForced1]->frame_ms, lod0_ms), "",
             "article (1080p): 72 -> 96 FPS = 0.75");
  report.add(p + "forced_lod2_over_forced_lod0_ratio", ratio(f[kForced2]->frame_ms, lod0_ms), "",
             "article (1080p): 72 -> 120 FPS = 0.60");
  const char* frame_names[kFrameCount] = {"lod_coarse_all_shadows",
                                          "lod_coarse_from_lod1_shadows",
                                          "lod_full_lod_shadows",
                                          "lod_no_shadows",
                                          "forced_lod0",
                                          "forced_lod1",
                                          "forced_lod2"};
  report.add(p + "frame_ms_lod", f[lod]->frame_ms, "ms", clock + "; per-entity LOD, default shadows");
  for (int i = 0; i < kFrameCount; ++i)
    report.add(p + "frame_ms_" + frame_names[i], f[i]->frame_ms, "ms", clock);

  const render::CrowdFrameStats& chosen = f[lod]->stats;
  report.add(p + "visible_entities", double(chosen.total_entities()), "", "of 3,000");
  for (int level = 0; level < 3; ++level)
    report.add(p + "entities_lod" + std::to_string(level), double(chosen.entities[std::size_t(level)]), "");
  const char* article_triangles[3] = {"article: 11 M (its models)", "article: 6 M", "article: 3.68 M"};
  for (int level = 0; level < 3; ++level) {
    const CrowdSceneFrame& forced = *f[kForced0 + level];
    const std::string lv = "forced_lod" + std::to_string(level);
    report.add(p + "triangles_" + lv, double(forced.stats.total_triangles()), "",
               std::string(article_triangles[level]) + "; the camera's draws");
    report.add(p + "shadow_triangles_" + lv, double(forced.shadow_stats.total_triangles()), "",
               "the shadow pass's draws");
    report.add(p + "vertices_" + lv, double(forced.stats.total_vertices()), "", "the camera's draws");
    report.add(p + "shadow_vertices_" + lv, double(forced.shadow_stats.total_vertices()), "",
               "the shadow pass's draws");
  }
  report.add(p + "triangles_lod", double(chosen.total_triangles()), "", "per-entity LOD, the camera's draws");
  // Each vertex invocation samples its VAT column (at two frame rows), in the camera's and the shadow
  // pass's draws alike.
  report.add(p + "vat_vertex_reads_lod",
             double(chosen.total_vertices() + f[lod]->shadow_stats.total_vertices()), "",
             "vertices drawn, camera + shadow pass (C2: VAT reads scale with vertices)");
  report.add(p + "vat_vertex_reads_forced_lod0",
             double(f[kForced0]->stats.total_vertices() + f[kForced0]->shadow_stats.total_vertices()), "");

  // The shadow pass's cost: the same per-entity frame with and without it (wall clock), and with
  // coarse against full-LOD casters.
  const double off = f[kLodOff]->frame_ms;
  report.add(p + "shadow_share", ratio(f[kLodFull]->frame_ms - off, f[kLodFull]->frame_ms), "",
             "share of the per-entity frame the full-LOD shadow pass takes (with - without, wall clock); "
             "article: shadows the largest remaining cost");
  report.add(p + "shadow_ms_full_lod", f[kLodFull]->frame_ms - off, "ms", clock);
  report.add(p + "shadow_ms_coarse_all", f[kLodCoarseAll]->frame_ms - off, "ms", clock);
  report.add(p + "shadow_ms_coarse_from_lod1", f[kLodCoarseFromLod1]->frame_ms - off, "ms", clock);
  report.add(p + "shadow_casters", double(f[kLodFull]->shadow_stats.total_entities()), "");
  const struct {
    Frame frame;
    const char* name;
  } variants[] = {
      {kLodFull, "full_lod"}, {kLodCoarseAll, "coarse_all"}, {kLodCoarseFromLod1, "coarse_from_lod1"}};
  for (const auto& v : variants) {
    report.add(p + "shadow_triangles_" + v.name, double(f[v.frame]->shadow_stats.total_triangles()), "");
    report.add(p + "shadow_vertices_" + v.name, double(f[v.frame]->shadow_stats.total_vertices()), "");
  }
  const render::ShadowChange all =
      render::shadow_change(f[kLodFull]->rgba, f[kLodCoarseAll]->rgba, f[kLodOff]->rgba);
  const render::ShadowChange from_lod1 =
      render::shadow_change(f[kLodFull]->rgba, f[kLodCoarseFromLod1]->rgba, f[kLodOff]->rgba);
  report.add(p + "shadowed_pixels", double(all.shadowed), "", "pixels the shadows darken (full-LOD casters)");
  report.add(p + "coarse_all_shadow_changed_pixels", double(all.changed), "");
  report.add(p + "coarse_all_shadow_changed_share", all.share(), "",
             "every caster one level coarser: pixels changed / shadowed pixels");
  report.add(p + "coarse_from_lod1_shadow_changed_pixels", double(from_lod1.changed), "");
  report.add(p + "coarse_from_lod1_shadow_changed_share", from_lod1.share(), "",
             "LOD1 casters cast LOD2: pixels changed / shadowed pixels");
  // GPU timestamps per pass, where the device has them.
  for (const auto& [pass, ms] : f[lod]->gpu_ms)
    report.add(p + "gpu_" + pass + "_ms", ms, "ms", "GPU timestamps");
  for (const auto& [pass, ms] : f[kForced0]->gpu_ms)
    report.add(p + "forced_lod0_gpu_" + pass + "_ms", ms, "ms", "GPU timestamps");
  if (!f[kLodOff]->gpu_ms.empty()) {
    double full = 0.0;
    for (const auto& [pass, ms] : f[kLodFull]->gpu_ms) full += ms;
    const auto shadow = f[kLodFull]->gpu_ms.find("shadow");
    if (shadow != f[kLodFull]->gpu_ms.end())
      report.add(p + "gpu_shadow_share", ratio(shadow->second, full), "", "GPU timestamps, full-LOD casters");
    const auto coarse = f[lod]->gpu_ms.find("shadow");
    if (shadow != f[kLodFull]->gpu_ms.end() && coarse != f[lod]->gpu_ms.end())
      report.add(p + "gpu_shadow_default_over_full_lod_ratio", ratio(coarse->second, shadow->second), "",
                 "GPU timestamps: the default's shadow pass / full-LOD casters'");
  }
}

}  // namespace

void run_crowd_article_suite(Report& report, const SuiteOptions& options) {
  gpu::Context ctx;
  const std::string clock = wall_clock_label(ctx);
  const std::vector<crowd::CrowdFile> types = crowd::bake_builtin_enemy_types();
  render::CrowdSceneOptions scene;
  scene.camera = render::CrowdCamera::kArticle;
  scene.width = options.quick ? 640 : 2560;
  scene.height = options.quick ? 360 : 1440;
  scene.entities = 3000;
  scene.frames.assign(std::begin(kFrames), std::end(kFrames));
  scene.rounds = std::max(1, options.repetitions);
  const render::CrowdSceneResult result = render::render_crowd_scene(ctx, types, scene);
  report.add("entities", double(scene.entities), "", "article: 3,000 enemies");
  report.add("types", double(types.size()), "", "every built-in enemy type");
  report.add("width", double(scene.width), "px", "article: 2560 x 1440");
  report.add("height", double(scene.height), "px");
  report.add("gpu_timestamps", result.gpu_timestamps ? 1.0 : 0.0, "",
             result.gpu_timestamps ? "per-pass GPU times below" : "the device has none: wall clock only");
  report.add("coarse_shadows_from_level", double(render::CrowdRenderer::kCoarseShadowsFromLevel), "",
             "casters at this camera level or coarser cast one level coarser (3: none)");
  for (const char* view : {"whole_map", "close_up", "zoomed_in"}) {
    std::vector<const CrowdSceneFrame*> frames;
    for (const CrowdSceneFrame& f : result.frames)
      if (f.view == view) frames.push_back(&f);
    if (frames.size() != kFrameCount) continue;
    report_view(report, view, frames, clock);
  }
}

}  // namespace myriad::bench
#endif
