#include "myriad/render/voxel/voxel_world_build.hpp"

#include "myriad/voxel/data/material.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/vegetation.hpp"

namespace myriad::render {

void check_voxel_world_size(glm::ivec3 size, const std::string& field) {
  for (int a = 0; a < 3; ++a)
    if (size[a] <= 0 || size[a] % voxel::kSectionSize != 0 || size[a] > 4096)
      throw Error("voxel world size (" + std::to_string(size.x) + ", " + std::to_string(size.y) + ", " +
                      std::to_string(size.z) + ") is invalid",
                  field, "each size must be a positive multiple of 16, at most 4096");
}

void VoxelWorldBuildOptions::validate() const {
  check_voxel_world_size(size, "VoxelWorldBuildOptions::size");
}

VoxelWorldBuild build_voxel_world(gpu::Context& ctx, const VoxelWorldBuildOptions& options,
                                  voxel::WorldMesher& mesher) {
  options.validate();
  VoxelWorldBuild b;
  Stopwatch clock;
  b.world = std::make_unique<voxel::World>(
      voxel::generate_world(options.size, voxel::GeneratorParams{options.seed}));
  b.stats.generate_ms = clock.elapsed_ms();
  clock.restart();
  voxel::compute_light(*b.world);
  if (options.edit_world) options.edit_world(*b.world);
  b.stats.light_ms = clock.elapsed_ms();
  clock.restart();
  std::vector<voxel::SectionMesh> meshes;
  mesher.mesh_all(*b.world, options.mesh, meshes);
  b.stats.mesh_ms = clock.elapsed_ms();
  clock.restart();
  b.stats.sections = std::uint32_t(meshes.size());
  b.terrain = std::make_unique<TerrainRenderer>(ctx, b.world->sections(), OffscreenTarget::kColorFormat,
                                                OffscreenTarget::kDepthFormat, terrain_arena_options(),
                                                options.tiles ? &options.tiles->texture : nullptr);
  const glm::vec3 size = glm::vec3(b.world->sections() * voxel::kSectionSize);
  b.terrain->set_floor({0.0f, 0.0f, size.x, size.z}, voxel::materials()[voxel::kStone].tile_bottom);
  for (int s = 0; s < int(meshes.size()); ++s) {
    voxel::SectionMesh& mesh = meshes[std::size_t(s)];
    b.terrain->set_section(s, glm::vec3(b.world->section_coord(s) * voxel::kSectionSize), mesh);
    if (!mesh.indices.empty()) ++b.stats.sections_with_geometry;
    mesh = {};  // no CPU copy of the geometry after upload (V7)
  }
  if (options.vegetation) {
    std::vector<voxel::SectionVegetation> plants;
    voxel::place_all_vegetation(*b.world, options.seed, plants);
    // The fixed world's plants are drawn wherever the world is: its views include one that stands back
    // far enough to see all of it (voxel_camera_presets' "zoomed_out", ~1.7 world widths away).
    VoxelVegetationOptions plant_options;
    plant_options.max_distance =
        std::max(plant_options.max_distance, 2.0f * glm::length(glm::vec3(options.size)));
    b.vegetation =
        std::make_unique<VoxelVegetationRenderer>(ctx, b.world->sections(), OffscreenTarget::kColorFormat,
                                                  OffscreenTarget::kDepthFormat, plant_options);
    for (int s = 0; s < int(plants.size()); ++s) {
      b.vegetation->set_section(s, plants[std::size_t(s)]);
      b.stats.grass += plants[std::size_t(s)].grass.size();
      b.stats.trees += plants[std::size_t(s)].trees.size();
    }
  }
  b.stats.upload_ms = clock.elapsed_ms();
  return b;
}

void upload_voxel_world(gpu::Context& ctx, TerrainRenderer& terrain, VoxelVegetationRenderer* vegetation,
                        VoxelWorldBuildStats& stats) {
  const Stopwatch clock;
  do {
    ctx.uploads().begin_frame();
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      terrain.upload(cmd);
      if (vegetation) vegetation->upload(cmd);
    });
  } while (terrain.pending_upload_bytes() > 0 || (vegetation && vegetation->stats().pending_copies > 0));
  stats.upload_ms += clock.elapsed_ms();
}

}  // namespace myriad::render
