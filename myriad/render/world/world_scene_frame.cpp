// The default scene's frame loop: CPU update (streaming, crowd walk, avatar animation, voxel edits),
// then one command buffer: uploads, every system's culling, one rendering pass with the vegetation
// frame's two-phase occlusion around all opaque geometry.
#include <algorithm>
#include <array>
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
  edit(site.dug ? voxel::VoxelEdit{site.cell, site.material, site.form} : voxel::VoxelEdit{site.cell, 0, 0});
  site.dug = !site.dug;
}

voxel::PickResult WorldScene::Impl::pick(glm::dvec3 origin, glm::dvec3 direction, double max_distance,
                                         double slice_height) const {
  voxel::PickCells cells = voxel::pick_cells(*world);
  cells.slice_height = slice_height;
  return voxel::pick_voxel(cells, origin, direction, max_distance);
}

void WorldScene::Impl::edit(const voxel::VoxelEdit& e) {
  FixedWorldEditor::count(editor->apply(e), edits);
  edit_latency.edit_taken(edits);
}

void WorldScene::update(double dt, const SceneCamera& camera, std::uint32_t width, std::uint32_t height,
                        const FrameOptions& settings) {
  Impl& m = *impl_;
  Stopwatch total;
  const float step = settings.paused ? 0.0f : static_cast<float>(std::max(dt, 0.0));
  m.time += double(step);
  // The one view of this frame: every system reads it.
  m.view = FrameView::of_camera(camera, width, height, m.to_light, static_cast<float>(m.time));
  m.view.lighting.fog_distance = kFogDistance;
  m.view.lighting.shading = settings.shading;
  m.view.limit_distance(settings.draw_distance);
  m.has_view = true;
  Stopwatch clock;
  (void)m.field->update(glm::dvec3(camera.eye));
  m.stats.cpu_streaming_ms = clock.elapsed_ms();
  clock.restart();
  if (step > 0.0f) m.move_crowd(step);
  m.stats.cpu_crowd_ms = clock.elapsed_ms();
  m.avatar_dt += step;
  clock.restart();
  if (m.edit_every > 0 && !settings.paused && (m.stats.frame + 1) % m.edit_every == 0) m.apply_voxel_edit();
  m.stats.cpu_edit_ms = clock.elapsed_ms();
  m.stats.cpu_update_ms = total.elapsed_ms();
}

void WorldScene::settle(const SceneCamera& camera) { impl_->field->settle(camera.eye); }

