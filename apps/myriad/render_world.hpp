// `myriad render --scene world` (the default): the default scene from its camera presets, with stats
// and the per-system pixel coverage of every image.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "image_output.hpp"
#include "myriad/crowd/crowd_file.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/world/world_scene.hpp"

namespace myriad::app {

inline constexpr double kDefaultRenderTime = 1.5;
inline constexpr double kMaxRenderTime = 3600.0;

// The world scene's own options (the images it writes are the ImageOutput every scene shares).
struct WorldRenderOptions {
  render::WorldSceneOptions scene;
  bool coverage = true;
  bool lod_colors = false;
  // Per view, N frames with and N without two-phase occlusion, alternating, after the image: their
  // median wall-clock times and the ratio (same run, same scene, same camera). 0 = not measured.
  std::uint32_t occlusion_pairs = 0;
  // The images' shading (the model, or flat: the look before it).
  render::Shading shading = render::Shading::kFull;
  // Per view, N frames in full and N in flat shading, alternating: their medians and the cost ratio of
  // the model (full / flat), wall clock, and GPU draw-pass time where the device has timestamps.
  std::uint32_t shading_pairs = 0;
  // Simulated seconds since the start when the images are taken (one clock for every view): the crowd
  // walks, enemies and avatars animate and grass and trees sway up to it, in fixed 1/30 s steps, so the
  // same time gives the same images.
  double time = kDefaultRenderTime;
  // The crowd's types (read from .crowd files); empty = the built-in enemy types, baked first.
  std::vector<crowd::CrowdFile> enemy_types;
};

int render_world(gpu::Context& ctx, const ImageOutput& image, const WorldRenderOptions& options,
                 nlohmann::ordered_json& stats);

}  // namespace myriad::app
