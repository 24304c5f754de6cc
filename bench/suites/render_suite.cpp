// `myriad bench voxel-gpu`: the reference world on the GPU: bytes per category, arenas and their fill,
// first-upload time, CPU time to record culling + drawing, and frame time (wall clock; on lavapipe
// that is CPU emulation of the GPU and labelled so), with and without per-cell tile variation (the same
// views, alternated per repetition). For the article's two views (maximum zoom-out and the normal game
// scale) at 1920 x 1080 also the pipeline binds counted in the recorded command stream, the draws and
// the GPU time of each pass where the device has timestamps. Needs the voxel module.
#ifdef MYRIAD_HAS_VOXEL
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "suite.hpp"
#include "wall_clock_label.hpp"

namespace myriad::bench {
namespace {

// The article's views (render::voxel_camera_presets) and its frame rates for them: Samsung Galaxy S23+,
// Vulkan, 1080p, vsync at 60.
struct ArticleView {
  const char* name;
  const char* fps;
};
constexpr ArticleView kArticleViews[] = {
    {"zoomed_out", "article: ~60-80 FPS (12.5-16.7 ms) at maximum zoom-out, 1080p, phone GPU"},
    {"game", "article: >= 60 FPS (<= 16.7 ms), peaks of 90, at the normal game scale, 1080p, phone GPU"}};

// Medians of one view over the repetitions: wall clock with and without tile variation, and each
// timed pass's GPU milliseconds (varied frames only).
struct ViewTimes {
  std::vector<double> frame, plain;
  std::map<std::string, std::vector<double>> gpu;
};

const render::VoxelFrame* find_frame(const render::VoxelSceneResult& r, const std::string& name) {
  for (const render::VoxelFrame& f : r.frames)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace

void run_voxel_gpu_suite(Report& report, const SuiteOptions& options) {
  gpu::Context ctx;
  const std::string clock = wall_clock_label(ctx);
  render::VoxelSceneOptions scene;
  scene.width = options.quick ? 640 : 1920;
  scene.height = options.quick ? 360 : 1080;
  if (options.quick) scene.size = {128, 64, 128};
  scene.views = {"overview", "ground"};
  for (const ArticleView& v : kArticleViews) scene.views.push_back(v.name);
  scene.read_back = false;
  std::vector<double> upload, frame_overview, frame_ground, record_moved;
  std::vector<double> plain_overview, plain_ground;  // tile variation off
  std::map<std::string, ViewTimes> article;
  render::VoxelSceneResult last;
  for (int rep = 0; rep < std::max(1, options.repetitions); ++rep) {
    // Which of the two goes first alternates, so neither always runs on a warmer machine.
    for (int k = 0; k < 2; ++k) {
      const bool varied = (k == 0) == (rep % 2 == 0);
      scene.tile_variation = varied;
      render::VoxelSceneResult r = render::render_voxel_scene(ctx, scene);
      for (const render::VoxelFrame& f : r.frames) {
        if (f.name == "overview") (varied ? frame_overview : plain_overview).push_back(f.frame_ms);
        if (f.name == "ground") {
          (varied ? frame_ground : plain_ground).push_back(f.frame_ms);
          if (varied) record_moved.push_back(f.record_ms);  // a moved camera: CullPages + draws recorded
        }
        const auto is_article = [&](const ArticleView& v) { return f.name == v.name; };
        if (std::none_of(std::begin(kArticleViews), std::end(kArticleViews), is_article)) continue;
        ViewTimes& t = article[f.name];
        (varied ? t.frame : t.plain).push_back(f.frame_ms);
        if (varied)
          for (const gpu::GpuTimer::Interval& pass : f.gpu_passes) t.gpu[pass.name].push_back(pass.ms);
      }
      if (varied) {
        upload.push_back(r.build.upload_ms);
        last = std::move(r);
      }
    }
  }
  const render::TerrainMemory& m = last.memory;
  report.add("vertex_bytes", double(m.vertices) * 28.0, "bytes", "live terrain vertices (28 B)");
  report.add("index_bytes", double(m.indices) * 4.0, "bytes", "live indices");
  report.add("atlas_bytes", double(m.atlas_records) * 28.0, "bytes", "article: 219,190 records ~ 5.85 MiB");
  report.add("vertex_arena_bytes", double(m.vertex_bytes), "bytes", "allocated vertex+atlas arenas");
  report.add("index_arena_bytes", double(m.index_bytes), "bytes", "allocated index arenas");
  report.add("page_table_bytes", double(m.page_bytes), "bytes", "pages, visible list, draws, arena tables");
  report.add("terrain_cpu_bytes", double(m.cpu_bytes), "bytes",
             "kept on the CPU after upload: tables, no geometry");
  report.add("vegetation_bytes", double(last.vegetation_gpu_bytes), "bytes",
             "grass + tree instances and lists");
  report.add("vegetation_buffer_bytes", double(last.vegetation_gpu_bytes), "bytes",
             "every voxel grass/tree buffer: instances by count + slack, lists, templates, ranges");
  report.add("vegetation_live_instances", double(last.build.grass + last.build.trees), "",
             "voxel grass tufts + trees placed");
  const render::VoxelFrame* overview = nullptr;
  const render::VoxelFrame* ground = nullptr;
  for (const auto& f : last.frames) {
    if (f.name == "overview") overview = &f;
    if (f.name == "ground") ground = &f;
  }
  if (overview) {
    report.add("arenas", double(overview->stats.arenas), "", "terrain arenas (one set per region)");
    report.add("draws_overview", double(overview->stats.arenas_drawn + overview->vegetation.draws), "",
               "one per visible arena + 3 vegetation draws");
    report.add("pipeline_binds_overview", double(overview->pipeline_binds), "",
               "article: ~18 for the whole world (4 of them UI); counted in the recorded frame");
    report.add("vegetation_threads_per_frame", double(overview->vegetation.threads), "",
               "voxel grass/tree compute threads of a culled frame: one per live instance + wind");
  }
  if (ground) {
    report.add("draws_ground", double(ground->stats.arenas_drawn + ground->vegetation.draws), "",
               "ground-level view: arenas of the regions in view + 3 vegetation draws");
  }
  const double fill =
      m.vertex_bytes ? double(m.vertices + m.atlas_records) * 28.0 / double(m.vertex_bytes) : 0.0;
  report.add("vertex_arena_fill", fill, "ratio", "live vertex+atlas bytes / allocated");
  const double index_fill = m.index_bytes ? double(m.indices) * 4.0 / double(m.index_bytes) : 0.0;
  report.add("index_arena_fill", index_fill, "ratio", "live index bytes / allocated");
  report.add("first_upload_ms", median(upload), "ms",
             "every page and section instance uploaded before the first frame, " + clock);
  report.add("record_moved_camera_ms", median(record_moved), "ms",
             "CPU: coarse chunks, CullPages + draw recording");
  report.add("frame_overview_ms", median(frame_overview), "ms", clock);
  report.add("frame_ground_ms", median(frame_ground), "ms", clock);
  report.add("frame_overview_no_variation_ms", median(plain_overview), "ms",
             "the same without per-cell tile variation, " + clock);
  report.add("frame_ground_no_variation_ms", median(plain_ground), "ms",
             "the same without per-cell tile variation, " + clock);

  // The article's views: what the whole world costs in binds and draws, and its time per pass.
  const std::string size = std::to_string(scene.width) + " x " + std::to_string(scene.height);
  for (const ArticleView& v : kArticleViews) {
    const render::VoxelFrame* f = find_frame(last, v.name);
    if (!f) continue;
    const std::string key = std::string(v.name) + ".";
    const ViewTimes& t = article[v.name];
    report.add(key + "pipeline_binds", double(f->pipeline_binds), "",
               "article: ~18 SetPass calls for the whole world, ~4 of them UI; here every bind recorded "
               "in the frame (culling compute + graphics, sky included)");
    report.add(key + "graphics_pipeline_binds", double(f->graphics_binds), "",
               "article: ~18 SetPass calls (graphics passes) for the whole world, ~4 of them UI");
    report.add(key + "draws", double(f->stats.arenas_drawn + f->vegetation.draws), "",
               "one indirect multi-draw per visible terrain arena + 3 vegetation draws (the sky's not "
               "counted)");
    report.add(key + "frame_ms", median(t.frame), "ms",
               std::string(v.fps) + "; here " + size + ", " + clock +
                   (ctx.has_timestamps()
                        ? ""
                        : "; " + ctx.device_name() + " has no GPU timestamps, so no per-pass GPU figures"));
    report.add(key + "frame_no_variation_ms", median(t.plain), "ms",
               "the same without per-cell tile variation, " + clock);
    if (t.gpu.empty()) continue;
    double gpu_total = 0.0;
    for (const auto& [pass, ms] : t.gpu) {
      const double pass_ms = median(ms);
      gpu_total += pass_ms;
      report.add(key + "gpu_" + pass + "_ms", pass_ms, "ms",
                 pass == "cull" ? "GPU timestamps: frame start to culled (uploads, light block, CullPages, "
                                  "vegetation culling and wind)"
                                : "GPU timestamps: the colour pass (terrain arenas, vegetation, sky)");
    }
    report.add(key + "gpu_frame_ms", gpu_total, "ms",
               std::string(v.fps) + "; here GPU timestamps, " + size + ", " + ctx.device_name());
  }
}

}  // namespace myriad::bench
#endif
