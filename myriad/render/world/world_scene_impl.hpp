// WorldScene's state, shared by its construction (world_scene.cpp) and its frame loop
// (world_scene_frame.cpp). Not part of the public interface.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "myriad/crowd/crowd_file.hpp"
#include "myriad/crowd/entity_lod.hpp"
#include "myriad/gpu/sync/timing.hpp"
#include "myriad/render/avatars/avatar_crowd_renderer.hpp"
#include "myriad/render/crowd/crowd_renderer.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/interaction_field.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/terrain/terrain_renderer.hpp"
#include "myriad/render/voxel/voxel_editing.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"
#include "myriad/render/world/world_scene.hpp"
#include "myriad/render/vegetation/vegetation_field.hpp"
#include "myriad/voxel/data/world.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::render {

// World layout (metres): see world_scene.hpp.
inline constexpr glm::ivec3 kVoxelWorldSize{256, 64, 256};
inline constexpr float kCrowdMapSize = 180.0f;
inline constexpr glm::vec3 kCrowdCentre{128.0f, 0.0f, -160.0f};
inline constexpr glm::vec3 kAvatarOrigin{320.0f, 0.0f, 60.0f};
inline constexpr float kAvatarSpacing = 1.6f;
// Height of the plain the scene stands on: about the voxel world's mean surface height (its generator
// puts the surface near 0.42 of its 64 cells), so the ground meets the block's edges within a few metres
// and the block reads as part of the land, not a plateau.
inline constexpr float kGroundLevel = 27.0f;
inline constexpr glm::vec4 kSkyColor{0.62f, 0.76f, 0.92f, 1.0f};
// Metres of view depth at which the fog hides everything: the 4 km field's far edge fades into the
// horizon instead of ending against the sky.
inline constexpr float kFogDistance = 2200.0f;
// The shadow map covers what lies nearer than kShadowDistance to the camera; casters up to
// kShadowCasterReach towards the light (outside the camera frustum) still cast into it.
inline constexpr float kShadowDistance = 220.0f;
inline constexpr float kShadowCasterReach = 300.0f;
// How far around an enemy's or avatar's ground point grass gives way (an enemy's grows with its scale).
inline constexpr float kFootRadius = 0.6f;

// A voxel the soak edits dig out and put back: where, and what was there.
struct VoxelEditSite {
  glm::ivec3 cell{0};
  std::uint8_t material = 0, form = 0;
  bool dug = false;
};

// The scene's voxel world is edited through its Impl (WorldScene::voxel_editing).
struct WorldScene::Impl final : VoxelEditing {
  Impl(gpu::Context& c, const WorldSceneOptions& o) : ctx(c), options(o) {}

  voxel::PickResult pick(glm::dvec3 origin, glm::dvec3 direction, double max_distance,
                         double slice_height) const override;
  void edit(const voxel::VoxelEdit& edit) override;
  const VoxelEditStats& edit_stats() const override { return edits; }
  void set_outline(std::optional<CellOutlineTarget> target) override { outline->set(target); }

  gpu::Context& ctx;
  WorldSceneOptions options;
  WorldBuildStats build;
  WorldFrameStats stats;
  std::uint32_t mask = kAllSystems;
  // Sun from the south-east: the faces the presets look at (south, east) are lit, shadows fall away.
  glm::vec3 to_light = glm::normalize(glm::vec3(0.5f, 0.75f, -0.45f));

  // Voxel world.
  std::unique_ptr<voxel::World> world;
  voxel::WorldMesher mesher;
  std::unique_ptr<TerrainRenderer> terrain;
  std::unique_ptr<VoxelVegetationRenderer> voxel_vegetation;
  std::unique_ptr<FixedWorldEditor> editor;
  std::unique_ptr<CellOutline> outline;
  VoxelEditStats edits;
  EditLatency edit_latency;
  std::uint32_t edit_every = 0;
  VoxelEditSite edit_site;

  // The ground (levelled under the crowd and the avatars, meeting the voxel world's edges) and the
  // vegetation field on it.
  vegetation::Heightfield ground;
  std::unique_ptr<VegetationField> field;

  // Crowd.
  std::vector<crowd::CrowdFile> enemy_types;
  std::vector<crowd::CrowdEntity> entities;
  std::unique_ptr<CrowdRenderer> crowd;

  // Avatars: the kit is read before the ground is made, so the plaza fits its grid (the spacing widens
  // to the kit's footprint).
  std::shared_ptr<anim::Avatar> avatar_kit;
  float avatar_spacing = kAvatarSpacing;
  std::unique_ptr<AvatarCrowdRenderer> avatars;
  // Animation time since the avatars' last update: their CPU work runs when a frame is recorded (a
  // frame drawn again re-stages its per-frame data), so update() adds to it and record() spends it.
  float avatar_dt = 0.0f;
  FrameView view;  // the frame update() prepared (valid once has_view)
  bool has_view = false;

  std::unique_ptr<ShadowMap> shadow;  // null when shadows are off
  // The wind and the trampling every plant system reads: the crowd's and the avatars' feet, gathered
  // after the avatars' update (a system of the frame, after them).
  std::unique_ptr<InteractionField> motion;

  std::unique_ptr<gpu::GpuTimer> timer;
  SceneFrame frame{ctx};
  double time = 0.0;  // scene clock, seconds
  bool recorded = false;

  void build_voxel_world(const SceneProgress& progress);
  void load_avatar_kit();
  // How the avatars are placed, but for where they stand (origin, ground: build_avatars adds them).
  batch::AvatarCrowdOptions avatar_placing() const;
  void build_vegetation(const SceneProgress& progress);
  void build_crowd(const SceneProgress& progress);
  void build_avatars(const SceneProgress& progress);
  void build_motion();

  void move_crowd(float dt);
  void apply_voxel_edit();
};

}  // namespace myriad::render
