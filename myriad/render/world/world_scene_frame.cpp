// The default scene's frame loop: CPU update (streaming, crowd walk, avatar animation, voxel edits),
// then one command buffer: uploads, every system's culling, one rendering pass with the vegetation
// frame's two-phase occlusion around all opaque geometry.
#include <algorithm>
#include <cstdio>

#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/world/world_scene.hpp"
#include "myriad/render/world/world_scene_impl.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/vegetation.hpp"

namespace myriad::render {
namespace {

constexpr float kWalkSpeed = 1.1f;  // metres per second at playback speed 1 and scale 1

}  // namespace

crowd::CrowdCullResult WorldScene::crowd_reference(const SceneCamera& camera, std::uint32_t width,
                                                   std::uint32_t height) const {
  crowd::CrowdCullResult out;
  const FrameView view = FrameView::of_camera(camera, width, height, impl_->to_light);
  crowd::cull_entities(impl_->entities, impl_->crowd->type_bounds(), impl_->crowd->cull_params(view), out);
  return out;
}

void WorldScene::Impl::move_crowd(float dt) {
  // Walkers (clip 0) step forward along their yaw, wrap around the crowd's square and keep their feet
  // on the ground.
  const float half = kCrowdMapSize * 0.5f;
  for (crowd::CrowdEntity& e : entities) {
    if ((e.type_clip >> 16) != 0) continue;
    const float yaw = crowd::entity_yaw(e);
    const float step = kWalkSpeed * e.speed * crowd::entity_scale(e) * dt;
    glm::vec3 local = e.position - kCrowdCentre + step * glm::vec3(std::sin(yaw), 0.0f, std::cos(yaw));
    local.x = local.x > half ? local.x - 2.0f * half : (local.x < -half ? local.x + 2.0f * half : local.x);
    local.z = local.z > half ? local.z - 2.0f * half : (local.z < -half ? local.z + 2.0f * half : local.z);
    e.position = kCrowdCentre + local;
    e.position.y = ground.height(double(e.position.x), double(e.position.z));
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

void WorldScene::update(double dt, const SceneCamera& camera, const FrameOptions& settings) {
  Impl& m = *impl_;
  Stopwatch total;
  const float step = settings.paused ? 0.0f : static_cast<float>(std::max(dt, 0.0));
  m.time += double(step);
  Stopwatch clock;
  (void)m.field->update(glm::dvec3(camera.eye));
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

void WorldScene::record(VkCommandBuffer cmd, const SceneCamera& camera, const FrameOptions& settings,
                        OffscreenTarget& target) {
  Impl& m = *impl_;
  Stopwatch clock;
  // The one view of this frame: every system reads it.
  const FrameView view =
      FrameView::of_camera(camera, target.width(), target.height(), m.to_light, static_cast<float>(m.time));
  CrowdDrawOptions crowd_draw;
  crowd_draw.lod_colors = settings.lod_colors;
  m.crowd->set_draw_options(crowd_draw);

  // Draw order within a phase: opaque systems, the avatars (their blob decals blend over what is drawn
  // before them), the plants.
  std::array<FrameSystem*, kWorldSystemCount> systems{};
  std::size_t n = 0;
  const std::uint32_t mask = m.mask;
  if (mask & kSystemGround) systems[n++] = &m.field->ground();
  if (mask & kSystemTerrain) systems[n++] = m.terrain.get();
  if (mask & kSystemVoxelVegetation) systems[n++] = m.voxel_vegetation.get();
  if (mask & kSystemCrowd) systems[n++] = m.crowd.get();
  if (m.avatars && (mask & kSystemAvatars)) systems[n++] = m.avatars.get();
  if (mask & kSystemVegetation) systems[n++] = m.field.get();

  // Casters culled against the shadow view keep the LOD the camera gives them (its eye).
  if (m.shadow) m.shadow->fit(view, kShadowDistance, kShadowCasterReach);
  m.timer->begin_frame(cmd);
  m.frame.set_occlusion(settings.occlusion);
  m.frame.record(cmd, view, std::span(systems.data(), n), target, kSkyColor, m.shadow.get(), m.avatar_dt,
                 m.timer.get());
  const bool avatars_drawn = m.avatars && (mask & kSystemAvatars);
  if (avatars_drawn) m.avatar_dt = 0.0f;  // their clock advanced by it
  m.stats.cpu_avatars_ms = avatars_drawn ? m.avatars->stats().cpu_update_ms : 0.0;
  m.stats.shadow_draws = m.frame.shadow_draws();
  m.stats.uploaded_bytes = m.frame.uploaded_bytes();
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
  st.uploads = m.ctx.uploads().stats();
  st.upload_frame_budget = m.ctx.uploads().ring().frame_budget();
  st.gpu_ms.clear();
  for (const gpu::GpuTimer::Interval& i : m.timer->resolve()) st.gpu_ms.emplace_back(i.name, i.ms);
  for (SystemFrameStats& s : st.systems) s = {};
  st.avatars = {};

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
  if (m.mask & kSystemTerrain) {
    const shader::CullCounters c = m.terrain->cull_counters();
    terrain.frustum_culled = terrain.objects - std::min<std::uint64_t>(c.frustum_passed, terrain.objects);
    terrain.occlusion_culled = c.occluded;
  }
  terrain.overflow = m.terrain->overflow();
  terrain.gpu_bytes = tm.vertex_bytes + tm.index_bytes + tm.page_bytes;

  SystemFrameStats& voxel_veg = st.systems[1];
  voxel_veg.objects = m.build.voxel.grass + m.build.voxel.trees;
  voxel_veg.gpu_bytes = m.voxel_vegetation->gpu_bytes();
  voxel_veg.overflow = m.voxel_vegetation->overflow();
  if (m.mask & kSystemVoxelVegetation) {
    const VoxelVegetationCounts c = m.voxel_vegetation->read_counts();
    voxel_veg.visible = std::uint64_t(c.grass_near) + c.grass_far + c.trees;
    voxel_veg.vertices = c.vertices;
    voxel_veg.triangles = c.vertices / 3;
    const shader::CullCounters cc = m.voxel_vegetation->cull_counters();
    voxel_veg.frustum_culled =
        voxel_veg.objects - std::min<std::uint64_t>(cc.frustum_passed, voxel_veg.objects);
    voxel_veg.occlusion_culled = cc.occluded;
    voxel_veg.draws = m.voxel_vegetation->stats().draws;
    voxel_veg.pipeline_binds = m.voxel_vegetation->stats().pipeline_binds;
    st.voxel_vegetation_threads = m.voxel_vegetation->stats().threads;
    st.voxel_vegetation_reused = m.voxel_vegetation->stats().reused;
  }

  m.field->finish_frame();
  const VegetationFieldStats& fs = m.field->stats();
  SystemFrameStats& veg = st.systems[2];
  veg.objects = fs.resident;
  if (m.mask & kSystemVegetation) {
    veg.visible = fs.drawn.total();
    veg.frustum_culled = veg.objects - std::min<std::uint64_t>(fs.drawn.frustum_passed, veg.objects);
    veg.occlusion_culled = fs.drawn.occluded;
    veg.draws = fs.drawn.draws;
    veg.pipeline_binds = fs.drawn.binds;
    veg.vertices = fs.drawn.indices;
    veg.triangles = fs.drawn.triangles;
  }
  veg.gpu_bytes = m.field->gpu_bytes();
  veg.overflow = fs.drawn.overflow;
  st.vegetation_planted = fs.planted;
  st.vegetation_resident = fs.resident;
  st.vegetation_pages_staged = fs.pages_staged;
  st.vegetation_tiles_waiting = fs.pools.tiles_waiting;
  st.vegetation_gpu_bytes_per_instance = m.field->gpu_bytes_per_instance();

  SystemFrameStats& crowd = st.systems[3];
  crowd.objects = m.entities.size();
  crowd.gpu_bytes = m.crowd->gpu_bytes();
  crowd.overflow = m.crowd->cull().overflow();
  if (m.mask & kSystemCrowd) {
    const CrowdFrameStats c = m.crowd->read_stats();
    crowd.visible = c.total_entities();
    crowd.frustum_culled = c.cull.frustum_culled();
    crowd.occlusion_culled = c.cull.occluded;
    crowd.vertices = c.total_vertices();
    crowd.triangles = c.total_triangles();
    crowd.draws = m.crowd->cull().slot_count();
    crowd.pipeline_binds = m.crowd->cull().slot_count();
  }

  SystemFrameStats& avatars = st.systems[4];
  if (m.avatars) {
    if (m.mask & kSystemAvatars) m.avatars->finish_frame();
    const AvatarDrawStats& a = m.avatars->stats();
    avatars.objects = a.avatars;
    avatars.gpu_bytes = m.avatars->gpu_bytes();
    if (m.mask & kSystemAvatars) {
      avatars.visible = a.visible;
      avatars.frustum_culled = a.avatars - std::min<std::uint64_t>(a.frustum_passed, a.avatars);
      avatars.occlusion_culled = a.occluded;
      avatars.draws = a.draws + 1;  // + the blob shadows' one instanced draw
      avatars.pipeline_binds = a.pipeline_binds + 1;
      avatars.vertices = a.vertices;
      avatars.triangles = a.triangles;
      st.avatars = {a.descriptor_binds,
                    a.batch_types,
                    a.skeletons_updated,
                    a.palette_bytes_uploaded,
                    {a.avatars_per_lod[0], a.avatars_per_lod[1], a.avatars_per_lod[2], a.avatars_per_lod[3]}};
    }
  }

  SystemFrameStats& ground = st.systems[5];
  ground.objects = m.field->ground().tile_count();
  if (m.mask & kSystemGround) {
    ground.visible = ground.draws = m.field->ground().drawn();
    ground.pipeline_binds = ground.draws > 0 ? 1 : 0;
    ground.triangles = m.field->ground().triangles();
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
