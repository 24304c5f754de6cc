// Construction of the default scene: each system generated, baked or loaded and uploaded once.
#include "myriad/render/world/world_scene.hpp"

#include "myriad/gpu/memory/staging_ring.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/kit/kit_build.hpp"
#include "myriad/anim/import/kit_import.hpp"
#include "myriad/core/io/assets.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/render/crowd/crowd_scene.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/voxel_world_build.hpp"
#include "myriad/render/world/world_scene_impl.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"

namespace myriad::render {
namespace {

constexpr int kBuildSteps = 4;

// Surface height of every voxel column (the top of its highest non-air cell; 0 for an empty column).
std::vector<float> column_tops(const voxel::World& world) {
  const glm::ivec3 size = world.size();
  std::vector<float> tops(std::size_t(size.x) * std::size_t(size.z), 0.0f);
  for (int z = 0; z < size.z; ++z)
    for (int x = 0; x < size.x; ++x)
      for (int y = size.y - 1; y >= 0; --y)
        if (world.material({x, y, z}) != voxel::kAir) {
          tops[std::size_t(z) * std::size_t(size.x) + std::size_t(x)] = float(y + 1);
          break;
        }
  return tops;
}

}  // namespace

const char* world_system_name(std::uint32_t index) {
  static const char* names[kWorldSystemCount] = {"terrain", "voxel_vegetation", "vegetation",
                                                 "crowd",   "avatars",          "ground"};
  return index < kWorldSystemCount ? names[index] : "unknown";
}

std::vector<std::pair<std::string, SceneCamera>> world_camera_presets() {
  const glm::vec3 s(kVoxelWorldSize);
  SceneCamera sliced =
      SceneCamera::look_at({-0.15f * s.x, 2.2f * s.y, -0.15f * s.z}, s * glm::vec3(0.5f, 0.3f, 0.5f));
  sliced.slice_height = 0.4f * s.y;
  return {
      // High above the south-west: the crowd in front, the voxel world behind on its rise of ground, the
      // field to the horizon.
      {"overview", SceneCamera::look_at({-90.0f, 110.0f + kGroundLevel, -380.0f},
                                        {150.0f, 10.0f + kGroundLevel, -20.0f})},
      // Eye height south-east of the avatars' plaza, looking across them at the voxel world.
      {"ground",
       SceneCamera::look_at({352.0f, 1.8f + kGroundLevel, 32.0f}, {270.0f, 8.0f + kGroundLevel, 120.0f})},
      // At the crowd's southern edge, looking into it.
      {"crowd_close_up", SceneCamera::look_at({128.0f, 2.2f + kGroundLevel, -262.0f},
                                              {130.0f, 1.0f + kGroundLevel, -220.0f}, 1.05f)},
      // The voxel world cut at 40 % of its height (V14).
      {"sliced", sliced},
      // Among the avatars: the plaza's front rows (the grid runs +X, then -Z from its origin) at a few
      // metres, so outfits, patterns and the walk can be seen.
      {"avatars_close_up",
       SceneCamera::look_at({kAvatarOrigin.x + 3.2f, 1.9f + kGroundLevel, kAvatarOrigin.z + 6.5f},
                            {kAvatarOrigin.x + 3.2f, 0.9f + kGroundLevel, kAvatarOrigin.z - 3.0f}, 0.9f)},
      // Low, at the plaza's north-west corner (flat ground), looking out over the grass at the
      // forest's edge: the plants up close, leaning in the wind.
      {"meadow",
       SceneCamera::look_at({kAvatarOrigin.x - 15.0f, 1.2f + kGroundLevel, kAvatarOrigin.z + 15.0f},
                            {kAvatarOrigin.x - 40.0f, 3.0f + kGroundLevel, kAvatarOrigin.z + 40.0f}, 0.9f)},
  };
}

void WorldScene::Impl::build_voxel_world(const SceneProgress& progress) {
  if (progress) progress("generating, lighting and meshing the voxel world", 1, kBuildSteps);
  VoxelWorldBuild b = render::build_voxel_world(
      ctx, {.size = kVoxelWorldSize, .seed = options.seed, .tiles = options.tiles}, mesher);
  world = std::move(b.world);
  terrain = std::move(b.terrain);
  voxel_vegetation = std::move(b.vegetation);
  build.voxel = b.stats;
  editor = std::make_unique<FixedWorldEditor>(*world, mesher, voxel::MeshOptions{}, *terrain,
                                              voxel_vegetation.get(), options.seed);
  outline = std::make_unique<CellOutline>(ctx, OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat);
  // The soak edits dig at the top of a column near the centre.
  glm::ivec3 p(kVoxelWorldSize.x / 2 + 3, kVoxelWorldSize.y - 1, kVoxelWorldSize.z / 2 - 5);
  while (p.y > 0 && world->material(p) == voxel::kAir) --p.y;
  edit_site.cell = p;
}

void WorldScene::Impl::build_vegetation(const SceneProgress& progress) {
  if (progress) progress("vegetation field: baking (first run) and streaming", 2, kBuildSteps);
  Stopwatch clock;
  const double half = double(options.vegetation_size) * 0.5;
  const glm::dvec2 centre(kVoxelWorldSize.x * 0.5, kVoxelWorldSize.z * 0.5);
  VegetationFieldOptions o;
  o.seed = options.seed;
  o.min = centre - glm::dvec2(half);
  o.max = centre + glm::dvec2(half);
  o.cache_dir = options.cache_dir;
  o.load_radius = options.vegetation_load_radius;
  o.culling = options.culling;
  o.cpu_lod = options.vegetation_cpu_lod;
  // Bare ground under the voxel world and where the crowd and the avatars stand.
  const glm::dvec3 crowd_centre(kCrowdCentre);
  const double crowd_half = double(kCrowdMapSize) * 0.5 + 10.0;
  const glm::dvec3 avatars_origin(kAvatarOrigin);
  const double avatars_side = double(avatar_spacing) * std::ceil(std::sqrt(double(options.avatars)));
  // Grass still grows where the crowd and the avatars walk (they trample it), nothing taller.
  std::uint32_t grass = 0;
  const std::vector<vegetation::PlantType> types = vegetation::default_plant_types();
  for (std::size_t t = 0; t < types.size() && t < 32; ++t)
    if (types[t].kind == vegetation::PlantKind::kGrass) grass |= 1u << t;
  const vegetation::Clearing crowd_area{.min = {crowd_centre.x - crowd_half, crowd_centre.z - crowd_half},
                                        .max = {crowd_centre.x + crowd_half, crowd_centre.z + crowd_half},
                                        .spared_types = grass};
  const vegetation::Clearing avatar_area{
      .min = {avatars_origin.x - 20.0, avatars_origin.z - avatars_side - 20.0},
      .max = {avatars_origin.x + avatars_side + 20.0, avatars_origin.z + 20.0},
      .spared_types = grass};
  o.clearings = {{.min = {-2.0, -2.0}, .max = {kVoxelWorldSize.x + 2.0, kVoxelWorldSize.z + 2.0}},
                 crowd_area,
                 avatar_area};
  // The ground: low hills about kGroundLevel; the voxel world's footprint levelled in (the ground meets
  // each edge column's top and slopes back to the hills over 80 m), the crowd's field and the avatars'
  // plaza flat at kGroundLevel.
  ground.seed = options.seed ^ 0x67726f756e64ull;
  ground.amplitude = 16.0f;
  ground.base = kGroundLevel - 8.0f;
  ground.wavelength = 700.0f;
  const std::vector<float> tops = column_tops(*world);
  ground.pads = {
      vegetation::block_pad({0.0, 0.0}, glm::uvec2(kVoxelWorldSize.x, kVoxelWorldSize.z), tops, 80.0f, 4),
      {.min = crowd_area.min, .max = crowd_area.max, .blend = 40.0f, .height = kGroundLevel},
      {.min = avatar_area.min, .max = avatar_area.max, .blend = 30.0f, .height = kGroundLevel}};
  o.terrain = ground;
  // The ground's material: sand in the lowest hollows, bare rock on the steepest slopes and the highest
  // hills (the hills reach about kGroundLevel + 8 m).
  o.ground.material.sand_below = kGroundLevel - 7.0f;
  o.ground.material.rock_above = kGroundLevel + 5.0f;
  field = std::make_unique<VegetationField>(ctx, o, [&](const std::string& m) {
    if (progress) progress(m, 2, kBuildSteps);
  });
  build.vegetation_ms = clock.elapsed_ms();
}

void WorldScene::Impl::build_crowd(const SceneProgress& progress) {
  if (progress) progress("placing the crowd", 3, kBuildSteps);
  Stopwatch clock;
  entities =
      scatter_crowd(options.crowd_entities, std::uint32_t(enemy_types.size()), kCrowdMapSize, options.seed);
  // The crowd stands on the ground.
  for (crowd::CrowdEntity& e : entities) {
    e.position += kCrowdCentre;
    e.position.y = ground.height(double(e.position.x), double(e.position.z));
  }
  crowd = std::make_unique<CrowdRenderer>(ctx, enemy_types, entities, OffscreenTarget::kColorFormat,
                                          OffscreenTarget::kDepthFormat);
  build.crowd_upload_ms = clock.elapsed_ms();
}

namespace {

anim::Avatar load_avatar_kit(const WorldSceneOptions& options) {
  anim::KitImport in;
  if (!options.avatar_kit.empty()) {
    in = anim::import_kit(options.avatar_kit);
  } else {
    std::optional<anim::ImportedModel> model;
    if (const std::optional<std::filesystem::path> cesium = find_shared_asset("cesium_man.gltf"))
      model = anim::import_gltf(*cesium);
    const anim::Avatar sample = anim::make_sample_kit(model ? &*model : nullptr);
    in = anim::write_and_import_kit(sample, options.cache_dir / "avatar_kit",
                                    model ? "cesium_man_kit" : "humanoid_kit");
    in.kit.name = model ? "cesium_man.gltf split into 17 parts + sample items" : "procedural humanoid";
  }
  for (const std::filesystem::path& f : options.avatar_items) {
    const std::vector<std::string> ignored = anim::add_kit_items(in.kit, f);
    in.ignored.insert(in.ignored.end(), ignored.begin(), ignored.end());
  }
  for (const std::filesystem::path& f : options.avatar_clips) {
    for (const std::string& w : anim::add_kit_clips(in.kit, f))
      std::fprintf(stderr, "warning: %s\n", w.c_str());
  }
  for (const std::string& i : anim::avatar_ignored(in))
    std::fprintf(stderr, "avatar kit: ignored %s\n", i.c_str());
  for (const anim::Material& m : in.kit.materials) {
    if (!m.texture_problem.empty() && options.strict_assets)
      throw Error("avatar kit material '" + m.name + "': " + m.texture_problem, options.avatar_kit.string(),
                  "put the texture files beside the kit, or render without --strict");
    if (!m.texture_problem.empty())
      std::fprintf(stderr, "warning: avatar kit material '%s': %s\n", m.name.c_str(),
                   m.texture_problem.c_str());
  }
  return std::move(in.kit);
}

}  // namespace

void WorldScene::Impl::load_avatar_kit() {
  if (options.avatars == 0) return;
  avatar_kit = std::make_shared<anim::Avatar>(render::load_avatar_kit(options));
  avatar_spacing = batch::avatar_grid_spacing(*avatar_kit, avatar_placing());
}

batch::AvatarCrowdOptions WorldScene::Impl::avatar_placing() const {
  batch::AvatarCrowdOptions placing;
  placing.avatars = options.avatars;
  placing.spacing = kAvatarSpacing;
  placing.seed = static_cast<std::uint32_t>(options.seed);
  // SPEC B9: avatars beyond 15 / 40 / 80 m pose every 2 / 4 / 8 frames (the default bands), and only
  // the posed ones' palettes are uploaded.
  placing.throttle = true;
  // A kit with several clips (e.g. --avatar-clips): each avatar cross-fades to the next one every 8 s
  // or so.
  placing.clip_change_period = 8.0f;
  // Avatars stand on the hills, at the height asked for, a fifth of them idle when the kit can.
  placing.height = options.avatar_height;
  placing.clip_roles = options.avatar_clip_roles;
  placing.idle_share = 0.2f;
  // Three levels per part: full detail near, half and a quarter of the vertices further away.
  placing.lod_levels = 3;
  // Walking avatars go back and forth over 6 m at their walk clip's stride (feet do not slide).
  placing.walk_span = 6.0f;
  return placing;
}

void WorldScene::Impl::build_avatars(const SceneProgress& progress) {
  Stopwatch clock;
  if (avatar_kit) {
    if (progress) progress("building the avatars (kit: " + avatar_kit->name + ")", 4, kBuildSteps);
    batch::AvatarCrowdOptions placing = avatar_placing();
    placing.origin = {kAvatarOrigin.x, ground.height(double(kAvatarOrigin.x), double(kAvatarOrigin.z)),
                      kAvatarOrigin.z};
    placing.ground = [this](float x, float z) { return ground.height(double(x), double(z)); };
    avatars = std::make_unique<AvatarCrowdRenderer>(ctx, avatar_kit, placing, OffscreenTarget::kColorFormat,
                                                    OffscreenTarget::kDepthFormat);
  } else if (progress) {
    progress("no avatars", 4, kBuildSteps);
  }
  build.avatars_ms = clock.elapsed_ms();
}

void WorldScene::Impl::build_motion() {
  motion = std::make_unique<InteractionField>(ctx);
  // Feet: every enemy (its ground point, a radius growing with its scale) and every avatar.
  motion->set_gather([this](const InteractionGrid& grid, std::vector<Interactor>& out) {
    for (const crowd::CrowdEntity& e : entities) {
      const glm::vec2 xz(e.position.x, e.position.z);
      const float radius = kFootRadius * crowd::entity_scale(e);
      if (interactor_reaches(grid, xz, radius)) out.push_back(make_interactor(xz, radius));
    }
    if (!avatars) return;
    const batch::AvatarCrowd& placed = avatars->crowd();
    for (std::size_t a = 0; a < placed.position_count(); ++a) {
      const glm::vec3 p = placed.position(a);
      if (interactor_reaches(grid, {p.x, p.z}, kFootRadius))
        out.push_back(make_interactor({p.x, p.z}, kFootRadius));
    }
  });
  field->set_motion(motion.get());
  voxel_vegetation->set_motion(motion.get());
}

void WorldSceneOptions::validate() const {
  if (!(vegetation_size >= kMinVegetationSize) || vegetation_size > kMaxVegetationSize)
    throw Error("the vegetation field must be " + std::to_string(int(kMinVegetationSize)) + " to " +
                    std::to_string(int(kMaxVegetationSize)) + " m across",
                "WorldSceneOptions::vegetation_size");
  if (crowd_entities == 0 || crowd_entities > kMaxCrowdEntities)
    throw Error("the crowd needs 1 to " + std::to_string(kMaxCrowdEntities) + " entities",
                "WorldSceneOptions::crowd_entities");
  if (!std::isfinite(avatar_height) || avatar_height < 0.0f)
    throw Error("the avatar height must be a finite number of metres > 0 (or 0: the kit's own size)",
                "WorldSceneOptions::avatar_height");
  if (avatars > kMaxAvatars)
    throw Error("at most " + std::to_string(kMaxAvatars) + " avatars", "WorldSceneOptions::avatars");
  if (shadow_map_size > kMaxShadowMapSize)
    throw Error("shadow maps are at most " + std::to_string(kMaxShadowMapSize) + " texels",
                "WorldSceneOptions::shadow_map_size");
  if (!(vegetation_load_radius >= 0.0f) || !std::isfinite(vegetation_load_radius))
    throw Error("the vegetation load radius must be a finite number of metres >= 0",
                "WorldSceneOptions::vegetation_load_radius");
}

WorldScene::WorldScene(gpu::Context& ctx, const WorldSceneOptions& options,
                       std::vector<crowd::CrowdFile> enemy_types, const SceneProgress& progress)
    : impl_((options.validate(), std::make_unique<Impl>(ctx, options))) {
  if (enemy_types.empty()) throw Error("the crowd needs at least one enemy type", "WorldScene");
  impl_->enemy_types = std::move(enemy_types);
  // Every setup upload in as few submissions as the steps allow: the builds' uploads queue in one
  // batch, submitted when something needs them on the GPU (vegetation streaming) and at the end.
  const std::uint64_t submits_before = ctx.submit_count();
  gpu::UploadBatchScope batch(ctx);
  impl_->build_voxel_world(progress);
  impl_->load_avatar_kit();
  impl_->build_vegetation(progress);
  impl_->build_crowd(progress);
  impl_->build_avatars(progress);
  upload_voxel_world(ctx, *impl_->terrain, impl_->voxel_vegetation.get(), impl_->build.voxel);
  impl_->build_motion();
  batch.submit();
  impl_->build.setup_submits = ctx.submit_count() - submits_before;
  if (options.shadow_map_size > 0) {
    impl_->shadow = std::make_unique<ShadowMap>(ctx, options.shadow_map_size);
    impl_->stats.shadow_map_bytes = impl_->shadow->gpu_bytes();
  }
  impl_->timer = std::make_unique<gpu::GpuTimer>(ctx);
  impl_->stats.vegetation_planted = impl_->field->stats().planted;
}

WorldScene::~WorldScene() = default;

void WorldScene::set_system_mask(std::uint32_t mask) { impl_->mask = mask & kAllSystems; }
void WorldScene::set_edit_interval(std::uint32_t every_frames) { impl_->edit_every = every_frames; }

VoxelEditing* WorldScene::voxel_editing() { return impl_.get(); }
const WorldFrameStats& WorldScene::frame_stats() const { return impl_->stats; }
const vegetation::Heightfield& WorldScene::ground() const { return impl_->ground; }
std::span<const crowd::CrowdEntity> WorldScene::crowd_entities() const { return impl_->entities; }
const WorldBuildStats& WorldScene::build_stats() const { return impl_->build; }

std::uint64_t WorldScene::gpu_bytes() const {
  std::uint64_t bytes = 0;
  for (const SystemFrameStats& s : impl_->stats.systems) bytes += s.gpu_bytes;
  return bytes + impl_->stats.shadow_map_bytes + impl_->motion->gpu_bytes();
}

std::uint64_t WorldScene::cpu_bytes() const {
  const Impl& m = *impl_;
  std::uint64_t bytes = m.terrain->memory().cpu_bytes + m.field->streamer().world().resident_bytes() +
                        m.entities.capacity() * sizeof(crowd::CrowdEntity);
  return bytes + m.editor->cpu_bytes();
}

}  // namespace myriad::render
