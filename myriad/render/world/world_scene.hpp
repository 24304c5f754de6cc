// The default scene (SPEC X3): the 256 x 64 x 256 voxel world with its grass and trees, a streamed
// vegetation field around it (4 km x 4 km, over 2 million plants), a crowd of 3,000 VAT enemies and
// 100 clothed skinned avatars, lit by one directional light. Everything is generated (the vegetation
// tiles are baked into a cache folder on first use); one frame loop runs every system's culling and
// drawing. World layout (metres, +Y up): the voxel world fills [0, 256] x [0, 64] x [0, 256]; the
// ground around it rolls in noise hills (flattened into pads under the voxel world, the crowd and the
// plaza); the crowd roams a 180 m square south of it (-Z) and the avatars stand on a plaza between
// the two.
#pragma once

#include "myriad/anim/clip/clip_roles.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "myriad/crowd/crowd_file.hpp"
#include "myriad/crowd/entity_cull.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/frame/culling_choice.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/vegetation/vegetation_cpu_cull.hpp"
#include "myriad/render/voxel/voxel_world_build.hpp"
#include "myriad/vegetation/bake/baker.hpp"

namespace myriad::render {

// The limits of WorldSceneOptions, in one place: the scene checks them (WorldSceneOptions::validate) before
// any build step, and the command-line options of `myriad render` and `myriad view` are bounded by the
// same numbers.
inline constexpr float kMinVegetationSize = 512.0f, kMaxVegetationSize = 16384.0f;
inline constexpr std::uint32_t kMaxCrowdEntities = 1000000u;
inline constexpr std::uint32_t kMaxAvatars = 10000u;
inline constexpr std::uint32_t kMaxShadowMapSize = 8192u;

struct WorldSceneOptions {
  std::uint64_t seed = 1;
  float vegetation_size = 4096.0f;         // metres, square, centred on the voxel world
  std::uint32_t crowd_entities = 3000;     // VAT enemies
  std::uint32_t avatars = 100;             // clothed skinned avatars
  std::uint32_t shadow_map_size = 2048;    // texels per side; 0 = no shadows
  float vegetation_load_radius = 1000.0f;  // tiles nearer the camera than this are streamed in
  // Baked vegetation tiles are kept here (per seed) and reused by later runs with the same inputs.
  std::filesystem::path cache_dir = std::filesystem::temp_directory_path() / "myriad-cache";
  // The avatars' kit (anim/import/kit_import.hpp): a kit file, item files bound to it by joint name and files
  // whose clips are retargeted onto it. Without a kit file: the sample kit — cesium_man.gltf split into
  // 17 body parts with the sample items when the shared models are found (core/io/assets.hpp), else the
  // procedural humanoid — written into cache_dir as glTF and imported back like a user's kit.
  std::filesystem::path avatar_kit;
  std::vector<std::filesystem::path> avatar_items, avatar_clips;
  // Standing height every avatar is scaled to, metres (0: the kit's own size) and clip roles named by
  // the user (anim/clip/clip_roles.hpp; the rest are found by name).
  float avatar_height = 0.0f;
  // A kit texture that cannot be read: an error instead of a warning and the base colour.
  bool strict_assets = false;
  std::vector<anim::ClipRoleOverride> avatar_clip_roles;
  // The voxel world's block textures (voxel::load_tile_pack); null = the built-in tiles.
  std::shared_ptr<const voxel::TileSet> tiles;
  // Where the systems with a CPU path cull (render::choose_culling decides it): the vegetation field's
  // plants on the GPU or on the CPU (quadtrees, batched draws, no occlusion) by `vegetation_cpu_lod`.
  // The other systems keep their own paths (WorldScene::culling says which).
  CullPath culling = CullPath::kGpu;
  VegetationCpuLod vegetation_cpu_lod = VegetationCpuLod::kPerLeaf;