void WorldScene::record(VkCommandBuffer cmd, const FrameOptions& settings, OffscreenTarget& target) {
  Impl& m = *impl_;
  Stopwatch clock;
  FrameView view = checked_view(m.has_view ? &m.view : nullptr, target, "WorldScene::record");
  view.lighting.shading = settings.shading;  // the prepared frame may be drawn again in the other mode
  CrowdDrawOptions crowd_draw;
  crowd_draw.lod_colors = settings.lod_colors;
  m.crowd->set_draw_options(crowd_draw);

  // Draw order within a phase: opaque systems, the avatars (their blob decals blend over what is drawn
  // before them), the plants.
  std::array<FrameSystem*, kWorldSystemCount + 2> systems{};  // and the plant motion, the edit outline
  std::size_t n = 0;
  const std::uint32_t mask = m.mask;
  if (mask & kSystemGround) systems[n++] = &m.field->ground();
  if (mask & kSystemTerrain) systems[n++] = m.terrain.get();
  if (mask & kSystemVoxelVegetation) systems[n++] = m.voxel_vegetation.get();
  if (mask & kSystemCrowd) systems[n++] = m.crowd.get();
  if (m.avatars && (mask & kSystemAvatars)) systems[n++] = m.avatars.get();
  // After the avatars (their update moves the feet it gathers); its upload splats before any pass.
  systems[n++] = m.motion.get();
  if (mask & kSystemVegetation) systems[n++] = m.field.get();
  if (m.outline->target()) systems[n++] = m.outline.get();

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
  st.voxel_edits = m.edits.edits;
  m.edit_latency.frame_finished(m.edits, [&m] {
    return m.terrain->pending_upload_bytes() > 0 || m.voxel_vegetation->stats().pending_copies > 0;
  });
  st.gpu_ms.clear();
  for (const gpu::GpuTimer::Interval& i : m.timer->resolve()) st.gpu_ms.emplace_back(i.name, i.ms);
  // Every system reports its own figures; system i is the one of mask bit i.
  const std::array<FrameSystem*, kWorldSystemCount> systems{m.terrain.get(), m.voxel_vegetation.get(),
                                                            m.field.get(),   m.crowd.get(),
                                                            m.avatars.get(), &m.field->ground()};
  for (std::uint32_t i = 0; i < kWorldSystemCount; ++i)
    st.systems[i] = systems[i] ? systems[i]->read_frame_stats(((m.mask >> i) & 1u) != 0) : SystemFrameStats{};

  // Figures beyond SystemFrameStats, for world_stats.json.
  const VoxelVegetationStats& vv = m.voxel_vegetation->stats();
  const bool voxel_vegetation_drawn = (m.mask & kSystemVoxelVegetation) != 0;
  st.voxel_vegetation_threads = voxel_vegetation_drawn ? vv.threads : 0;
  st.voxel_vegetation_reused = voxel_vegetation_drawn && vv.reused;
  const VegetationFieldStats& fs = m.field->stats();
  st.vegetation_planted = fs.planted;
  st.vegetation_resident = fs.resident;
  st.vegetation_pages_staged = fs.pages_staged;
  st.vegetation_tiles_waiting = fs.pools.tiles_waiting;
  st.vegetation_gpu_bytes_per_instance = m.field->gpu_bytes_per_instance();
  st.vegetation_cpu_cull = m.field->culling() == CullPath::kCpu && (m.mask & kSystemVegetation)
                               ? m.field->cpu_cull().stats()
                               : vegetation::PoolCullStats{};
  st.avatars = {};
  if (m.avatars && (m.mask & kSystemAvatars)) {
    const AvatarDrawStats& a = m.avatars->stats();
    st.avatars = {a.descriptor_binds,
                  a.batch_types,
                  a.skeletons_updated,
                  a.palette_bytes_uploaded,
                  {a.avatars_per_lod[0], a.avatars_per_lod[1], a.avatars_per_lod[2], a.avatars_per_lod[3]}};
  }
}

std::array<SystemCulling, kWorldSystemCount> WorldScene::culling() const {
  // Only the plant field has a CPU path; the others say what they run instead of claiming the CPU's.
  const bool cpu = impl_->field->culling() == CullPath::kCpu;
  const bool per_leaf = impl_->options.vegetation_cpu_lod == VegetationCpuLod::kPerLeaf;
  const char* vegetation =
      !cpu       ? "compute culling with hashed LOD and two-phase Hi-Z"
      : per_leaf ? "quadtrees on the CPU, LOD per visible leaf from its centre, draws of at most 1023"
                 : "quadtrees on the CPU, LOD per instance (the GPU's rule), draws of at most 1023";
  return {{
      {CullPath::kGpu, "no CPU path: pages culled by compute, multi-draw indirect"},  // terrain
      {CullPath::kGpu, "no CPU path: compute culling and wind per instance"},         // voxel_vegetation
      {cpu ? CullPath::kCpu : CullPath::kGpu, vegetation},                            // vegetation
      {CullPath::kGpu, "no CPU path: compute culling and LOD per entity"},            // crowd
      {CullPath::kGpu,
       "no CPU-only path: frustum on the CPU, occlusion and draw list on the GPU"},  // avatars
      {CullPath::kCpu, "always on the CPU: tiles picked by frustum and distance"},   // ground
  }};
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
  if (impl_->edits.edits > 0) lines.push_back(edit_stats_line(impl_->edits));
  std::snprintf(buffer, sizeof buffer, "cpu ms: update %.2f (stream %.2f) record %.2f (avatars %.2f)",
                st.cpu_update_ms, st.cpu_streaming_ms, st.cpu_record_ms, st.cpu_avatars_ms);
  lines.emplace_back(buffer);
  return lines;
}

}  // namespace myriad::render
