// `myriad bench voxel-gpu`: the reference world on the GPU: bytes per category, arenas and their fill,
// first-upload time, CPU time to record culling + drawing, and frame time (wall clock; on lavapipe
// that is CPU emulation of the GPU and labelled so), with and without per-cell tile variation (the same
// views, alternated per repetition). Needs the voxel module.
#ifdef MYRIAD_HAS_VOXEL
#include <algorithm>
#include <vector>

#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "suite.hpp"

namespace myriad::bench {

void run_voxel_gpu_suite(Report& report, const SuiteOptions& options) {
  gpu::Context ctx;
  const std::string clock = ctx.is_cpu_device() ? "wall clock, CPU emulation (" + ctx.device_name() + ")"
                                                : "wall clock (" + ctx.device_name() + ")";
  render::VoxelSceneOptions scene;
  scene.width = options.quick ? 640 : 1920;
  scene.height = options.quick ? 360 : 1080;
  if (options.quick) scene.size = {128, 64, 128};
  std::vector<double> upload, frame_overview, frame_ground, record_moved;
  std::vector<double> plain_overview, plain_ground;  // tile variation off
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
    report.add("pipeline_binds_overview",
               double(overview->stats.pipeline_binds + overview->vegetation.pipeline_binds), "",
               "article: ~18 for the whole world (4 of them UI)");
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
}

}  // namespace myriad::bench
#endif
