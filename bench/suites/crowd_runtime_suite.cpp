// `myriad bench crowd`: 3,000 VAT-animated enemies of three baked types, whole-map and close-up views,
// per-entity LOD against forced LOD0/1/2: entities, vertices and triangles drawn per level (C2) and the
// frame time ratio per-entity / forced LOD0 (wall clock; on lavapipe CPU emulation, labelled so).
#ifdef MYRIAD_HAS_CROWD
#include <algorithm>
#include <string>
#include <vector>

#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/crowd_bake/enemy/enemy_roster.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/crowd/crowd_scene.hpp"
#include "suite.hpp"
#include "wall_clock_label.hpp"

namespace myriad::bench {

void run_crowd_suite(Report& report, const SuiteOptions& options) {
  gpu::Context ctx;
  const std::string clock = wall_clock_label(ctx);
  const std::vector<crowd::CrowdFile> types = crowd::bake_builtin_enemy_types();
  render::CrowdSceneOptions scene;
  if (options.quick) {
    scene.width = 640;
    scene.height = 360;
  }
  // Myriad's own views, without shadows or ground: the crowd's draws alone (crowd-article measures the
  // article's settings, shadows on).
  scene.ground = false;
  scene.frames = {{-1, render::CrowdShadows::kOff},
                  {0, render::CrowdShadows::kOff},
                  {1, render::CrowdShadows::kOff},
                  {2, render::CrowdShadows::kOff}};
  scene.rounds = std::max(1, options.repetitions);
  const render::CrowdSceneResult result = render::render_crowd_scene(ctx, types, scene);
  report.add("gpu_bytes", double(result.gpu_bytes), "bytes", "entities, VATs, meshes, textures, lists");
  const std::vector<render::CrowdSceneFrame>& last = result.frames;
  double frame_ms[2][4] = {};  // [view][mode + 1], medians over the rounds
  report.add("entities", double(scene.entities), "", "article: 3,000 enemies");
  for (std::size_t t = 0; t < types.size(); ++t) {
    for (std::size_t level = 0; level < 3; ++level) {
      report.add("type" + std::to_string(t) + "_lod" + std::to_string(level) + "_triangles",
                 double(types[t].lods[level].triangle_count()), "");
    }
  }
  const char* mode_names[4] = {"per_entity_lod", "forced_lod0", "forced_lod1", "forced_lod2"};
  const char* tri_reference[4] = {"", "article: 11 M (its models, 3,000 enemies)", "article: 6 M",
                                  "article: 3.68 M"};
  for (const render::CrowdSceneFrame& f : last) {
    const bool whole = f.view == "whole_map";
    const std::string prefix = whole ? "" : "closeup_";
    const int m = f.spec.mode + 1;
    report.add(prefix + "triangles_" + mode_names[m], double(f.stats.total_triangles()), "",
               whole ? tri_reference[m] : "");
    report.add(prefix + "vertices_" + mode_names[m], double(f.stats.total_vertices()), "",
               "C2: VAT reads scale with vertices");
    if (f.spec.mode < 0) {
      for (std::size_t level = 0; level < 3; ++level) {
        report.add(prefix + "entities_lod" + std::to_string(level), double(f.stats.entities[level]), "");
      }
    }
    report.add(prefix + "frame_ms_" + mode_names[m], f.frame_ms, "ms", clock);
    frame_ms[whole ? 0 : 1][m] = f.frame_ms;
  }
  for (int v = 0; v < 2; ++v) {
    const double lod0 = frame_ms[v][1];
    report.add(
        std::string(v == 0 ? "" : "closeup_") + "frame_ratio_per_entity_vs_lod0",
        lod0 > 0.0 ? frame_ms[v][0] / lod0 : 0.0, "",
        v == 0 ? "article: 90 -> 130 FPS = 0.69 (whole map)" : "article: 62 -> 120 FPS = 0.52 (close-up)");
  }
}

}  // namespace myriad::bench
#endif
