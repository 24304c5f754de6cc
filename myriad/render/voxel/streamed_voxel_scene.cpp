#include "myriad/render/voxel/streamed_voxel_scene.hpp"

#include "myriad/voxel/data/material.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

namespace myriad::render {
namespace {

constexpr glm::vec3 kSun(0.35f, 0.85f, 0.25f);
constexpr glm::vec4 kSky(0.62f, 0.76f, 0.92f, 1.0f);

// The slots of a window must outnumber the columns two resident ones can be apart (StreamWorld evicts
// beyond radius + 3), rounded up to whole coarse chunks of 4.
int window_for_radius(int radius) {
  const int span = 2 * (radius + 3) + 1;
  return (span + 3) / 4 * 4;
}

}  // namespace

std::vector<std::pair<std::string, SceneCamera>> streamed_voxel_presets(glm::ivec3 size) {
  const glm::vec3 c(0.5f * float(size.x), 0.0f, 0.5f * float(size.z));
  const auto h = float(size.y);
  const float fov = glm::radians(60.0f);
  return {
      {"horizon", SceneCamera::look_at(c + glm::vec3(0.0f, 0.95f * h, 0.0f),
                                       c + glm::vec3(160.0f, 0.62f * h, 200.0f), fov)},
      {"overview", SceneCamera::look_at(c + glm::vec3(-60.0f, 1.6f * h, -60.0f),
                                        c + glm::vec3(60.0f, 0.35f * h, 60.0f), fov)},
      {"ground",
       SceneCamera::look_at(c + glm::vec3(0.0f, 0.6f * h, 0.0f), c + glm::vec3(40.0f, 0.5f * h, 30.0f), fov)},
  };
}

void StreamedVoxelSceneOptions::validate() const {
  voxel::check_streamed_world_size(world_size, "StreamedVoxelSceneOptions::world_size");
  if (radius < 0 || radius > 1000)
    throw Error("stream radius " + std::to_string(radius) + " is invalid",
                "StreamedVoxelSceneOptions::radius", "use 0..1000 columns");
  if (far_levels < 0 || far_levels > voxel::kFarMaxLevel)
    throw Error("far levels " + std::to_string(far_levels) + " is invalid",
                "StreamedVoxelSceneOptions::far_levels", "use 0.." + std::to_string(voxel::kFarMaxLevel));
  if (far_radius < 1 || far_radius > 1000)
    throw Error("far radius " + std::to_string(far_radius) + " is invalid",
                "StreamedVoxelSceneOptions::far_radius", "use 1..1000 blocks");
  if (vegetation_sections_per_frame < 0)
    throw Error("vegetation sections per frame must not be negative",
                "StreamedVoxelSceneOptions::vegetation_sections_per_frame");
  pacing.validate("StreamedVoxelSceneOptions::pacing.");
  if (collects_per_frame < 0)
    throw Error("collects per frame " + std::to_string(collects_per_frame) + " is negative",
                "StreamedVoxelSceneOptions::collects_per_frame", "use 0 (all) or more");
}

StreamedVoxelScene::StreamedVoxelScene(gpu::Context& ctx, const StreamedVoxelSceneOptions& options)
    : ctx_(ctx),
      options_(options),
      // Validated before anything is made.
      terrain_share_((options.validate(), ctx.uploads().share("voxel terrain", options.upload_budget,
                                                              gpu::UploadPolicy::kAllOrNone))),
      frame_(ctx),
      outline_(ctx, OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat),
      upload_pacer_(options.pacing),
      vegetation_pacer_(options.pacing) {
  // Level 1 must reach past the fine ring (it is the fallback while fine columns stream in).
  options_.far_radius = std::max(options_.far_radius, options_.radius / 2 + 2);
  voxel::StreamOptions so;
  so.world_size = options.world_size;
  so.generator = voxel::GeneratorParams{options.seed};
  so.mesh.mode = options.mesh_mode;
  so.radius = options.radius;
  so.worker_threads = options.worker_threads;
  so.save_directory = options.save_directory;
  so.vegetation = options.vegetation;  // placed on the workers with the meshes
  so.vegetation_seed = options.seed;
  so.max_collects_per_update = options.collects_per_frame;
  // One worker pool for the fine columns and the far levels: the fine stream's threads and one more,
  // as many as the two used to run on their own.
  const int fine_threads =
      options.worker_threads > 0 ? options.worker_threads : std::max(1, int(hardware_threads()) - 1);
  so.workers = std::make_shared<WorkerPool>(fine_threads + (options.far_levels > 0 ? 1 : 0));
  stream_ = std::make_unique<voxel::StreamWorld>(so);
  StreamTerrainOptions to;
  to.window = window_for_radius(options.radius);
  to.sections_y = options.world_size.y / voxel::kSectionSize;
  to.arenas = stream_arena_options();
  to.tiles = options.tiles;
  to.workers = so.workers;
  terrain_ =
      std::make_unique<StreamTerrain>(ctx, to, OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat);
  terrain_->renderer().use_upload_share(terrain_share_);
  terrain_->renderer().set_floor({0.0f, 0.0f, float(options.world_size.x), float(options.world_size.z)},
                                 voxel::materials()[voxel::kStone].tile_bottom);
  if (options.vegetation) {
    VoxelVegetationOptions vo;
    vo.max_distance = view_distance();  // beyond, the far levels draw the ground without plants
    vegetation_ = std::make_unique<VoxelVegetationRenderer>(
        ctx, glm::ivec3(to.window, to.sections_y, to.window), OffscreenTarget::kColorFormat,
        OffscreenTarget::kDepthFormat, vo);
    vegetation_owner_.assign(std::size_t(to.window) * std::size_t(to.window) * std::size_t(to.sections_y),
                             glm::ivec3(-1));
  }
  if (options.far_levels > 0) {
    voxel::FarStreamOptions fo;
    fo.world_size = options.world_size;
    fo.generator = so.generator;
    fo.mesh = so.mesh;
    fo.levels = options.far_levels;
    fo.inner_radius = options.radius;
    fo.radius.fill(options_.far_radius);
    fo.save_directory = options.save_directory;
    fo.workers = so.workers;
    fo.max_collects_per_update = options.collects_per_frame;
    far_ = std::make_unique<voxel::FarStream>(fo);
    for (int level = 1; level <= options.far_levels; ++level) {
      StreamTerrainOptions lo;
      lo.window = (2 * (options_.far_radius + 1) + 1 + 3) / 4 * 4;  // FarStream evicts one block beyond
      lo.sections_y = far_->sections_y(level);
      lo.unit_cells = voxel::kSectionSize << level;
      lo.cell_scale = float(1 << level);
      lo.arenas = stream_arena_options();
      lo.tiles = options.tiles;
      lo.workers = so.workers;
      far_terrain_.push_back(std::make_unique<StreamTerrain>(ctx, lo, OffscreenTarget::kColorFormat,
                                                             OffscreenTarget::kDepthFormat));
      far_terrain_.back()->renderer().use_upload_share(terrain_share_);
    }
  }
  removal_pacers_.assign(1 + far_terrain_.size(), Pacer(options.pacing));
  far_evicted_.assign(1 + far_terrain_.size(), 0);
  // Fine columns as far as a window holds them, far blocks one beyond each ring; answers kept wide enough
  // for the outermost level's ring with its parents and children.
  voxel::LevelChoiceOptions lo;
  lo.levels = options_.far_levels;
  lo.fine_reach = options_.radius + 3;
  lo.far_reach = options_.far_radius + 1;
  lo.kept_reach = std::max(options_.radius + 4, lo.levels > 0 ? (options_.far_radius + 3) << lo.levels : 0);
  levels_.emplace(lo);
}

StreamedVoxelScene::~StreamedVoxelScene() { ctx_.uploads().release(terrain_share_); }

float StreamedVoxelScene::reach() const {
  // The outermost level's ring, less the block being crossed.
  const int level = options_.far_levels;
  const int blocks = level > 0 ? options_.far_radius - 1 : options_.radius - 1;
  return float(blocks * (voxel::kSectionSize << level));
}

float StreamedVoxelScene::view_distance() const { return float((options_.radius - 1) * voxel::kSectionSize); }

void StreamedVoxelScene::update(double dt, const SceneCamera& camera, std::uint32_t width,
                                std::uint32_t height, const FrameOptions& settings) {
  if (!settings.paused) time_ += std::max(dt, 0.0);
  view_ = FrameView::of_camera(camera, width, height, kSun, static_cast<float>(time_));
  view_.lighting.fog_distance = reach();  // the far levels fade into the horizon where the stream ends
  view_.lighting.shading = settings.shading;
  view_.limit_distance(settings.draw_distance);
  has_view_ = true;
  Stopwatch clock;
  const voxel::StreamUpdate& u = stream_->update(glm::dvec3(camera.eye));
  stats_.cpu_stream_ms = clock.elapsed_ms();
  clock.restart();
  Stopwatch phase;
  for (const glm::ivec3& s : u.evicted) terrain_->evicted(s);
  for (const glm::ivec3& s : u.meshed) terrain_->changed(s);
  if (vegetation_) {
    // Cleared in the frame they go: paced over the next frames (measured in docs/BENCHMARKS.md) the
    // clears raised the median frame as much as they lowered the eviction frames.
    static const voxel::SectionVegetation kNone;
    for (const std::vector<glm::ivec3>* gone : {&u.evicted, &u.plants_only_evicted})
      for (const glm::ivec3& s : *gone) {
        const int slot = terrain_->slot_of(s);
        if (vegetation_owner_[std::size_t(slot)] != s) continue;
        vegetation_->set_section(slot, kNone);
        vegetation_owner_[std::size_t(slot)] = glm::ivec3(-1);
      }
    vegetation_queue_.insert(vegetation_queue_.end(), u.meshed.begin(), u.meshed.end());
    vegetation_queue_.insert(vegetation_queue_.end(), u.plants_only_meshed.begin(),
                             u.plants_only_meshed.end());
    place_vegetation(u.meshed.size() + u.plants_only_meshed.size());
  }
  stats_.cpu_vegetation_ms = phase.elapsed_ms();
  phase.restart();
  stats_.sections_meshed = std::uint32_t(u.meshed.size());
  edits_.sections_remeshed += std::uint64_t(u.sections_remeshed);
  edits_.sections_uploaded += std::uint64_t(u.sections_remeshed_uploaded);
  stats_.sections_evicted = std::uint32_t(u.evicted.size());
  stats_.columns_generated = std::uint32_t(u.columns_generated + u.columns_loaded);
  stats_.columns_lit = std::uint32_t(u.columns_lit);
  stats_.far_sections_meshed = 0;
  const voxel::FarUpdate* far_update = nullptr;
  if (far_) {
    const voxel::FarUpdate& fu = far_->update(glm::dvec3(camera.eye));
    far_update = &fu;
    std::fill(far_evicted_.begin(), far_evicted_.end(), 0);
    for (const voxel::FarSection& f : fu.evicted) {
      far_terrain(f.level).evicted({f.block.x, f.sy, f.block.y});
      ++far_evicted_[std::size_t(f.level)];
    }
    for (const voxel::FarSection& f : fu.meshed) far_terrain(f.level).changed({f.block.x, f.sy, f.block.y});
    stats_.far_sections_meshed = std::uint32_t(fu.meshed.size());
  }
  stats_.cpu_far_ms = phase.elapsed_ms();
  phase.restart();
  // The fine sections first, then the far levels nearest first, all within one budget and one paced
  // share of what waits. Evicted pages (hidden already) are removed under their own pacing, per window.
  std::size_t waiting = terrain_->pending();
  for (const auto& far : far_terrain_) waiting += far->pending();
  const std::size_t far_meshed = far_update ? far_update->meshed.size() : 0;
  const auto share = std::uint32_t(upload_pacer_.share(waiting, u.meshed.size() + far_meshed));
  const auto removals = [this](const StreamTerrain& t, int level, std::size_t evicted) {
    return std::uint32_t(removal_pacers_[std::size_t(level)].share(t.removals_pending(), evicted));
  };
  const voxel::StreamWorld& stream = *stream_;
  const std::uint64_t budget = ctx_.uploads().budget(terrain_share_);
  stats_.uploads = terrain_->apply([&stream](glm::ivec3 s) { return stream.mesh(s); }, budget, 0, share,
                                   removals(*terrain_, 0, u.evicted.size()));
  for (int level = 1; level <= far_levels(); ++level) {
    const voxel::FarStream& far = *far_;
    StreamTerrain& window = far_terrain(level);
    const StreamTerrainStats& f = window.apply(
        [&far, level](glm::ivec3 s) {
          return far.mesh(level, {s.x, s.z}, s.y);
        },
        budget, stats_.uploads.uploaded_bytes, share - std::min(share, stats_.uploads.uploaded_sections),
        removals(window, level, far_update ? far_evicted_[std::size_t(level)] : 0));
    stats_.uploads.uploaded_sections += f.uploaded_sections;
    stats_.uploads.removed_sections += f.removed_sections;
    stats_.uploads.uploaded_bytes += f.uploaded_bytes;
    stats_.uploads.over_budget |= f.over_budget;
    stats_.uploads.pending += f.pending;
  }
  stats_.cpu_apply_ms = phase.elapsed_ms();
  phase.restart();
  const glm::ivec2 at(int(std::floor(camera.eye.x / float(voxel::kSectionSize))),
                      int(std::floor(camera.eye.z / float(voxel::kSectionSize))));
  // The level choice is made again only where readiness changed or the camera brought units within reach.
  mark_level_changes(u, far_update);
  stats_.level_blocks_chosen = levels_->choose(at, *this);
  stats_.levels_chosen = stats_.level_blocks_chosen > 0;
  stats_.shown_columns = levels_->shown_columns();
  stats_.shown_far_blocks = levels_->shown_far_blocks();
  stats_.cpu_levels_ms = phase.elapsed_ms();
  stats_.cpu_upload_ms = clock.elapsed_ms();
  stats_.stream = stream_->stats();
  count_holes(view_);
}

// The stream placed each section's plants with its mesh (on a worker); here they are copied into the
// vegetation renderer's slot. A column no longer meshed (evicted, or re-meshing after an edit) is dropped:
// it is listed again when meshed.
void StreamedVoxelScene::place_vegetation(std::size_t arrived) {
  const auto share =
      std::uint32_t(std::min(vegetation_pacer_.share(vegetation_queue_.size(), arrived),
                             std::size_t(std::max(0, options_.vegetation_sections_per_frame))));
  std::uint32_t placed = 0;
  std::size_t keep = 0;
  for (std::size_t i = 0; i < vegetation_queue_.size(); ++i) {
    const glm::ivec3 s = vegetation_queue_[i];
    const voxel::SectionVegetation* plants = stream_->vegetation(s);
    if (!plants) continue;
    if (placed >= share) {
      vegetation_queue_[keep++] = s;
      continue;
    }
    const int slot = terrain_->slot_of(s);
    const glm::ivec3 owner = vegetation_owner_[std::size_t(slot)];
    if (!plants->grass.empty() || !plants->trees.empty() || owner != glm::ivec3(-1)) {
      vegetation_->set_section(slot, *plants);
      vegetation_owner_[std::size_t(slot)] = s;
    }
    ++placed;
  }
  vegetation_queue_.resize(keep);
  stats_.vegetation_placed = placed;
  stats_.vegetation_pending = std::uint32_t(keep);
}

void StreamedVoxelScene::mark_level_changes(const voxel::StreamUpdate& fine, const voxel::FarUpdate* far) {
  voxel::LevelChoice& levels = *levels_;
  for (const glm::ivec2 c : fine.meshed_changed) levels.changed(0, c);
  for (const glm::ivec3& s : fine.meshed) levels.changed(0, {s.x, s.z});   // queued: not current
  for (const glm::ivec3& s : fine.evicted) levels.changed(0, {s.x, s.z});  // no longer queued
  for (const glm::ivec2 c : terrain_->taken_units()) levels.changed(0, c);
  if (!far) return;
  for (const voxel::FarBlockId& b : far->ready_changed) levels.changed(b.level, b.block);
  for (const voxel::FarSection& f : far->meshed) levels.changed(f.level, f.block);
  for (const voxel::FarSection& f : far->evicted) levels.changed(f.level, f.block);
  for (int level = 1; level <= far_levels(); ++level)
    for (const glm::ivec2 b : far_terrain(level).taken_units()) levels.changed(level, b);
}

bool StreamedVoxelScene::ready(int level, glm::ivec2 unit) const {
  if (level == 0) {
    const glm::ivec2 n = stream_->columns();
    if (unit.x < 0 || unit.y < 0 || unit.x >= n.x || unit.y >= n.y) return true;  // nothing to draw there
    return stream_->column_state(unit) == voxel::ColumnState::kMeshed && terrain_->unit_current(unit);
  }
  const glm::ivec2 n = voxel::far_blocks(options_.world_size, level);
  if (unit.x < 0 || unit.y < 0 || unit.x >= n.x || unit.y >= n.y) return true;
  return far_->block_ready(level, unit) && far_terrain_[std::size_t(level - 1)]->unit_current(unit);
}

std::uint32_t StreamedVoxelScene::level_choice_errors() const {
  // A fresh choice over the same readiness, whose hiding is compared instead of set.
  struct Compare : voxel::LevelSource {
    const StreamedVoxelScene& scene;
    std::uint32_t errors = 0;
    explicit Compare(const StreamedVoxelScene& s) : scene(s) {}
    bool ready(int level, glm::ivec2 unit) const override { return scene.ready(level, unit); }
    void set_hidden(int level, glm::ivec2 unit, bool hidden) override {
      const StreamTerrain& window =
          level == 0 ? *scene.terrain_ : *scene.far_terrain_[std::size_t(level - 1)];
      errors += window.unit_hidden_is(unit, hidden) ? 0u : 1u;
    }
  } compare(*this);
  if (!levels_ || !has_view_) return 0;
  voxel::LevelChoice fresh(levels_->options());
  const glm::ivec2 at(int(std::floor(view_.eye.x / float(voxel::kSectionSize))),
                      int(std::floor(view_.eye.z / float(voxel::kSectionSize))));
  fresh.choose(at, compare);
  return compare.errors;
}

void StreamedVoxelScene::set_hidden(int level, glm::ivec2 unit, bool hidden) {
  (level == 0 ? *terrain_ : far_terrain(level)).set_unit_hidden(unit, hidden);
}

void StreamedVoxelScene::count_holes(const FrameView& view) {
  // A column within the view distance whose box meets the frustum and whose slot does not show its
  // current mesh: a place where the world is missing in this frame's image.
  const Frustum& frustum = view.frustum;
  const glm::vec3 eye = view.eye;
  const int reach = options_.radius - 1;
  const glm::ivec2 columns = stream_->columns();
  const glm::ivec2 at(int(std::floor(eye.x / float(voxel::kSectionSize))),
                      int(std::floor(eye.z / float(voxel::kSectionSize))));
  const auto size = float(voxel::kSectionSize);
  const auto height = float(options_.world_size.y);
  std::uint32_t holes = 0;
  for (int dz = -reach; dz <= reach; ++dz) {
    for (int dx = -reach; dx <= reach; ++dx) {
      const glm::ivec2 c = at + glm::ivec2(dx, dz);
      if (c.x < 0 || c.y < 0 || c.x >= columns.x || c.y >= columns.y) continue;
      const Aabb box{glm::vec3(float(c.x) * size, 0.0f, float(c.y) * size),
                     glm::vec3(float(c.x + 1) * size, height, float(c.y + 1) * size)};
      if (!frustum.intersects(box)) continue;
      if (!levels_->drawn(c, *this)) ++holes;
    }
  }
  stats_.hole_columns = holes;
}

void StreamedVoxelScene::record(VkCommandBuffer cmd, const FrameOptions& settings, OffscreenTarget& target) {
  Stopwatch clock;
  const FrameView& view = checked_view(has_view_ ? &view_ : nullptr, target, "StreamedVoxelScene::record");
  frame_.set_occlusion(settings.occlusion);
  std::vector<FrameSystem*>& systems = systems_;
  systems.assign(1, &terrain_->renderer());
  for (const auto& far : far_terrain_) systems.push_back(&far->renderer());
  if (vegetation_) systems.push_back(vegetation_.get());
  if (outline_.target()) systems.push_back(&outline_);
  frame_.record(cmd, view, systems, target, kSky, nullptr, 0.0f);
  stats_.cpu_record_ms = clock.elapsed_ms();
  recorded_ = true;
}

void StreamedVoxelScene::finish_frame() {
  if (!recorded_) return;
  recorded_ = false;
  ++stats_.frame;
  stats_.terrain = terrain_->renderer().frame_stats();
  for (const auto& far : far_terrain_) {
    const TerrainFrameStats& f = far->renderer().frame_stats();
    stats_.terrain.pages += f.pages;
    stats_.terrain.arenas += f.arenas;
    stats_.terrain.arenas_drawn += f.arenas_drawn;
    stats_.terrain.uploaded_bytes += f.uploaded_bytes;
  }
  edit_latency_.frame_finished(edits_, [this] {
    return stream_->edits_pending() || terrain_->pending() > 0 ||
           terrain_->renderer().pending_upload_bytes() > 0;
  });
}

voxel::PickResult StreamedVoxelScene::pick(glm::dvec3 origin, glm::dvec3 direction, double max_distance,
                                           double slice_height) const {
  voxel::PickCells cells = voxel::pick_cells(*stream_);
  cells.slice_height = slice_height;
  return voxel::pick_voxel(cells, origin, direction, max_distance);
}

void StreamedVoxelScene::edit(const voxel::VoxelEdit& e) {
  const Stopwatch clock;
  stream_->edit(e.cell, e.material, e.form);
  ++edits_.edits;
  edits_.last_cpu_ms = clock.elapsed_ms();
  edit_latency_.edit_taken(edits_);
}

bool StreamedVoxelScene::settled() const {
  if (!stream_->idle() || terrain_->pending() > 0 || terrain_->removals_pending() > 0 ||
      terrain_->renderer().pending_upload_bytes() > 0)
    return false;
  if (far_ && !far_->idle()) return false;
  if (!vegetation_queue_.empty() || (vegetation_ && vegetation_->stats().pending_copies > 0)) return false;
  for (const auto& far : far_terrain_)
    if (far->pending() > 0 || far->removals_pending() > 0 || far->renderer().pending_upload_bytes() > 0)
      return false;
  return true;
}

std::vector<std::string> StreamedVoxelScene::stats_lines() const {
  std::vector<std::string> lines;
  char b[160];
  std::snprintf(b, sizeof b, "streamed world %d x %d x %d, radius %d columns", options_.world_size.x,
                options_.world_size.y, options_.world_size.z, options_.radius);
  lines.emplace_back(b);
  std::snprintf(b, sizeof b, "columns resident %zu  jobs %zu  resident %.1f MB",
                stats_.stream.resident_columns, stats_.stream.jobs_in_flight,
                double(stats_.stream.resident_bytes) / 1e6);
  lines.emplace_back(b);
  std::snprintf(b, sizeof b, "sections meshed %u evicted %u  uploaded %u (%.2f MB) pending %u  holes %u",
                stats_.sections_meshed, stats_.sections_evicted, stats_.uploads.uploaded_sections,
                double(stats_.uploads.uploaded_bytes) / 1e6, stats_.uploads.pending, stats_.hole_columns);
  lines.emplace_back(b);
  std::snprintf(b, sizeof b, "drawn: %u fine columns, %u far blocks (%d levels)", stats_.shown_columns,
                stats_.shown_far_blocks, far_levels());
  lines.emplace_back(b);
  if (edits_.edits > 0) lines.push_back(edit_stats_line(edits_));
  std::snprintf(b, sizeof b, "pages %u arenas %u drawn %u  cpu stream %.2f upload %.2f record %.2f ms",
                stats_.terrain.pages, stats_.terrain.arenas, stats_.terrain.arenas_drawn,
                stats_.cpu_stream_ms, stats_.cpu_upload_ms, stats_.cpu_record_ms);
  lines.emplace_back(b);
  return lines;
}

}  // namespace myriad::render
