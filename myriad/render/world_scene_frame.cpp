// The default scene's frame loop: CPU update (streaming, crowd walk, avatar animation, voxel edits),
// then one command buffer: uploads, every system's culling, one rendering pass with the vegetation
// frame's two-phase occlusion around all opaque geometry.
#include <cstdio>

#include "myriad/core/stopwatch.hpp"
#include "myriad/render/offscreen_target.hpp"
#include "myriad/render/world_scene.hpp"
#include "myriad/render/world_scene_impl.hpp"
#include "myriad/voxel/edit.hpp"
#include "myriad/voxel/material.hpp"
#include "myriad/voxel/vegetation.hpp"

namespace myriad::render {
namespace {

constexpr float kWalkSpeed = 1.1f;  // metres per second at playback speed 1 and scale 1

batch::CullCamera avatar_camera(const SceneCamera& camera, float aspect) {
  batch::CullCamera c;
  c.frustum = Frustum::from_view_proj(camera.view_proj(aspect), DepthConvention::kReverseZ);
  c.position = camera.eye;
  c.lod_scale = 1.0f / (2.0f * std::tan(0.5f * camera.fov_y));
  return c;
}

}  // namespace

crowd::CrowdCullParams WorldScene::Impl::crowd_params(const SceneCamera& camera, float aspect,
                                                      std::uint32_t height) const {
  // LOD switch distances tuned for the first type's size, as the article tunes them for its enemies.
  crowd::LodCurveParams lod;
  lod.screen_height = float(height);
  lod.fov_y_radians = camera.fov_y;
  lod.reference_diameter = crowd->type_bounds()[0].diameter;
  crowd::CrowdCullParams params;
  params.frustum = Frustum::from_view_proj(camera.view_proj(aspect), DepthConvention::kReverseZ);
  params.camera = camera.eye;
  params.curve = crowd::LodCurve::solve(lod);
  return params;
}

crowd::CrowdCullResult WorldScene::crowd_reference(const SceneCamera& camera, std::uint32_t width,
                                                   std::uint32_t height) const {
  crowd::CrowdCullResult out;
  crowd::cull_entities(impl_->entities, impl_->crowd->type_bounds(),
                       impl_->crowd_params(camera, float(width) / float(height), height), out);
  return out;
}

std::uint64_t WorldScene::Impl::record_shadow_pass(VkCommandBuffer cmd, const SceneCamera& camera,
                                                   float aspect, std::uint32_t height, float clock) {
  ShadowMap& map = *shadow;
  map.fit(camera, aspect, to_light, kShadowDistance, kShadowCasterReach);
  // Casters culled against the shadow view; crowd and vegetation keep the LOD the camera gives them.
  if (mask & kSystemTerrain) terrain->prepare_shadow(cmd, map);
  if (mask & kSystemVegetation) field->record_shadow_cull(cmd, map, camera.eye);
  if (mask & kSystemCrowd) {
    crowd::CrowdCullParams params = crowd_params(camera, aspect, height);
    params.frustum = map.caster_frustum();
    crowd->record_cull(cmd, params);
  }
  std::uint64_t draws = 0;
  map.begin(cmd);
  if (mask & kSystemTerrain) {
    terrain->draw_shadow(cmd, map, camera.slice_height);
    draws += terrain->shadow_stats().arenas_drawn;
  }
  if (mask & kSystemVoxelVegetation) {
    voxel_vegetation->draw_shadow(cmd, map, camera.eye, camera.slice_height);
    draws += voxel_vegetation->stats().shadow_draws;
  }
  if (mask & kSystemVegetation) draws += field->draw_shadow(cmd, map);
  if (mask & kSystemCrowd) {
    crowd->record_draw_shadow(cmd, map, clock);
    draws += crowd->cull().slot_count();
  }
  // Avatars keep their blob shadows (B9); the flat ground only receives.
  map.end(cmd);
  return draws;
}

void WorldScene::Impl::move_crowd(float dt) {
  // Walkers (clip 0) step forward along their yaw and wrap around the crowd's square.
  const float half = kCrowdMapSize * 0.5f;
  for (crowd::CrowdEntity& e : entities) {
    if ((e.type_clip >> 16) != 0) continue;
    const float yaw = crowd::entity_yaw(e);
    const float step = kWalkSpeed * e.speed * crowd::entity_scale(e) * dt;
    glm::vec3 local = e.position - kCrowdCentre + step * glm::vec3(std::sin(yaw), 0.0f, std::cos(yaw));
    local.x = local.x > half ? local.x - 2.0f * half : (local.x < -half ? local.x + 2.0f * half : local.x);
    local.z = local.z > half ? local.z - 2.0f * half : (local.z < -half ? local.z + 2.0f * half : local.z);
    e.position = kCrowdCentre + local;
  }
  crowd->stage_entities(entities);
}

void WorldScene::Impl::apply_voxel_edit() {
  VoxelEditSite& site = edit_site;
  if (!site.dug) {
    site.material = world->material(site.cell);
    site.form = world->form(site.cell);
  }
  const voxel::EditResult r = site.dug ? voxel::edit_voxel(*world, site.cell, site.material, site.form)
                                       : voxel::edit_voxel(*world, site.cell, voxel::kAir, 0);
  site.dug = !site.dug;
  // Only the dirty sections hold a mesh while they are uploaded; the scratch is emptied afterwards.
  meshes.resize(std::size_t(world->section_count()));
  mesher.mesh_sections(*world, r.dirty_sections, {}, meshes);
  voxel::SectionVegetation plants;
  for (const int s : r.dirty_sections) {
    terrain->set_section(s, glm::vec3(world->section_coord(s) * voxel::kSectionSize), meshes[std::size_t(s)]);
    meshes[std::size_t(s)] = {};
    voxel::place_vegetation(*world, world->section_coord(s), options.seed, plants);
    voxel_vegetation->set_section(s, plants);
  }
  ++edits;
}

void WorldScene::update(double dt, const SceneCamera& camera, const FrameSettings& settings) {
  Impl& m = *impl_;
  Stopwatch total;
  const float step = settings.paused ? 0.0f : static_cast<float>(std::max(dt, 0.0));
  m.time += double(step);
  Stopwatch clock;
  m.field->update(camera.eye);
  m.stats.cpu_streaming_ms = clock.elapsed_ms();
  clock.restart();
  if (step > 0.0f) m.move_crowd(step);
  m.stats.cpu_crowd_ms = clock.elapsed_ms();
  // The avatars are animated and culled in record(), which knows the image's aspect.
  m.avatar_dt += step;
  clock.restart();
  if (m.edit_every > 0 && !settings.paused && (m.stats.frame + 1) % m.edit_every == 0) m.apply_voxel_edit();
  m.stats.cpu_edit_ms = clock.elapsed_ms();
  m.stats.cpu_update_ms = total.elapsed_ms();
}

void WorldScene::settle(const SceneCamera& camera) { impl_->field->settle(camera.eye); }

void WorldScene::record(VkCommandBuffer cmd, const SceneCamera& camera, const FrameSettings& settings,
                        OffscreenTarget& target) {
  Impl& m = *impl_;
  Stopwatch clock;
  const float aspect = float(target.width()) / float(target.height());
  const glm::mat4 view_proj = camera.view_proj(aspect);
  const float time = static_cast<float>(m.time);
  const std::uint32_t mask = m.mask;
  m.timer->begin_frame(cmd);

  // Uploads and culling, outside rendering.
  m.crowd->record_entity_upload(cmd);
  if (m.avatars) {
    Stopwatch avatars_clock;
    m.avatars->update(avatar_camera(camera, aspect), m.avatar_dt);
    m.avatar_dt = 0.0f;
    m.avatars->record_upload(cmd);
    m.stats.cpu_avatars_ms = avatars_clock.elapsed_ms();
  }
  if (mask & kSystemTerrain) m.terrain->prepare(cmd, view_proj, camera.slice_height);
  if (mask & kSystemVoxelVegetation)
    m.voxel_vegetation->prepare(cmd, view_proj, camera.eye, camera.slice_height, time);
  const ShadowMap* shadow = m.shadow.get();
  if (shadow) {
    m.stats.shadow_draws = m.record_shadow_pass(cmd, camera, aspect, target.height(), time);
    m.timer->mark(cmd, "shadow");
  }
  if (mask & kSystemCrowd) m.crowd->record_cull(cmd, m.crowd_params(camera, aspect, target.height()));
  m.timer->mark(cmd, "cull");

  VegetationDrawSettings veg;
  veg.view_proj = view_proj;
  veg.light_dir = m.to_light;
  auto opaque = [&](VkCommandBuffer c, const VegetationDrawSettings& s) {
    if (mask & kSystemGround) m.field->draw_ground(c, s, shadow);
    if (mask & kSystemTerrain) m.terrain->draw(c, view_proj, m.to_light, camera.slice_height, 0, shadow);
    if (mask & kSystemVoxelVegetation)
      m.voxel_vegetation->draw(c, view_proj, camera.eye, m.to_light, camera.slice_height, shadow);
    if (mask & kSystemCrowd) {
      CrowdDrawOptions draw;
      draw.view_proj = view_proj;
      draw.sun_direction = m.to_light;
      draw.time = time;
      draw.lod_colors = settings.lod_colors;
      m.crowd->record_draw(c, draw, shadow);
    }
    if (m.avatars && (mask & kSystemAvatars)) {
      m.avatars->draw(c, view_proj);
      // Decals last: blended over every opaque surface drawn so far.
      m.avatars->draw_blobs(c, view_proj);
    }
  };
  if (mask & kSystemVegetation) {
    m.field->record(cmd, veg, camera.eye, target, opaque, kSkyColor, shadow);
  } else {
    target.begin(cmd, kSkyColor);
    opaque(cmd, veg);
    target.end(cmd);
  }
  m.timer->mark(cmd, "draw");
  m.recorded = true;
  m.stats.cpu_record_ms = clock.elapsed_ms();
}

void WorldScene::finish_frame() {
  Impl& m = *impl_;
  if (!m.recorded) return;
  m.recorded = false;
  WorldFrameStats& st = m.stats;
  ++st.frame;
  st.voxel_edits = m.edits;
  st.gpu_ms.clear();
  for (const gpu::GpuTimer::Interval& i : m.timer->resolve()) st.gpu_ms.emplace_back(i.name, i.ms);
  for (SystemFrameStats& s : st.systems) s = {};

  SystemFrameStats& terrain = st.systems[0];
  const TerrainFrameStats& tf = m.terrain->frame_stats();
  const TerrainMemory tm = m.terrain->memory();
  terrain.objects = tf.pages;
  terrain.draws = tf.arenas_drawn;
  if (m.mask & kSystemTerrain) {
    const TerrainRenderer::DrawCounts drawn = m.terrain->read_draw_counts();
    terrain.visible = drawn.pages;
    terrain.vertices = drawn.vertices;
    terrain.triangles = drawn.triangles;
  }
  terrain.pipeline_binds = tf.pipeline_binds;
  terrain.overflow = m.terrain->overflow();
  terrain.gpu_bytes = tm.vertex_bytes + tm.index_bytes + tm.page_bytes;

  SystemFrameStats& voxel_veg = st.systems[1];
  voxel_veg.objects = m.build.voxel_grass + m.build.voxel_trees;
  voxel_veg.gpu_bytes = m.voxel_vegetation->gpu_bytes();
  voxel_veg.overflow = m.voxel_vegetation->overflow();
  if (m.mask & kSystemVoxelVegetation) {
    const VoxelVegetationCounts c = m.voxel_vegetation->read_counts();
    voxel_veg.visible = std::uint64_t(c.grass_near) + c.grass_far + c.trees;
    voxel_veg.vertices = c.vertices;
    voxel_veg.triangles = c.vertices / 3;
    voxel_veg.draws = m.voxel_vegetation->stats().draws;
    voxel_veg.pipeline_binds = m.voxel_vegetation->stats().pipeline_binds;
  }

  m.field->finish_frame();
  const VegetationFieldStats& fs = m.field->stats();
  SystemFrameStats& veg = st.systems[2];
  veg.objects = fs.resident;
  if (m.mask & kSystemVegetation) {
    veg.visible = fs.drawn.total();
    veg.draws = fs.drawn.draws;
    veg.pipeline_binds = fs.drawn.binds;
    veg.vertices = fs.drawn.indices;
    veg.triangles = fs.drawn.triangles;
  }
  veg.gpu_bytes = m.field->gpu_bytes();
  veg.overflow = fs.drawn.overflow;
  st.vegetation_planted = fs.planted;
  st.vegetation_resident = fs.resident;
  st.vegetation_refreshes = fs.refreshes;

  SystemFrameStats& crowd = st.systems[3];
  crowd.objects = m.entities.size();
  crowd.gpu_bytes = m.crowd->gpu_bytes();
  crowd.overflow = m.crowd->cull().overflow();
  if (m.mask & kSystemCrowd) {
    const CrowdFrameStats c = m.crowd->read_stats();
    crowd.visible = c.total_entities();
    crowd.vertices = c.total_vertices();
    crowd.triangles = c.total_triangles();
    crowd.draws = m.crowd->cull().slot_count();
    crowd.pipeline_binds = m.crowd->cull().slot_count();
  }

  SystemFrameStats& avatars = st.systems[4];
  if (m.avatars) {
    const AvatarDrawStats& a = m.avatars->stats();
    avatars.objects = a.avatars;
    avatars.gpu_bytes = m.avatars->gpu_bytes();
    if (m.mask & kSystemAvatars) {
      avatars.visible = a.visible;
      avatars.draws = a.draws + 1;  // + the blob shadows' one instanced draw
      avatars.pipeline_binds = a.pipeline_binds + 1;
      avatars.vertices = a.vertices;
      avatars.triangles = a.triangles;
    }
  }

  SystemFrameStats& ground = st.systems[5];
  ground.objects = 1;
  if (m.mask & kSystemGround) {
    ground.visible = ground.draws = ground.pipeline_binds = 1;
  }
}

std::vector<std::string> WorldScene::stats_lines() const {
  const WorldFrameStats& st = impl_->stats;
  std::vector<std::string> lines;
  char buffer[160];
  for (std::uint32_t i = 0; i < kWorldSystemCount; ++i) {
    const SystemFrameStats& s = st.systems[i];
    std::snprintf(buffer, sizeof buffer, "%-16s %9llu / %-9llu draws %4llu  tris %9llu", world_system_name(i),
                  static_cast<unsigned long long>(s.visible), static_cast<unsigned long long>(s.objects),
                  static_cast<unsigned long long>(s.draws), static_cast<unsigned long long>(s.triangles));
    lines.emplace_back(buffer);
  }
  std::snprintf(buffer, sizeof buffer, "vegetation: %llu planted, %llu resident; edits %llu",
                static_cast<unsigned long long>(st.vegetation_planted),
                static_cast<unsigned long long>(st.vegetation_resident),
                static_cast<unsigned long long>(st.voxel_edits));
  lines.emplace_back(buffer);
  std::snprintf(buffer, sizeof buffer, "cpu ms: update %.2f (stream %.2f) record %.2f (avatars %.2f)",
                st.cpu_update_ms, st.cpu_streaming_ms, st.cpu_record_ms, st.cpu_avatars_ms);
  lines.emplace_back(buffer);
  return lines;
}

}  // namespace myriad::render
