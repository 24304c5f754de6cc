// `myriad view`: the default scene, or the streamed voxel world (--scene voxel), in a window with a fly
// camera and a stats panel.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "myriad/crowd_bake/enemy/enemy_roster.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/voxel/streamed_voxel_scene.hpp"
#include "myriad/render/frame/culling_choice.hpp"
#include "myriad/render/vegetation/vegetation_cpu_cull.hpp"
#include "myriad/render/world/world_scene.hpp"
#include "myriad/view/controls.hpp"
#include "myriad/view/edit_controls.hpp"
#include "myriad/view/input_script.hpp"
#include "myriad/view/viewer.hpp"
#include "myriad/view/window.hpp"
#include "world_options.hpp"
#include "option_checks.hpp"
#include "output_path.hpp"
#include "render_streamed_voxel.hpp"
#include "tiles_option.hpp"

namespace myriad::app {
namespace {

struct ViewOptions {
  std::uint32_t width = 1280;
  std::uint32_t height = 720;
  std::uint64_t frames = 0;
  std::string screenshot;
  std::string view;  // empty: the scene's first preset
  bool vsync = false;
  bool no_panel = false;
  float speed = 20.0f;
  float draw_distance = 0.0f;
  std::string cache_dir;
  render::WorldSceneOptions scene;
  std::string scene_name = "world";
  std::uint32_t world_size = 4096;  // voxel: the streamed world's edge in cells
  int stream_radius = 12;
  std::string save_dir;
  std::string tiles_dir;         // a block texture pack
  std::string input;             // a viewer input script (scripted session)
  std::string cull = "auto";     // the world's plant field: auto, gpu or cpu (render::choose_culling)
  std::string cpu_lod = "leaf";  // the CPU path's LOD rule: leaf or instance
};

render::SceneCamera preset_camera(const std::string& name, bool streamed, glm::ivec3 world_size) {
  std::string names;
  const auto presets = streamed ? render::streamed_voxel_presets(world_size) : render::world_camera_presets();
  for (const auto& [preset, camera] : presets) {
    if (preset == name) return camera;
    names += (names.empty() ? "" : ", ") + preset;
  }
  throw Error("unknown view '" + name + "'", "--view", "choose one of: " + names);
}

int run_view(const ViewOptions& options) {
  // Every option and output path is checked before the window opens and the scene is built.
  const bool voxel = options.scene_name == "voxel";
  const glm::ivec3 world_size(int(options.world_size), kStreamedWorldHeight, int(options.world_size));
  if (!voxel && !options.save_dir.empty())
    throw Error("edits are saved by the streamed voxel world", "--save", "add --scene voxel");
  const std::string view_name = options.view.empty() ? (voxel ? "horizon" : "overview") : options.view;
  const render::SceneCamera start = preset_camera(view_name, voxel, world_size);
  if (!options.screenshot.empty()) prepare_output_file(options.screenshot, "--screenshot");
  if (!options.cache_dir.empty()) prepare_output_folder(options.cache_dir, "--cache");
  if (!options.save_dir.empty()) prepare_output_folder(options.save_dir, "--save");
  // The streamed world's options, built and checked once, as `myriad render` builds them.
  render::StreamedVoxelSceneOptions streamed_options =
      voxel ? streamed_scene_options(options.world_size, options.scene.seed, options.stream_radius,
                                     options.save_dir)
            : render::StreamedVoxelSceneOptions{};
  render::WorldSceneOptions scene_options = options.scene;
  scene_options.tiles = streamed_options.tiles = load_tiles_option(options.tiles_dir);
  if (!options.cache_dir.empty()) scene_options.cache_dir = options.cache_dir;
  if (!voxel) scene_options.validate();
  view::ViewerOptions viewer;
  viewer.frames = options.frames;
  viewer.screenshot = options.screenshot;
  viewer.show_panel = !options.no_panel;
  viewer.vsync = options.vsync;
  viewer.speed = options.speed;
  viewer.draw_distance = options.draw_distance;
  if (!options.input.empty()) viewer.input = view::read_input_script(options.input);
  validate_options(
      viewer, {{"ViewerOptions::speed", "--speed"}, {"ViewerOptions::draw_distance", "--draw-distance"}});
  // The window comes first: the Vulkan instance needs the window system's surface extensions.
  view::Window window(options.width, options.height, "myriad view");
  gpu::Context ctx(window.context_options(gpu::ContextOptions::from_environment()));
  std::printf("device: %s\n", ctx.device_name().c_str());
  std::unique_ptr<render::FrameScene> scene;
  render::StreamedVoxelScene* streamed = nullptr;
  if (voxel) {
    auto s = std::make_unique<render::StreamedVoxelScene>(ctx, streamed_options);
    streamed = s.get();
    scene = std::move(s);
  } else {
    const render::CullChoice cull =
        render::choose_culling(ctx, render::parse_cull_request(options.cull, "--cull"));
    scene_options.culling = cull.path;
    scene_options.vegetation_cpu_lod = render::parse_vegetation_cpu_lod(options.cpu_lod, "--cpu-lod");
    std::printf("culling: %s (%s)\n", render::cull_path_name(cull.path), cull.reason.c_str());
    std::printf("baking the built-in enemy types\n");
    std::fflush(stdout);
    scene = std::make_unique<render::WorldScene>(ctx, scene_options, crowd::bake_builtin_enemy_types(),
                                                 [](const std::string& step, int index, int count) {
                                                   std::printf("[%d/%d] %s\n", index, count, step.c_str());
                                                   std::fflush(stdout);
                                                 });
  }
  std::printf("controls:\n");
  for (const std::string& line : view::control_lines()) std::printf("  %s\n", line.c_str());
  for (const std::string& line : view::edit_control_lines()) std::printf("  %s\n", line.c_str());
  std::fflush(stdout);

  const view::ViewerResult result = view::run_viewer(ctx, window, *scene, start, viewer);
  if (result.edits + result.edits_refused > 0)
    std::printf("voxel edits: %llu applied, %llu refused\n", static_cast<unsigned long long>(result.edits),
                static_cast<unsigned long long>(result.edits_refused));
  if (streamed && !options.save_dir.empty()) {
    const int written = streamed->world().save_all();
    std::printf("saved %d edited columns to %s\n", written, options.save_dir.c_str());
  }
  scene.reset();

  std::printf("%llu frames in %.2f s (%.1f FPS), %u swapchain recreations\n",
              static_cast<unsigned long long>(result.frames), result.seconds,
              result.seconds > 0.0 ? double(result.frames) / result.seconds : 0.0,
              result.swapchain_recreations);
  if (!options.screenshot.empty()) std::printf("wrote %s\n", options.screenshot.c_str());
  std::printf("validation messages: %u\n", ctx.validation_message_count());
  return validation_exit_code(ctx);
}

}  // namespace

Command add_view_command(CLI::App& app) {
  auto options = std::make_shared<ViewOptions>();
  CLI::App* sub =
      app.add_subcommand("view", "Fly through the default scene or the streamed voxel world in a window");
  sub->footer(
      "Controls: W/A/S/D move, E/Q up/down, drag to look, Shift fast, wheel speed, R/F or "
      "PageUp/PageDown slice height, L LOD colours, P/Space pause, F1/Tab panel, Esc quit. Voxel world: "
      "left click digs the cell under the crosshair, right click builds on it, [ ] material, 1-5 shape, T "
      "turn.");
  sub->add_option("--width", options->width, "Window width in pixels")->check(CLI::Range(64u, 16384u));
  sub->add_option("--height", options->height, "Window height in pixels")->check(CLI::Range(64u, 16384u));
  sub->add_option("--frames", options->frames, "Close after this many frames (0 = when the window is closed)")
      ->check(not_negative);
  sub->add_option("--screenshot", options->screenshot, "Write the last frame shown to this PNG");
  sub->add_option(
      "--view", options->view,
      "Starting camera: overview, ground, crowd_close_up, sliced, avatars_close_up or meadow; voxel: horizon "
      "(default), overview or ground");
  sub->add_option("--scene", options->scene_name,
                  "world (the default scene) or voxel (the streamed voxel world alone)")
      ->check(CLI::IsMember({"world", "voxel"}));
  sub->add_option("--world-size", options->world_size,
                  "Voxel: the streamed world's edge in cells (N x 128 x N, a multiple of 16; default 4096)")
      ->check(CLI::Range(64u, 4096u));
  sub->add_option("--stream-radius", options->stream_radius,
                  "Voxel: columns of 16 x 16 cells meshed around the camera (2-64)")
      ->check(CLI::Range(2, 64));
  sub->add_option("--save", options->save_dir,
                  "Voxel: folder where edited columns are saved on eviction and read back");
  sub->add_option("--tiles", options->tiles_dir,
                  "Block texture pack folder (PNG tiles with tiles.json, or named as Luanti's default "
                  "textures; docs/FORMATS.md); default: the built-in tiles");
  sub->add_option("--seed", options->scene.seed, "World seed")->check(not_negative);
  // The scene's options and limits are those of `myriad render --scene world`.
  add_world_scene_options(*sub, options->scene, "");
  sub->add_option("--entities", options->scene.crowd_entities, "Number of VAT enemies")
      ->check(CLI::Range(1u, render::kMaxCrowdEntities));
  sub->add_option("--cache", options->cache_dir, "Folder for the baked vegetation tiles");
  sub->add_option(
         "--cull", options->cull,
         "World: the plant field's culling, auto (GPU where the device has compute culling), gpu or cpu")
      ->check(CLI::IsMember({"auto", "gpu", "cpu"}));
  sub->add_option("--cpu-lod", options->cpu_lod,
                  "World, CPU culling: LOD per quadtree leaf (leaf) or per plant")
      ->check(CLI::IsMember({"leaf", "instance"}));
  sub->add_option("--speed", options->speed, "Fly speed in metres per second")
      ->check(finite_number)
      ->check(CLI::Range(0.5f, 2000.0f));
  sub->add_option("--draw-distance", options->draw_distance,
                  "Metres from the eye beyond which nothing is drawn; the fog is complete there "
                  "(0: no limit)")
      ->check(finite_number)
      ->check(CLI::Range(0.0f, render::kMaxDrawDistance));
  sub->add_option("--input", options->input,
                  "Play a viewer input script (docs/FORMATS.md: wait, key, hold, look, click per line); "
                  "without --frames the viewer closes when it ends");
  sub->add_flag("--vsync", options->vsync, "Wait for the display's refresh (caps the frame rate)");
  sub->add_flag("--no-panel", options->no_panel, "Start with the stats panel hidden (F1/Tab shows it)");
  return {sub, [options] { return run_view(*options); }};
}

}  // namespace myriad::app
