#include "suite.hpp"

namespace myriad::bench {

#ifdef MYRIAD_HAS_CROWD
void run_crowd_bake_suite(Report& report, const SuiteOptions& options);     // crowd_suite.cpp
void run_crowd_suite(Report& report, const SuiteOptions& options);          // crowd_runtime_suite.cpp
void run_crowd_article_suite(Report& report, const SuiteOptions& options);  // crowd_article_suite.cpp
#endif

#ifdef MYRIAD_HAS_VOXEL
void run_voxel_stream_suite(Report& report, const SuiteOptions& options);  // render_voxel_stream_suite.cpp
#endif

#ifdef MYRIAD_HAS_VEGETATION
void run_vegetation_stream_suite(Report& report, const SuiteOptions& options);  // vegetation_stream_suite.cpp
#endif

// A suite is listed when its module is part of the build (bench/CMakeLists.txt defines MYRIAD_HAS_<M>).
std::vector<Suite> all_suites() {
  return {
      {"core", "packing, range allocator, parallel_for overhead", &run_core_suite},
#ifdef MYRIAD_HAS_VOXEL
      {"voxel", "reference world: generation, light, meshing, atlas, edits", &run_voxel_suite},
      {"voxel-gpu", "reference world on the GPU: bytes, arenas, upload, culling + recording, frame time",
       &run_voxel_gpu_suite},
      {"voxel-stream",
       "streamed 4096 x 128 x 4096 world, loop at 20/60 m/s: columns per second, CPU frame ms, holes, memory",
       &run_voxel_stream_suite},
#endif
#ifdef MYRIAD_HAS_BATCH
      {"batch", "skeleton math per joint, dedup ratios, 1,000 clothed avatars per frame", &run_batch_suite},
#endif
#ifdef MYRIAD_HAS_VEGETATION
      {"vegetation",
       "10 km world: bake, tiles on disk, load + pooling, CPU culling vs memory floor, GPU bytes",
       &run_vegetation_suite},
      {"vegetation-stream",
       "flight across the 15.5 M-plant world at 50/200/1000 m/s: bytes staged, CPU frame ms, pop-in frames",
       &run_vegetation_stream_suite},
#endif
#ifdef MYRIAD_HAS_CROWD
      {"crowd-bake",
       "crowd LOD baker per model: vertices/triangles per LOD, VAT bytes, holes/loss, stage times",
       &run_crowd_bake_suite},
      {"crowd", "3,000 VAT enemies: per-entity LOD vs forced LOD, triangles/vertices drawn, frame time ratio",
       &run_crowd_suite},
      {"crowd-article",
       "article 004's settings: 2560 x 1440, fov 30°, shadows on; LOD vs forced LOD, shadow share, coarse "
       "shadows",
       &run_crowd_article_suite},
#endif
  };
}

}  // namespace myriad::bench
