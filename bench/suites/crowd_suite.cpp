// `myriad bench crowd-bake`: the crowd LOD baker per model (the procedural enemy always; Fox.glb and
// cesium_man.gltf when the shared assets are found via $MYRIAD_ASSETS or ../shared/assets): vertices
// and triangles per LOD (SPEC C2 counts both), VAT bytes before/after keeping only used columns (C4),
// holes, loss and silhouette loss per LOD (C7), the method of each level's fallback chain that made it,
// LOD0 against its vertex bound, and the bake time per stage (medians over the repetitions).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/pipeline.hpp"
#include "myriad/anim/import/whole_model.hpp"
#include "myriad/core/io/assets.hpp"
#include "suite.hpp"

namespace myriad::bench {

namespace {

void bake_model(Report& report, const SuiteOptions& options, const std::string& key,
                const anim::ImportedModel& model) {
  const int reps = std::max(1, options.repetitions);
  crowd::BakeOptions bake;
  std::map<std::string, std::vector<double>> stage_ms;
  std::vector<double> total_ms;
  crowd::BakeReport last;
  for (int r = 0; r < reps; ++r) {
    const crowd::BakeOutput out = crowd::bake_crowd(model, key, bake);
    double total = 0.0;
    for (const crowd::StageTime& t : out.report.times) {
      stage_ms[t.stage].push_back(t.ms);
      total += t.ms;
    }
    total_ms.push_back(total);
    last = out.report;
  }
  const std::string k = key + "_";
  report.add(k + "original_vertices", double(last.original_vertices), "");
  report.add(k + "original_triangles", double(last.original_triangles), "");
  report.add(k + "welded_vertices", double(last.welded_vertices), "",
             "article: skeleton 1,521 -> 1,090; others -19..29 %");
  const char* lod_names[3] = {"lod0", "lod1", "lod2"};
  for (int i = 0; i < 3; ++i) {
    const crowd::LodReport& l = last.lods[i];
    report.add(k + lod_names[i] + "_vertices", double(l.vertices), "");
    report.add(k + lod_names[i] + "_triangles", double(l.triangles), "",
               i == 1 ? "~52 % of LOD0" : (i == 2 ? "target 300 (200-460)" : ""));
    report.add(k + lod_names[i] + "_method", double(static_cast<int>(l.method)), "",
               crowd::lod_method_name(l.method));
    if (l.checked) {
      report.add(k + lod_names[i] + "_holes_pct", double(l.holes.worst_holes) * 100.0, "%", "limit 1 %");
      report.add(k + lod_names[i] + "_loss_pct", double(l.holes.worst_loss) * 100.0, "%", "limit 4-6 %");
      report.add(k + lod_names[i] + "_silhouette_pct", double(l.holes.worst_silhouette) * 100.0, "%",
                 "limit 5 %");
      report.add(k + lod_names[i] + "_attempts", double(l.attempts), "", l.budget);
    }
  }
  const auto ratio = [](std::size_t a, std::size_t b) { return b ? double(a) / double(b) : 0.0; };
  report.add(k + "lod0_vertex_bound", double(last.lod0_vertex_bound), "",
             "welded with the original UV seams kept");
  report.add(k + "lod0_over_bound_vertices", ratio(last.lods[0].vertices, last.lod0_vertex_bound), "",
             "never above 1 (charts that re-unwrap worse keep their original UVs)");
  report.add(k + "charts_kept_original", double(last.charts_kept_original), "");
  report.add(k + "lod0_over_welded_vertices", ratio(last.lods[0].vertices, last.welded_vertices), "",
             "LOD0 after the re-unwrap / welded (article: 1,090 after both from 1,521)");
  report.add(k + "lod1_over_lod0_triangles", ratio(last.lods[1].triangles, last.lods[0].triangles), "",
             "LOD1 triangles / LOD0 (article ~52 %)");
  report.add(k + "lod1_pass1_triangles", double(last.lod1_pass1_triangles), "",
             "LOD1 after the per-piece pass, before the pass across bone borders");
  report.add(k + "lod1_pieces_stopped", double(last.lod1_pieces_stopped), "",
             "pieces held above target by shared borders or the error limit");
  report.add(k + "vat_columns", double(last.vat_columns), "");
  report.add(k + "vat_bytes_before_bytes", double(last.vat_bytes_before), "bytes",
             "one column per vertex of every LOD");
  report.add(k + "vat_bytes_after_bytes", double(last.vat_bytes_after), "bytes", "used columns only");
  report.add(k + "vat_saved_pct",
             last.vat_bytes_before
                 ? 100.0 * (1.0 - double(last.vat_bytes_after) / double(last.vat_bytes_before))
                 : 0.0,
             "%", "article: 40-60 %");
  report.add(k + "passed", last.passed ? 1.0 : 0.0, "", last.failure);
  for (const crowd::StageTime& t : last.times) {
    std::string stage = t.stage;
    std::replace(stage.begin(), stage.end(), ' ', '_');
    report.add(k + stage + "_ms", median(stage_ms[t.stage]), "ms");
  }
  report.add(k + "bake_ms", median(total_ms), "ms", "all stages");
}

}  // namespace

void run_crowd_bake_suite(Report& report, const SuiteOptions& options) {
  bake_model(report, options, "enemy", crowd::make_enemy());
  if (options.quick) return;
  for (const char* file : {"Fox.glb", "cesium_man.gltf"}) {
    const std::optional<std::filesystem::path> found = find_shared_asset(file);
    if (!found) {
      std::fprintf(stderr, "crowd-bake: %s not found in %s (set MYRIAD_ASSETS); skipped\n", file,
                   shared_assets_dir().string().c_str());
      continue;
    }
    const std::filesystem::path& path = *found;
    std::string key = std::filesystem::path(file).stem().string();
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    bake_model(report, options, key, anim::import_whole_model(path).model);
  }
}

}  // namespace myriad::bench
