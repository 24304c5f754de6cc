// `myriad render --scene world` (the default): the default scene from its camera presets, with stats
// and the per-system pixel coverage of every image.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "myriad/gpu/context.hpp"

namespace myriad::app {

struct WorldRenderOptions {
  std::string out = "out";
  std::uint32_t width = 1280, height = 720;
  std::vector<std::string> views;  // presets; empty = all
  std::uint64_t seed = 1;
  float vegetation_size = 4096.0f;
  std::uint32_t entities = 3000;
  std::uint32_t avatars = 100;
  std::uint32_t shadow_map_size = 2048;
  std::string cache_dir;  // empty = the system temporary folder's myriad-cache
  bool coverage = true;
  bool lod_colors = false;
};

int render_world(gpu::Context& ctx, const WorldRenderOptions& options, nlohmann::ordered_json& stats);

}  // namespace myriad::app
