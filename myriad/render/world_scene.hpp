// The default scene (SPEC X3): the 256 x 64 x 256 voxel world with its grass and trees, a streamed
// vegetation field around it (4 km x 4 km, over 2 million plants), a crowd of 3,000 VAT enemies and
// 100 clothed skinned avatars, lit by one directional light with a shadow map. Everything is
// generated (the vegetation tiles are baked into a cache folder on first use); one frame loop runs
// every system's culling and drawing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "myriad/gpu/context.hpp"
#include "myriad/render/frame_scene.hpp"

namespace myriad::render {

struct WorldSceneOptions {
  std::uint64_t seed = 1;
  float vegetation_size = 4096.0f;       // metres, square, centred on the voxel world
  std::uint32_t crowd_entities = 3000;   // VAT enemies
  std::uint32_t avatars = 100;           // clothed skinned avatars
  std::uint32_t shadow_map_size = 2048;  // texels per side; 0 = no shadows
  // Baked vegetation tiles are kept here (per seed and size) and reused by later runs.
  std::filesystem::path cache_dir = std::filesystem::temp_directory_path() / "myriad-cache";
};

// Progress of the scene's construction: (step description, step index, step count).
using SceneProgress = std::function<void(const std::string&, int, int)>;

// Named camera presets of the default scene: "overview", "ground", "crowd_close_up", "sliced".
std::vector<std::pair<std::string, SceneCamera>> world_camera_presets();

std::unique_ptr<FrameScene> make_world_scene(gpu::Context& ctx, const WorldSceneOptions& options,
                                             const SceneProgress& progress = {});

}  // namespace myriad::render
