#include "myriad/render/voxel/voxel_scene.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/pipeline/recorded_binds.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/voxel_world_build.hpp"

namespace myriad::render {

std::vector<VoxelView> voxel_camera_presets(glm::ivec3 size) {
  const glm::vec3 s(size);
  const glm::vec3 centre = s * glm::vec3(0.5f, 0.3f, 0.5f);
  const float fov = glm::radians(55.0f);
  const glm::vec3 high(-0.15f * s.x, 2.2f * s.y, -0.15f * s.z), low(0.2f * s.x, 0.85f * s.y, 0.3f * s.z);
  const SceneCamera overview = SceneCamera::look_at(high, centre, fov);
  const SceneCamera ground = SceneCamera::look_at(low, glm::vec3(0.75f * s.x, 0.45f * s.y, 0.8f * s.z), fov);
  SceneCamera sliced = overview;
  sliced.slice_height = 0.4f * s.y;
  // A few cells above the ground preset's target: slopes, corners and their AO up close.
  const glm::vec3 near_target(0.75f * s.x, 0.45f * s.y, 0.8f * s.z);
  const SceneCamera close_up =
      SceneCamera::look_at(near_target + glm::vec3(-14.0f, 12.0f, -10.0f), near_target, glm::radians(50.0f));
  // The article's views, from the world's low corner along its diagonal, 40 degrees down, with a narrow
  // lens as builder games use. Zoomed out: aimed a little in front of the middle and far enough that
  // the world's corners, up to its highest ground, stay inside the frame. Game scale: 70 cells from a
  // point near the middle of the world, about 90 cells across there.
  const float lens = glm::radians(40.0f), pitch = glm::radians(40.0f);
  const glm::vec3 back(-std::cos(pitch) * std::sqrt(0.5f), std::sin(pitch),
                       -std::cos(pitch) * std::sqrt(0.5f));
  const glm::vec3 aim(0.35f * s.x, 0.35f * s.y, 0.35f * s.z);
  const SceneCamera zoomed_out = SceneCamera::look_at(aim + 1.7f * std::max(s.x, s.z) * back, aim, lens);
  const glm::vec3 game_target(0.55f * s.x, 0.4f * s.y, 0.6f * s.z);
  const SceneCamera game = SceneCamera::look_at(game_target + 70.0f * back, game_target, lens);
  return {{"overview", overview}, {"ground", ground},         {"sliced", sliced},
          {"close_up", close_up}, {"zoomed_out", zoomed_out}, {"game", game}};
}

void VoxelSceneOptions::validate() const {
  validate_size("VoxelSceneOptions");
  check_voxel_world_size(size, "VoxelSceneOptions::size");
  if (debug_mode > 1)
    throw Error("terrain debug mode " + std::to_string(debug_mode) + " is invalid",
                "VoxelSceneOptions::debug_mode", "0: shaded, 1: light only");
  const std::vector<VoxelView> presets = voxel_camera_presets(size);
  for (const VoxelView& extra : extra_views) {
    const auto same_name = [&](const VoxelView& v) { return v.name == extra.name; };
    if (extra.name.empty() || std::any_of(presets.begin(), presets.end(), same_name) ||
        std::count_if(extra_views.begin(), extra_views.end(), same_name) > 1)
      throw Error("extra view name '" + extra.name + "' is empty or taken", "VoxelSceneOptions::extra_views",
                  "name each extra view, differently from the presets and from each other");
  }
}

namespace {

const glm::vec3 kVoxelSceneSun(0.35f, 0.85f, 0.25f);
const glm::vec4 kVoxelSceneSky(0.62f, 0.76f, 0.92f, 1.0f);

}  // namespace

FixedVoxelScene::FixedVoxelScene(gpu::Context& ctx, const VoxelSceneOptions& options)
    : ctx_(ctx), options_((options.validate(), options)), frame_(ctx), timer_(ctx) {
  VoxelWorldBuildOptions build_options{
      .size = options.size, .seed = options.seed, .vegetation = options.vegetation};
  build_options.edit_world = options.edit_world;
  build_options.tiles = options.tiles;
  build_options.mesh.mode = options.merge ? voxel::MeshMode::kAtlas : voxel::MeshMode::kUnmerged;
  build_options.mesh.tile_variation = options.tile_variation;
  build_ = build_voxel_world(ctx, build_options, mesher_);
  upload_voxel_world(ctx, *build_.terrain, build_.vegetation.get(), build_.stats);
  build_.terrain->set_debug_mode(options.debug_mode);
  editor_ = std::make_unique<FixedWorldEditor>(*build_.world, mesher_, build_options.mesh, *build_.terrain,
                                               build_.vegetation.get(), options.seed);
  // The same scene frame as the default scene's, over the terrain and the voxel grass and trees. One
  // phase: each view is a single frame, and what it measures is the systems' own culling.
  frame_.set_occlusion(false);
  systems_ = {build_.terrain.get()};
  if (build_.vegetation) systems_.push_back(build_.vegetation.get());
}

VoxelFrame FixedVoxelScene::render(const std::string& name, const SceneCamera& camera, std::uint32_t width,
                                   std::uint32_t height, bool read_back) {
  if (!target_ || target_->width() != width || target_->height() != height)
    target_ = std::make_unique<OffscreenTarget>(ctx_, width, height);
  const FrameView view = FrameView::of_camera(camera, width, height, kVoxelSceneSun);
  VoxelFrame frame;
  frame.name = name;
  Stopwatch frame_clock;
  ctx_.submit_and_wait([&](VkCommandBuffer cmd) {
    Stopwatch record;
    const gpu::RecordedBinds binds;
    timer_.begin_frame(cmd);
    frame_.record(cmd, view, systems_, *target_, kVoxelSceneSky, nullptr, 0.0f, &timer_);
    frame.pipeline_binds = binds.pipeline_binds();
    frame.graphics_binds = binds.graphics_binds();
    frame.record_ms = record.elapsed_ms();
  });
  frame.frame_ms = frame_clock.elapsed_ms();
  frame.timing = timer_.source();
  frame.gpu_passes = timer_.resolve();
  frame.stats = build_.terrain->frame_stats();
  if (build_.vegetation) {
    frame.vegetation = build_.vegetation->stats();
    frame.vegetation_counts = build_.vegetation->read_counts();
  }
  if (read_back) {
    frame.rgba = target_->read_color();
    frame.depth = target_->read_depth();
  }
  return frame;
}

FixedWorldEditor::Outcome FixedVoxelScene::edit(const voxel::VoxelEdit& e) { return editor_->apply(e); }

bool FixedVoxelScene::uploads_pending() const {
  return build_.terrain->pending_upload_bytes() > 0 ||
         (build_.vegetation && build_.vegetation->stats().pending_copies > 0);
}

VoxelSceneResult render_voxel_scene(gpu::Context& ctx, const VoxelSceneOptions& options) {
  FixedVoxelScene scene(ctx, options);
  VoxelSceneResult result;
  result.build = scene.build_stats();
  if (scene.vegetation()) result.vegetation_gpu_bytes = scene.vegetation()->gpu_bytes();
  std::vector<VoxelView> views = voxel_camera_presets(options.size);
  views.insert(views.end(), options.extra_views.begin(), options.extra_views.end());
  for (const VoxelView& preset : views) {
    if (!options.views.empty() &&
        std::find(options.views.begin(), options.views.end(), preset.name) == options.views.end()) {
      continue;
    }
    result.frames.push_back(
        scene.render(preset.name, preset.camera, options.width, options.height, options.read_back));
  }
  result.memory = scene.terrain().memory();
  return result;
}

}  // namespace myriad::render
