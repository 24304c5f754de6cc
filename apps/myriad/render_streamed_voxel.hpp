// `myriad render --scene voxel --world-size N`: the streamed voxel world (StreamedVoxelScene) from its
// camera presets, each image taken once everything within the view distance has streamed in.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "image_output.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/streamed_voxel_scene.hpp"

namespace myriad::app {

// The streamed world's height in cells (8 sections).
inline constexpr int kStreamedWorldHeight = 128;

// The streamed world's scene options from the command line's values (an N x 128 x N world), built one
// way for `myriad render --scene voxel --world-size N` and `myriad view --scene voxel`, and validated
// (myriad::Error naming the field) before anything is built.
inline render::StreamedVoxelSceneOptions streamed_scene_options(std::uint32_t world_size, std::uint64_t seed,
                                                                int radius, const std::string& save_dir,
                                                                bool merge = true) {
  render::StreamedVoxelSceneOptions o;
  o.world_size = glm::ivec3(int(world_size), kStreamedWorldHeight, int(world_size));
  o.seed = seed;
  o.radius = radius;
  o.mesh_mode = merge ? voxel::MeshMode::kAtlas : voxel::MeshMode::kUnmerged;
  o.save_directory = save_dir;
  o.validate();
  return o;
}

// Streams `scene` in around `camera` until nothing is left to stream or upload, recording small frames
// into `loading` only as often as the uploads need (they carry them), then one frame into `target`.
struct StreamInResult {
  double seconds = 0.0;
  std::uint32_t frames = 0, updates = 0;
};
StreamInResult stream_in(gpu::Context& ctx, render::StreamedVoxelScene& scene,
                         const render::SceneCamera& camera, render::OffscreenTarget& target,
                         render::OffscreenTarget& loading, const render::FrameOptions& settings = {});

// Streams `options`' world in for each preset `image` asks for and writes its image.
int render_streamed_voxel(gpu::Context& ctx, const ImageOutput& image,
                          const render::StreamedVoxelSceneOptions& options, nlohmann::ordered_json& stats);

}  // namespace myriad::app
