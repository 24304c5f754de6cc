// Building a voxel world's GPU content, the one way both the default scene and the voxel scene do it:
// generate, light, mesh every section, hand each mesh to the terrain renderer (the CPU copy is dropped:
// V7), place the grass and trees and hand them to the voxel vegetation renderer. The renderers queue
// their uploads; the caller records them (TerrainRenderer::upload, VoxelVegetationRenderer::upload).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "myriad/gpu/device/context.hpp"
#include "myriad/render/terrain/terrain_renderer.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"
#include "myriad/voxel/data/world.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#include "myriad/voxel/tiles/tile_pack.hpp"

namespace myriad::render {

// The size of a world generated whole (voxel::World): each a positive multiple of 16, at most 4096.
// Throws myriad::Error naming `field` otherwise.
void check_voxel_world_size(glm::ivec3 size, const std::string& field);

struct VoxelWorldBuildOptions {
  glm::ivec3 size{256, 64, 256};  // check_voxel_world_size
  std::uint64_t seed = 1;
  voxel::MeshOptions mesh;
  bool vegetation = true;  // grass and trees (V15)
  // Runs on the generated, lit world before it is meshed (e.g. voxel::place_vox); it must leave the
  // light consistent, as the edit functions do.
  std::function<void(voxel::World&)> edit_world;
  // The block textures (voxel::load_tile_pack); null = the built-in tiles.
  std::shared_ptr<const voxel::TileSet> tiles;

  // Throws myriad::Error naming the first invalid field (build_voxel_world calls it).
  void validate() const;
};

// What the build did: CPU times (ms; upload_ms = the hand-over to the renderers, plus the setup
// uploads when the caller adds them) and what it made.
struct VoxelWorldBuildStats {
  double generate_ms = 0.0, light_ms = 0.0, mesh_ms = 0.0, upload_ms = 0.0;
  std::uint32_t sections = 0, sections_with_geometry = 0;
  std::uint64_t grass = 0, trees = 0;
};

struct VoxelWorldBuild {
  std::unique_ptr<voxel::World> world;
  std::unique_ptr<TerrainRenderer> terrain;
  std::unique_ptr<VoxelVegetationRenderer> vegetation;  // null without vegetation
  VoxelWorldBuildStats stats;
};

// `mesher` is the caller's, so one that re-meshes edits later keeps its scratch memory.
VoxelWorldBuild build_voxel_world(gpu::Context& ctx, const VoxelWorldBuildOptions& options,
                                  voxel::WorldMesher& mesher);

// Setup: the pages and section instances the build queued go through the staging ring, at most one
// frame budget per submission, until nothing is pending, so the first frame uploads nothing. Inside an
// UploadBatchScope the submissions join the batch. Adds its time to `stats.upload_ms`.
void upload_voxel_world(gpu::Context& ctx, TerrainRenderer& terrain, VoxelVegetationRenderer* vegetation,
                        VoxelWorldBuildStats& stats);

}  // namespace myriad::render
