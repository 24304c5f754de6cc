// Times LOD0's unwrap (unwrap_and_rebake on the welded mesh) of one glTF model, `repeats` times:
// one line per run, "<ms> ms <vertices> vertices <charts> charts".
// scripts/bench-unwrap-compare also builds this file against older commits, which have
// the flat module layout.
#if __has_include("myriad/anim/import/gltf_import.hpp")
#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd_bake/uv/uv_unwrap.hpp"
#include "myriad/crowd_bake/import/weld.hpp"
#else
#include "myriad/anim/gltf_import.hpp"      // pre-split layout
#include "myriad/crowd_bake/import.hpp"     // pre-split layout
#include "myriad/crowd_bake/uv_unwrap.hpp"  // pre-split layout
#include "myriad/crowd_bake/weld.hpp"       // pre-split layout
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: unwrap_time MODEL.gltf [repeats]\n");
    return 2;
  }
  try {
    using namespace myriad;
    const anim::ImportedModel model = anim::import_gltf(argv[1]);
    const crowd::BakeSource src = crowd::import_for_bake(model, argv[1]);
    const crowd::WeldResult welded = crowd::weld(src.mesh, {});
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 1;
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const crowd::UnwrapResult u =
          crowd::unwrap_and_rebake(welded.mesh, src.mesh, src.materials, src.textures, {});
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      std::printf("%.1f ms %zu vertices %zu charts\n", ms, u.mesh.vertex_count(), u.chart_count);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unwrap_time: %s\n", e.what());
    return 1;
  }
  return 0;
}
