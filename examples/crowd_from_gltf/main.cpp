// From a skinned, animated glTF character to a crowd of 1,000 on screen.
//
//   crowd_from_gltf [out-folder] [model.gltf|.glb]
//
// 1. Bakes the model (every skinned and rigid mesh, every clip) offline into a .crowd file: welded
//    LOD0, simplified LOD1, remeshed LOD2, each hole-checked against the original, and the vertex
//    animation texture of every clip (crowd_bake: the only step that needs the heavy offline libraries).
// 2. Loads the .crowd file back as a game would at run time (crowd: no offline dependency).
// 3. Renders 1,000 entities of it with GPU culling and per-entity LOD to <out>/crowd.png.
// The model defaults to the CesiumMan sample from the shared assets.
#include <cstdio>
#include <filesystem>

#include "myriad/core/io/assets.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/crowd/crowd_file.hpp"
#include "myriad/crowd_bake/pipeline.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/crowd/crowd_scene.hpp"
#include "myriad/anim/import/whole_model.hpp"

int main(int argc, char** argv) try {
  const std::filesystem::path out = argc > 1 ? argv[1] : ".";
  std::filesystem::create_directories(out);
  std::filesystem::path model_path;
  if (argc > 2) {
    model_path = argv[2];
  } else if (auto found = myriad::find_shared_asset("cesium_man.gltf")) {
    model_path = *found;
  } else {
    std::fprintf(stderr, "no model given and cesium_man.gltf not found in %s\n",
                 myriad::shared_assets_dir().c_str());
    return 1;
  }

  // 1. Offline: import the whole model and bake it.
  const myriad::anim::WholeModel whole = myriad::anim::import_whole_model(model_path);
  for (const std::string& part : whole.parts) std::printf("part: %s\n", part.c_str());
  const myriad::crowd::BakeOutput baked =
      myriad::crowd::bake_crowd(whole.model, model_path.stem().string(), myriad::crowd::BakeOptions{});
  if (!baked.report.passed) {
    std::fprintf(stderr, "bake failed: %s\n", baked.report.failure.c_str());
    return 1;
  }
  const std::filesystem::path crowd_path = out / (model_path.stem().string() + ".crowd");
  myriad::crowd::write_crowd(crowd_path, baked.file);

  // 2. Run time: load the baked type.
  const myriad::crowd::CrowdFile type = myriad::crowd::read_crowd(crowd_path);
  for (int lod = 0; lod < 3; ++lod)
    std::printf("LOD%d: %zu vertices, %zu triangles\n", lod, type.lods[lod].vertex_count(),
                type.lods[lod].triangle_count());

  // 3. 1,000 entities on a 60 m square, seen from inside the crowd, LOD chosen per entity on the GPU.
  myriad::gpu::Context ctx;  // headless; MYRIAD_VALIDATION=1 turns the validation layer on
  myriad::render::CrowdSceneOptions scene;
  scene.width = 960;
  scene.height = 540;
  scene.entities = 1000;
  scene.map_size = 60.0f;
  scene.frames = {{-1}};
  scene.views = {"close_up"};
  const myriad::render::CrowdSceneResult result = myriad::render::render_crowd_scene(ctx, {&type, 1}, scene);
  const myriad::render::CrowdSceneFrame& frame = result.frames.at(0);
  myriad::write_png_rgba8(out / "crowd.png", scene.width, scene.height, frame.rgba);
  std::printf("%s: %.2f ms for the frame; %s\n", (out / "crowd.png").c_str(), frame.frame_ms,
              crowd_path.c_str());
  if (ctx.validation_message_count() > 0) {
    std::fprintf(stderr, "%u validation messages\n", ctx.validation_message_count());
    return 1;
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
