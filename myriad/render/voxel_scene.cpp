#include "myriad/render/voxel_scene.hpp"

#include <algorithm>
#include <optional>

#include "myriad/core/stopwatch.hpp"
#include "myriad/render/offscreen_target.hpp"
#include "myriad/voxel/generator.hpp"
#include "myriad/voxel/light.hpp"
#include "myriad/voxel/world_mesher.hpp"

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
  return {{"overview", overview}, {"ground", ground}, {"sliced", sliced}};
}

VoxelSceneResult render_voxel_scene(gpu::Context& ctx, const VoxelSceneOptions& options) {
  VoxelSceneResult result;
  Stopwatch clock;
  voxel::World world = voxel::generate_world(options.size, voxel::GeneratorParams{options.seed});
  result.generate_ms = clock.elapsed_ms();
  clock.restart();
  voxel::compute_light(world);
  result.light_ms = clock.elapsed_ms();
  clock.restart();
  std::vector<voxel::SectionMesh> meshes;
  voxel::WorldMesher mesher;
  voxel::MeshOptions mesh_options;
  mesh_options.merge = options.merge;
  mesher.mesh_all(world, mesh_options, meshes);
  result.mesh_ms = clock.elapsed_ms();
  result.sections = std::uint32_t(meshes.size());

  TerrainRenderer terrain(ctx, world.sections(), OffscreenTarget::kColorFormat,
                          OffscreenTarget::kDepthFormat);
  clock.restart();
  for (int s = 0; s < int(meshes.size()); ++s) {
    terrain.set_section(s, glm::vec3(world.section_coord(s) * voxel::kSectionSize), meshes[std::size_t(s)]);
  }
  meshes = {};  // no CPU mirror of the geometry after upload (V7)
  std::optional<VoxelVegetationRenderer> vegetation;
  if (options.vegetation) {
    std::vector<voxel::SectionVegetation> plants;
    voxel::place_all_vegetation(world, options.seed, plants);
    vegetation.emplace(ctx, world.sections(), OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat);
    for (int s = 0; s < int(plants.size()); ++s) {
      vegetation->set_section(s, plants[std::size_t(s)]);
      result.grass_instances += plants[std::size_t(s)].grass.size();
      result.trees += plants[std::size_t(s)].trees.size();
    }
    result.vegetation_gpu_bytes = vegetation->gpu_bytes();
  }
  terrain.set_debug_mode(options.debug_mode);
  OffscreenTarget target(ctx, options.width, options.height);
  const glm::vec3 sun(0.35f, 0.85f, 0.25f);
  bool first = true;
  for (const VoxelView& preset : voxel_camera_presets(options.size)) {
    if (!options.views.empty() &&
        std::find(options.views.begin(), options.views.end(), preset.name) == options.views.end()) {
      continue;
    }
    const FrameView view = FrameView::of_camera(preset.camera, options.width, options.height, sun);
    VoxelFrame frame;
    frame.name = preset.name;
    Stopwatch frame_clock;
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      Stopwatch record;
      terrain.upload(cmd);
      if (vegetation) vegetation->upload(cmd);
      terrain.cull(cmd, view);
      if (vegetation) vegetation->cull(cmd, view);
      target.begin(cmd, glm::vec4(0.62f, 0.76f, 0.92f, 1.0f));
      terrain.draw(cmd, view);
      if (vegetation) vegetation->draw(cmd, view);
      target.end(cmd);
      frame.record_ms = record.elapsed_ms();
    });
    frame.frame_ms = frame_clock.elapsed_ms();
    if (first) {
      result.first_upload_ms = clock.elapsed_ms();
      first = false;
    }
    frame.stats = terrain.frame_stats();
    if (vegetation) {
      frame.vegetation = vegetation->stats();
      frame.vegetation_counts = vegetation->read_counts();
    }
    frame.rgba = target.read_color();
    frame.depth = target.read_depth();
    result.frames.push_back(std::move(frame));
  }
  result.memory = terrain.memory();
  return result;
}

}  // namespace myriad::render
