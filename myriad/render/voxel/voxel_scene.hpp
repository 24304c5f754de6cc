// The voxel world scene: generates and lights the reference world (256 x 64 x 256 voxels, 1024
// sections), meshes it, hands the meshes to the TerrainRenderer and renders named camera presets
// (overview, ground, sliced, close_up, zoomed_out, game) headless. What `myriad render --scene voxel`
// draws and `myriad bench voxel-gpu` measures.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "myriad/gpu/device/context.hpp"
#include "myriad/gpu/sync/timing.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/scene_image.hpp"
#include "myriad/render/terrain/terrain_renderer.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/voxel/voxel_editing.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"
#include "myriad/render/voxel/voxel_world_build.hpp"

namespace myriad::render {

struct VoxelView {
  std::string name;
  SceneCamera camera;
};

// Presets for a world of `size` voxels: "overview" (high corner view), "ground" (eye level inside the
// world), "sliced" (the overview with the world cut at a third of its height, V14), "close_up" (a few cells
// above the ground view's target: slopes and their AO up close), and the two views of the voxel article's
// measurements, looking down at the world from a corner as a builder game's camera does: "zoomed_out"
// (its maximum zoom-out: the whole world in the frame) and "game" (its normal game scale: about 90
// cells across the middle of the frame).
std::vector<VoxelView> voxel_camera_presets(glm::ivec3 size);

struct VoxelSceneOptions : SceneImageSize {
  std::uint64_t seed = 1;
  glm::ivec3 size{256, 64, 256};   // check_voxel_world_size
  bool merge = true;               // greedy quads + atlas; false = every cell face its own quad
  bool vegetation = true;          // grass and trees (V15)
  std::uint32_t debug_mode = 0;    // TerrainPush::debug_mode: 0 shaded, 1 light only
  std::vector<std::string> views;  // preset names; empty = all
  // Changes the generated, lit world before it is meshed (VoxelWorldBuildOptions::edit_world).
  std::function<void(voxel::World&)> edit_world;
  // Extra views rendered after the presets (their names must differ from the presets').
  std::vector<VoxelView> extra_views;
  // The block textures (voxel::load_tile_pack); null = the built-in tiles.
  std::shared_ptr<const voxel::TileSet> tiles;
  bool tile_variation = true;  // MeshOptions::tile_variation
  bool read_back = true;       // false: frames keep no rgba/depth (benchmarks)

  // Throws myriad::Error naming the first invalid field (render_voxel_scene calls it).
  void validate() const;
};

struct VoxelFrame {
  std::string name;
  std::vector<std::uint8_t> rgba;
  std::vector<float> depth;  // reverse-Z depth per pixel (tests)
  TerrainFrameStats stats;
  VoxelVegetationStats vegetation;
  VoxelVegetationCounts vegetation_counts;
  // Pipeline binds in the frame's command stream (gpu::RecordedBinds over the whole record: uploads,
  // culling, every system's draws, the sky), and the graphics ones among them.
  std::uint64_t pipeline_binds = 0;
  std::uint64_t graphics_binds = 0;
  // GPU time per pass from timestamps ("cull": from the frame's start through uploads and culling,
  // "draw": the colour pass), when the device has them; empty with TimingSource::kWallClock.
  gpu::TimingSource timing = gpu::TimingSource::kWallClock;
  std::vector<gpu::GpuTimer::Interval> gpu_passes;
  double record_ms = 0.0;
  double frame_ms = 0.0;  // submit to completion, wall clock
};

struct VoxelSceneResult {
  VoxelWorldBuildStats
      build;  // build.upload_ms: the hand-over and the setup uploads (before the first frame)
  TerrainMemory memory;
  std::uint64_t vegetation_gpu_bytes = 0;
  std::vector<VoxelFrame> frames;
};

// The fixed world built, uploaded and ready to draw views of (one frame each) and to take edits between
// them: what render_voxel_scene and `myriad voxel edit` use.
class FixedVoxelScene {
 public:
  FixedVoxelScene(gpu::Context& ctx, const VoxelSceneOptions& options);

  // One frame of `camera` into a target of its own size (the frame uploads what edits queued first).
  VoxelFrame render(const std::string& name, const SceneCamera& camera, std::uint32_t width,
                    std::uint32_t height, bool read_back = true);
  // Applies an edit (FixedWorldEditor::apply); its sections go up with the next frames, within the frame
  // budget. Throws myriad::Error (world unchanged) for a cell outside the world or an unknown material.
  FixedWorldEditor::Outcome edit(const voxel::VoxelEdit& edit);
  // Geometry or plants queued by edits and not yet uploaded.
  bool uploads_pending() const;

  const voxel::World& world() const { return *build_.world; }
  const VoxelWorldBuildStats& build_stats() const { return build_.stats; }
  TerrainRenderer& terrain() { return *build_.terrain; }
  VoxelVegetationRenderer* vegetation() { return build_.vegetation.get(); }

 private:
  gpu::Context& ctx_;
  VoxelSceneOptions options_;
  voxel::WorldMesher mesher_;
  VoxelWorldBuild build_;
  std::unique_ptr<FixedWorldEditor> editor_;
  SceneFrame frame_;
  std::vector<FrameSystem*> systems_;
  std::unique_ptr<OffscreenTarget> target_;
  gpu::GpuTimer timer_;
};

VoxelSceneResult render_voxel_scene(gpu::Context& ctx, const VoxelSceneOptions& options);

}  // namespace myriad::render