  // Throws myriad::Error naming the first field outside its limits (the scene's constructor calls it
  // before any build step; the command line before Vulkan starts).
  void validate() const;
};

// Progress of the scene's construction: (step description, step index, step count).
using SceneProgress = std::function<void(const std::string&, int, int)>;

// Named camera presets of the default scene: "overview", "ground", "crowd_close_up", "sliced".
std::vector<std::pair<std::string, SceneCamera>> world_camera_presets();

// The systems of the scene, as bits (coverage masks, SystemMask).
enum WorldSystem : std::uint32_t {
  kSystemTerrain = 1u << 0,          // voxel terrain
  kSystemVoxelVegetation = 1u << 1,  // the voxel world's grass and trees
  kSystemVegetation = 1u << 2,       // the streamed vegetation field
  kSystemCrowd = 1u << 3,            // VAT enemies
  kSystemAvatars = 1u << 4,          // skinned avatars (and their blob shadows)
  kSystemGround = 1u << 5,           // the plain under everything
  kAllSystems = 0x3Fu,
};
inline constexpr std::uint32_t kWorldSystemCount = 6;
const char* world_system_name(std::uint32_t index);  // "terrain", "voxel_vegetation", ...

// How one system culls in this scene, and why (world_stats.json's "culling").
struct SystemCulling {
  CullPath path = CullPath::kGpu;
  const char* reason = "";
};

// The avatars' figures beyond SystemFrameStats (last finished frame; 0 when they were not drawn).
struct AvatarFrameFigures {
  std::uint64_t descriptor_binds = 0;           // descriptor pushes: one per batch type per pass
  std::uint64_t batch_types = 0;                // property sets drawn (body, clothing)
  std::uint64_t skeletons_updated = 0;          // avatars posed (B9 throttling skips far ones)
  std::uint64_t palette_bytes_uploaded = 0;     // their palettes, staged for the GPU
  std::uint64_t lod_avatars[4] = {0, 0, 0, 0};  // avatars in the frustum at each LOD level
};

struct WorldFrameStats {
  std::uint64_t frame = 0;
  SystemFrameStats systems[kWorldSystemCount];
  AvatarFrameFigures avatars;
  std::uint64_t shadow_draws = 0;
  std::uint64_t shadow_map_bytes = 0;
  std::uint64_t vegetation_planted = 0, vegetation_resident = 0;
  std::uint64_t vegetation_pages_staged = 0;       // pool pages uploaded since the scene began
  std::uint64_t vegetation_tiles_waiting = 0;      // resident tiles not drawn yet (their pages wait)
  double vegetation_gpu_bytes_per_instance = 0.0;  // the plant pools' device bytes per resident plant
  vegetation::PoolCullStats vegetation_cpu_cull;   // the field's CPU quadtree walk (CPU path only)
  std::uint64_t voxel_edits = 0;
  // The voxel grass and trees: compute threads dispatched (culling, one per live instance, and wind;
  // 0 on a frame that reuses the last lists at the same time) and whether the lists were reused (V13).
  std::uint64_t voxel_vegetation_threads = 0;
  bool voxel_vegetation_reused = false;
  std::uint64_t uploaded_bytes = 0;  // staged through the staging ring by the frame's uploads
  // update(): streaming, crowd walk, voxel edits; record(): avatars (animation, culling, draw list: a
  // frame drawn again stages them again) and command recording.
  double cpu_update_ms = 0.0, cpu_streaming_ms = 0.0, cpu_crowd_ms = 0.0, cpu_edit_ms = 0.0;
  double cpu_record_ms = 0.0, cpu_avatars_ms = 0.0;
  std::vector<std::pair<std::string, double>> gpu_ms;  // GPU timestamps per pass (empty on CPU devices)
};

// Construction times (ms).
struct WorldBuildStats {
  VoxelWorldBuildStats voxel;  // voxel.upload_ms: the hand-over and the setup uploads
  double vegetation_ms = 0.0, crowd_upload_ms = 0.0, avatars_ms = 0.0;
  std::uint64_t setup_submits = 0;  // GPU submissions the construction made (uploads batched)
};

class WorldScene final : public FrameScene {
 public:
  // `enemy_types`: the crowd's baked types (.crowd files read with crowd::read_crowd_file, or baked by
  // crowd_bake); the scene only places and draws them, so it never links the baker.
  WorldScene(gpu::Context& ctx, const WorldSceneOptions& options, std::vector<crowd::CrowdFile> enemy_types,
             const SceneProgress& progress = {});
  ~WorldScene() override;

  void update(double dt, const SceneCamera& camera, std::uint32_t width, std::uint32_t height,
              const FrameOptions& settings) override;
  void record(VkCommandBuffer cmd, const FrameOptions& settings, OffscreenTarget& target) override;
  void finish_frame() override;
  std::vector<std::string> stats_lines() const override;
  // The voxel world, picked and edited in place (the viewer's dig and build, the soak edits).
  VoxelEditing* voxel_editing() override;

  // Streams the vegetation around `camera` until nothing is pending (headless renders, tests).
  void settle(const SceneCamera& camera);
  // Only the systems in `mask` are drawn (shadow casters included); the frame is otherwise the same.
  void set_system_mask(std::uint32_t mask);
  // Turns on voxel edits during update(): every `every_frames` frames one voxel near the centre of
  // the world is dug out or filled back in (re-lit and re-meshed incrementally).
  void set_edit_interval(std::uint32_t every_frames);

  // CPU reference of the crowd's GPU culling for this camera and image height (same entities, same
  // LOD curve): visible entities per (type, LOD) slot.
  crowd::CrowdCullResult crowd_reference(const SceneCamera& camera, std::uint32_t width,
                                         std::uint32_t height) const;

  // The ground every system stands on (the vegetation field's terrain), and the crowd's entities as the
  // last update() left them.
  const vegetation::Heightfield& ground() const;
  std::span<const crowd::CrowdEntity> crowd_entities() const;

  // Per system (world_system_name order): the culling path it runs and why.
  std::array<SystemCulling, kWorldSystemCount> culling() const;

  const WorldFrameStats& frame_stats() const;
  const WorldBuildStats& build_stats() const;
  std::uint64_t gpu_bytes() const;
  // What the scene holds on the CPU in its growing containers: terrain page tables, re-meshed sections
  // awaiting upload, the resident vegetation runtime arrays and tiles, the crowd's entities. Long runs
  // must keep it flat (the soak test compares it lap by lap).
  std::uint64_t cpu_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace myriad::render
