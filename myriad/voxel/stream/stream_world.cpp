// The streamed voxel world on the streamer core (core/stream/): a pool of section columns keyed by a grid of
// the world's columns, a ring around the camera's column, jobs on the shared worker pool (the bodies here:
// generate / light / mesh one column), and the main-thread bookkeeping that keeps every job's inputs
// unchanged while it runs (readers counted per column; edits and relights wait for them).
// Edits, dropping stale meshes and light, and saving live in stream_edits.cpp.
#include "myriad/voxel/stream/stream_world.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/mesh/padded.hpp"

namespace myriad::voxel {
namespace {

// Ring offsets or pool slots the scan visits per update.
constexpr int kScanPerUpdate = 192;

}  // namespace

void StreamUpdate::clear() {
  meshed.clear();
  evicted.clear();
  plants_only_meshed.clear();
  plants_only_evicted.clear();
  meshed_changed.clear();
  columns_generated = columns_loaded = columns_lit = columns_meshed = 0;
  sections_meshed = columns_evicted = columns_saved = edits_applied = 0;
  sections_remeshed = sections_remeshed_uploaded = 0;
}

// ---------------------------------------------------------------------------------------------------
// Jobs and workers

struct StreamWorld::Job : WorkerPool::Job {
  JobKind kind = JobKind::kNone;
  int slot = -1;
  glm::ivec2 coord{0};
  bool load = false, was_lit = false;
  // A generate job into a slot never used before: the worker allocates (and first touches) the column's
  // cells and light here, off the caller's thread; finish_job moves them into the column.
  bool fresh = false;
  std::vector<std::uint8_t> fresh_materials, fresh_forms;
  std::vector<Light16> fresh_light;
  SectionMask mask;  // mesh: sections to mesh; light: sections whose light changed
  // Light: the sections whose padded block holds a cell whose light changed, per neighbour column
  // ([dz + 1][dx + 1]): exactly those re-mesh, as edit_voxel's sections_reading marks them.
  SectionMask reads_changed[3][3];
  // The 3 x 3 neighbourhood's cells ([dz + 1][dx + 1], null outside the world), resolved at launch.
  const std::uint8_t* materials[3][3] = {};
  const std::uint8_t* forms[3][3] = {};
  const Light16* lights[3][3] = {};
  std::uint8_t* out_materials = nullptr;
  std::uint8_t* out_forms = nullptr;
  Light16* out_light = nullptr;
  std::vector<Light16> light;                 // light job output before the compare
  std::vector<SectionMesh> meshes;            // mesh job output per section (swapped into the column)
  std::vector<SectionVegetation> vegetation;  // with StreamOptions::vegetation: as meshes
};

struct StreamWorld::WorkerScratch {
  ColumnScratch generate;
  ColumnLightScratch light;
  MeshScratch mesh;
  std::unique_ptr<World> window;  // 3 x 3 columns for the mesher
};

void StreamOptions::validate() const {
  check_streamed_world_size(world_size, "StreamOptions::world_size");
  if (radius < 0 || radius > 1000)
    throw Error("stream radius " + std::to_string(radius) + " is invalid", "StreamOptions::radius",
                "use 0..1000 columns");
  if (max_launches_per_update < 1 || max_collects_per_update < 0)
    throw Error("stream launch or collect budget is invalid", "StreamOptions::max_launches_per_update",
                "launch at least 1 job per update; collect 0 (all) or more");
}

namespace {

int stream_threads(const StreamOptions& o) {
  return o.worker_threads > 0 ? o.worker_threads : std::max(1, int(hardware_threads()) - 1);
}
int stream_jobs(const StreamOptions& o) {
  return o.max_jobs_in_flight > 0 ? o.max_jobs_in_flight : 8 * stream_threads(o);
}

}  // namespace

StreamWorld::StreamWorld(const StreamOptions& options)
    : options_((options.validate(), options)),
      ring_(options.radius + 2),
      jobs_(worker_pool(options.workers, stream_threads(options)), stream_jobs(options)) {
  const glm::ivec3 size = options.world_size;
  columns_ = {size.x / kSectionSize, size.z / kSectionSize};
  sections_y_ = size.y / kSectionSize;
  slot_of_ = GridSlots(columns_);
  saved_.assign(slot_of_.cells(), 0);
  queued_.assign(slot_of_.cells(), 0);
  candidates_.resize(2 * ring_.offsets().size());
  finished_.reserve(jobs_.size());
  jobs_.for_each_job([&](Job& job) {
    job.light.resize(std::size_t(sections_y_) * kSectionCells);
    job.meshes.resize(std::size_t(sections_y_));
    if (options.vegetation) job.vegetation.resize(std::size_t(sections_y_));
  });
  if (!options.save_directory.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.save_directory, ec);
    if (ec)
      throw Error("cannot create the save directory: " + ec.message(), options.save_directory.string(),
                  "pass a writable directory");
    for (const auto& entry : std::filesystem::directory_iterator(options.save_directory)) {
      int x = 0, z = 0;
      char tail[8] = {};
      const std::string name = entry.path().filename().string();
      if (std::sscanf(name.c_str(), "column_%d_%d.%7s", &x, &z, tail) == 3 && std::string(tail) == "mvxc" &&
          inside({x, z}) && name == save_path({x, z}).filename().string())
        saved_[slot_of_.index({x, z})] = 1;
    }
  }
}

StreamWorld::~StreamWorld() = default;  // jobs_ waits for the jobs in flight

std::filesystem::path StreamWorld::save_path(glm::ivec2 c) const {
  return column_save_path(options_.save_directory, c);
}

StreamWorld::Column* StreamWorld::column(glm::ivec2 c) {
  const int s = slot_of(c);
  return s < 0 ? nullptr : &slots_[s];
}
const StreamWorld::Column* StreamWorld::column(glm::ivec2 c) const {
  const int s = slot_of(c);
  return s < 0 ? nullptr : &slots_[s];
}

ColumnState StreamWorld::column_state(glm::ivec2 c) const {
  const Column* col = column(c);
  if (!col) return ColumnState::kAbsent;
  if (!col->generated) return ColumnState::kGenerating;
  if (col->meshed) return ColumnState::kMeshed;
  return col->lit ? ColumnState::kLit : ColumnState::kGenerated;
}

bool StreamWorld::column_stable(glm::ivec2 c) const {
  const Column* col = column(c);
  return col && col->job == JobKind::kNone;
}

const SectionMesh* StreamWorld::mesh(glm::ivec3 s) const {
  const Column* col = column({s.x, s.z});
  if (!col || !col->meshed || s.y < 0 || s.y >= sections_y_) return nullptr;
  return &col->meshes[std::size_t(s.y)];
}

const SectionVegetation* StreamWorld::vegetation(glm::ivec3 s) const {
  const Column* col = column({s.x, s.z});
  if (!options_.vegetation || !col || !col->meshed || s.y < 0 || s.y >= sections_y_) return nullptr;
  return &col->vegetation[std::size_t(s.y)];
}

std::span<const std::uint8_t> StreamWorld::column_materials(glm::ivec2 c) const {
  const Column* col = column(c);
  return col && col->generated ? std::span<const std::uint8_t>(col->materials)
                               : std::span<const std::uint8_t>();
}
std::span<const std::uint8_t> StreamWorld::column_forms(glm::ivec2 c) const {
  const Column* col = column(c);
  return col && col->generated ? std::span<const std::uint8_t>(col->forms) : std::span<const std::uint8_t>();
}
std::span<const Light16> StreamWorld::column_light(glm::ivec2 c) const {
  const Column* col = column(c);
  return col && col->lit ? std::span<const Light16>(col->light) : std::span<const Light16>();
}

namespace {

template <class Column>
std::size_t column_bytes(const Column& col) {
  std::size_t bytes =
      col.materials.capacity() + col.forms.capacity() + col.light.capacity() * sizeof(Light16);
  for (const SectionMesh& m : col.meshes)
    bytes += m.vertices.capacity() * sizeof(TerrainVertex) + m.indices.capacity() * sizeof(std::uint32_t) +
             m.atlas.capacity() * sizeof(AtlasRecord);
  for (const SectionVegetation& v : col.vegetation)
    bytes += v.grass.capacity() * sizeof(v.grass[0]) + v.trees.capacity() * sizeof(v.trees[0]);
  return bytes;
}

}  // namespace

StreamStats StreamWorld::stats() const {
  StreamStats s;
  s.pool_columns = slots_.size();
  s.jobs_in_flight = jobs_.in_flight();
  s.resident_columns = resident_columns_;
  s.resident_bytes = resident_bytes_;
  return s;
}

StreamStats StreamWorld::stats_walked() const {
  StreamStats s;
  s.pool_columns = slots_.size();
  s.jobs_in_flight = jobs_.in_flight();
  for (const Column& col : slots_) {
    s.resident_columns += col.used ? 1 : 0;
    s.resident_bytes += column_bytes(col);
  }
  return s;
}

void StreamWorld::recount_bytes(Column& col) {
  // Buffers change capacity only where a finished job's buffers are swapped in (jobs write through
  // pointers into buffers sized before; clear() keeps capacity).
  resident_bytes_ -= col.bytes;
  col.bytes = column_bytes(col);
  resident_bytes_ += col.bytes;
}

bool StreamWorld::idle() const {
  return have_camera_ && jobs_.in_flight() == 0 && edits_.empty() && !rescan_;
}

// ---------------------------------------------------------------------------------------------------
// Scheduling

bool StreamWorld::neighbourhood_generated(glm::ivec2 c) const {
  for (int dz = -1; dz <= 1; ++dz)
    for (int dx = -1; dx <= 1; ++dx) {
      const glm::ivec2 n = c + glm::ivec2(dx, dz);
      if (!inside(n)) continue;
      const Column* col = column(n);
      if (!col || !col->generated) return false;
    }
  return true;
}

bool StreamWorld::neighbours_ready(glm::ivec2 c, bool need_lit) const {
  for (int dz = -1; dz <= 1; ++dz)
    for (int dx = -1; dx <= 1; ++dx) {
      const glm::ivec2 n = c + glm::ivec2(dx, dz);
      if (!inside(n)) continue;
      const Column* col = column(n);
      if (!col || !col->generated || col->pending_edits != 0) return false;
      if (need_lit && (!col->lit || col->light_dirty || col->job == JobKind::kLight)) return false;
    }
  return true;
}

void StreamWorld::collect() {
  finished_.clear();
  const std::exception_ptr error =
      jobs_.collect(std::size_t(options_.max_collects_per_update), [this](Job& job) {
        finished_.push_back(job.coord);
        finish_job(job);
        job.kind = JobKind::kNone;
        touch();
      });
  if (error) std::rethrow_exception(error);
}

void StreamWorld::release_column(std::int32_t s) {
  Column& col = slots_[s];
  col.used = false;
  --resident_columns_;
  slot_of_.clear(col.coord);
  slots_.release(s);
}

void StreamWorld::finish_job(Job& job) {
  Column& col = slots_[job.slot];
  col.job = JobKind::kNone;
  auto release_readers = [&](bool light_too) {
    for (int dz = -1; dz <= 1; ++dz)
      for (int dx = -1; dx <= 1; ++dx)
        if (Column* n = column(job.coord + glm::ivec2(dx, dz))) {
          --n->readers;
          if (light_too) --n->light_readers;
        }
  };
  switch (job.kind) {
    case JobKind::kGenerate:
      if (job.error) {  // give the slot back; the column is tried again when needed
        release_column(job.slot);
        return;
      }
      if (job.fresh) {
        col.materials.swap(job.fresh_materials);
        col.forms.swap(job.fresh_forms);
        col.light.swap(job.fresh_light);
        recount_bytes(col);
      }
      col.generated = true;
      col.edited = false;
      if (job.load)
        ++update_.columns_loaded;
      else
        ++update_.columns_generated;
      return;
    case JobKind::kLight:
      release_readers(false);
      if (job.error) return;
      col.lit = true;
      col.light_dirty = false;
      ++update_.columns_lit;
      if (job.was_lit)
        for (int dz = -1; dz <= 1; ++dz)
          for (int dx = -1; dx <= 1; ++dx) {
            const SectionMask& reads = job.reads_changed[dz + 1][dx + 1];
            if (reads.none()) continue;
            for (int sy = 0; sy < sections_y_; ++sy)
              if (reads.test(std::size_t(sy))) mark_mesh_dirty({col.coord.x + dx, sy, col.coord.y + dz});
          }
      return;
    case JobKind::kMesh:
      release_readers(true);
      if (job.error) return;
      for (int sy = 0; sy < sections_y_; ++sy) {
        if (!job.mask.test(std::size_t(sy))) continue;
        SectionMesh& now = col.meshes[std::size_t(sy)];
        std::swap(now, job.meshes[std::size_t(sy)]);
        if (options_.vegetation) std::swap(col.vegetation[std::size_t(sy)], job.vegetation[std::size_t(sy)]);
        const SectionMesh& before = job.meshes[std::size_t(sy)];
        const bool had = col.meshed && !before.vertices.empty();
        if (had || !now.vertices.empty()) {
          update_.meshed.push_back({col.coord.x, sy, col.coord.y});
        } else if (options_.vegetation && (has_plants(col.vegetation[std::size_t(sy)]) ||
                                           (col.meshed && has_plants(job.vegetation[std::size_t(sy)])))) {
          update_.plants_only_meshed.push_back({col.coord.x, sy, col.coord.y});
        }
        ++update_.sections_meshed;
        if (col.meshed) {
          ++update_.sections_remeshed;
          if (had || !now.vertices.empty()) ++update_.sections_remeshed_uploaded;
        }
      }
      recount_bytes(col);
      if (!col.meshed) update_.meshed_changed.push_back(col.coord);
      col.meshed = true;
      col.mesh_dirty &= ~job.mask;
      ++update_.columns_meshed;
      return;
    case JobKind::kNone:
      return;
  }
}

bool StreamWorld::evict_slot(std::int32_t s) {
  const int r = options_.radius;
  Column& col = slots_[s];
  if (!col.used || col.job != JobKind::kNone) return false;
  bool changed = false;
  const int d = chebyshev(col.coord - camera_column_);
  if (d > r + 1 && col.light_dirty && col.light_readers == 0) {
    unlight(col);
    changed = true;
  }
  if (d > r && col.meshed && col.mesh_dirty.any()) {
    drop_meshes(col);
    changed = true;
  }
  if (d <= r + 3 || col.readers != 0 || col.pending_edits != 0) return changed;
  if (col.edited && !options_.save_directory.empty()) {
    save_column(col);
    ++update_.columns_saved;
  }
  drop_meshes(col);
  col.generated = col.lit = false;
  col.light_dirty = col.edited = false;
  release_column(s);
  ++update_.columns_evicted;
  return true;
}

void StreamWorld::launch_job(JobKind kind, glm::ivec2 c) {
  if (kind == JobKind::kGenerate) {
    bool fresh = false;
    const std::int32_t s = slots_.acquire(&fresh);
    Column& col = slots_[s];
    if (fresh) {  // cells and light are allocated by the job (Job::fresh)
      col.meshes.resize(std::size_t(sections_y_));
      if (options_.vegetation) col.vegetation.resize(std::size_t(sections_y_));
    }
    col.used = true;
    ++resident_columns_;
    col.generated = col.lit = col.meshed = col.light_dirty = col.edited = false;
    col.readers = col.light_readers = col.pending_edits = 0;
    col.mesh_dirty.reset();
    col.coord = c;
    slot_of_.set(c, s);
  }
  Job& job = jobs_.next();
  Column& col = slots_[slot_of(c)];
  job.kind = kind;
  job.slot = slot_of(c);
  job.coord = c;
  job.load = kind == JobKind::kGenerate && saved_[slot_of_.index(c)] != 0;
  job.was_lit = col.lit;
  job.fresh = col.materials.empty();
  job.out_materials = col.materials.data();
  job.out_forms = col.forms.data();
  job.out_light = col.light.data();
  job.mask.reset();
  if (kind == JobKind::kMesh) {
    if (col.meshed)
      job.mask = col.mesh_dirty;
    else
      for (int sy = 0; sy < sections_y_; ++sy) job.mask.set(std::size_t(sy));
  }
  for (int dz = -1; dz <= 1; ++dz)
    for (int dx = -1; dx <= 1; ++dx) {
      Column* n = kind == JobKind::kGenerate ? nullptr : column(c + glm::ivec2(dx, dz));
      job.materials[dz + 1][dx + 1] = n ? n->materials.data() : nullptr;
      job.forms[dz + 1][dx + 1] = n ? n->forms.data() : nullptr;
      job.lights[dz + 1][dx + 1] = n ? n->light.data() : nullptr;
      if (n) {
        ++n->readers;
        if (kind == JobKind::kMesh) ++n->light_readers;
      }
    }
  col.job = kind;
  // Metres (cells) to the camera: the nearest work of every streamer on the pool goes first.
  jobs_.launch(std::int64_t(chebyshev(c - camera_column_)) * kSectionSize,
               [this](Job& j, WorkerPool::Local& local) { run_job(j, local.scratch<WorkerScratch>()); });
}

StreamWorld::JobKind StreamWorld::next_job(glm::ivec2 c) const {
  if (!inside(c)) return JobKind::kNone;
  const int r = options_.radius;
  const int d = chebyshev(c - camera_column_);
  if (d > r + 2) return JobKind::kNone;
  const Column* col = column(c);
  if (!col) return JobKind::kGenerate;
  if (!col->generated || col->job != JobKind::kNone || col->pending_edits != 0) return JobKind::kNone;
  if (d <= r + 1 && (!col->lit || col->light_dirty))
    return col->light_readers == 0 && neighbours_ready(c, false) ? JobKind::kLight : JobKind::kNone;
  if (d <= r && col->lit && (!col->meshed || col->mesh_dirty.any()) && neighbours_ready(c, true))
    return JobKind::kMesh;
  return JobKind::kNone;
}

void StreamWorld::enqueue(glm::ivec2 c) {
  if (!inside(c) || candidate_count_ == candidates_.size()) return;
  const std::size_t k = slot_of_.index(c);
  if (queued_[k] || next_job(c) == JobKind::kNone) return;
  queued_[k] = 1;
  candidates_[(candidate_head_ + candidate_count_) % candidates_.size()] = c;
  ++candidate_count_;
}

void StreamWorld::scan() {
  const std::size_t ring = ring_.offsets().size();
  for (int i = 0; i < kScanPerUpdate; ++i) {
    if (scan_cursor_ == 0) changed_ = found_ = false;  // a pass begins
    if (scan_cursor_ < ring) {
      const glm::ivec2 c = camera_column_ + ring_.offsets()[scan_cursor_];
      if (next_job(c) != JobKind::kNone) {
        found_ = true;
        enqueue(c);
      }
    } else if (scan_cursor_ - ring < slots_.size() && evict_slot(std::int32_t(scan_cursor_ - ring))) {
      found_ = true;
    }
    if (++scan_cursor_ >= ring + slots_.size()) {
      scan_cursor_ = 0;
      if (!changed_ && !found_ && candidate_count_ == 0) {
        rescan_ = false;  // a whole pass found nothing to do
        return;
      }
    }
  }
}

void StreamWorld::launch() {
  const int budget = options_.max_launches_per_update;
  int launched = 0;
  const auto batch = jobs_.batch();  // one wake for the update's launches
  while (candidate_count_ > 0 && !jobs_.full() && launched < budget) {
    const glm::ivec2 c = candidates_[candidate_head_];
    candidate_head_ = (candidate_head_ + 1) % candidates_.size();
    --candidate_count_;
    queued_[slot_of_.index(c)] = 0;
    const JobKind kind = next_job(c);
    if (kind == JobKind::kNone) continue;
    launch_job(kind, c);
    ++launched;
  }
}

const StreamUpdate& StreamWorld::update(glm::dvec3 camera) {
  update_.clear();
  const glm::ivec2 cc{int(std::floor(camera.x / kSectionSize)), int(std::floor(camera.z / kSectionSize))};
  if (!have_camera_ || cc != camera_column_) touch();
  const glm::ivec2 before = camera_column_;
  const bool stepped = have_camera_ && chebyshev(cc - before) == 1;
  have_camera_ = true;
  camera_column_ = cc;
  collect();
  if (!edits_.empty()) apply_edits();
  if (stepped) {
    // Into a neighbouring column: only the outer rings' new edges (radius .. radius + 2) need work now.
    for (const glm::ivec2 off : ring_.band(options_.radius, options_.radius + 2))
      if (chebyshev(cc + off - before) > chebyshev(off)) enqueue(cc + off);
  }
  if (rescan_) {
    // The columns next to a finished job may start now: nearest work without waiting for the scan.
    for (const glm::ivec2 f : finished_)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx) enqueue(f + glm::ivec2(dx, dz));
    scan();
    launch();
  }
  return update_;
}

// ---------------------------------------------------------------------------------------------------
// Work on the worker threads (reads only the pointers resolved at launch)

void StreamWorld::run_job(Job& job, WorkerScratch& t) const {
  const std::size_t cells = std::size_t(sections_y_) * kSectionCells;
  switch (job.kind) {
    case JobKind::kGenerate:
      if (job.fresh) {
        job.fresh_materials.resize(cells);
        job.fresh_forms.resize(cells);
        job.fresh_light.resize(cells);
        job.out_materials = job.fresh_materials.data();
        job.out_forms = job.fresh_forms.data();
        job.out_light = job.fresh_light.data();
      }
      if (job.load)
        read_column_file(save_path(job.coord), options_.world_size, job.coord, options_.generator,
                         {job.out_materials, cells}, {job.out_forms, cells});
      else
        generate_column(options_.world_size, job.coord, options_.generator,
                        {job.out_materials, job.out_forms, kSectionCells}, t.generate);
      return;
    case JobKind::kLight: {
      ColumnNeighbourhood hood;
      hood.world_size = options_.world_size;
      hood.column = job.coord;
      for (int dz = 0; dz < 3; ++dz)
        for (int dx = 0; dx < 3; ++dx) {
          hood.materials[dz][dx] = job.materials[dz][dx];
          hood.forms[dz][dx] = job.forms[dz][dx];
        }
      light_column(hood, job.light, t.light);
      for (auto& row : job.reads_changed)
        for (SectionMask& m : row) m.reset();
      for (int sy = 0; sy < sections_y_; ++sy) {
        const std::size_t first = std::size_t(sy) * kSectionCells;
        if (std::memcmp(job.light.data() + first, job.out_light + first, kSectionCells * sizeof(Light16)) ==
            0)
          continue;
        job.mask.set(std::size_t(sy));
        for (int c = 0; c < kSectionCells; ++c) {
          if (job.light[first + std::size_t(c)] == job.out_light[first + std::size_t(c)]) continue;
          // Cell (x, y, z) of section sy: the sections around it (sections_around_cell, column-relative).
          const int x = c & 15, z = c >> 4 & 15, y = c >> 8;
          const int x0 = x == 0 ? 0 : 1, x1 = x == 15 ? 2 : 1, z0 = z == 0 ? 0 : 1, z1 = z == 15 ? 2 : 1;
          const int y0 = std::max(0, sy - (y == 0 ? 1 : 0)),
                    y1 = std::min(sections_y_ - 1, sy + (y == 15 ? 1 : 0));
          for (int dz = z0; dz <= z1; ++dz)
            for (int dx = x0; dx <= x1; ++dx)
              for (int yy = y0; yy <= y1; ++yy) job.reads_changed[dz][dx].set(std::size_t(yy));
        }
        std::memcpy(job.out_light + first, job.light.data() + first, kSectionCells * sizeof(Light16));
      }
      return;
    }
    case JobKind::kMesh: {
      // A 3 x 3 column window: outside the world is air in full sun, as the mesher's gather reads it.
      if (!t.window)
        t.window = std::make_unique<World>(3 * kSectionSize, options_.world_size.y, 3 * kSectionSize);
      World& w = *t.window;
      auto mats = w.materials();
      auto forms = w.forms();
      auto lights = w.lights();
      for (int dz = 0; dz < 3; ++dz)
        for (int dx = 0; dx < 3; ++dx)
          for (int sy = 0; sy < sections_y_; ++sy) {
            const std::size_t dst = std::size_t(w.section_index({dx, sy, dz})) * kSectionCells;
            const std::size_t src = std::size_t(sy) * kSectionCells;
            if (job.materials[dz][dx]) {
              std::memcpy(&mats[dst], job.materials[dz][dx] + src, kSectionCells);
              std::memcpy(&forms[dst], job.forms[dz][dx] + src, kSectionCells);
              std::memcpy(&lights[dst], job.lights[dz][dx] + src, kSectionCells * sizeof(Light16));
            } else {
              std::fill_n(&mats[dst], kSectionCells, kAir);
              std::fill_n(&forms[dst], kSectionCells, kFormEmpty);
              std::fill_n(&lights[dst], kSectionCells, kOutsideLight);
            }
          }
      // The column's own cells and light, as place_vegetation(StreamWorld&, ...) reads them.
      const VegetationColumn own{job.materials[1][1], job.forms[1][1],      job.lights[1][1], nullptr,
                                 kSectionCells,       options_.world_size.y};
      // The window's cell (0, 0, 0) is the world cell of the column before this one on x and z.
      MeshOptions mesh = options_.mesh;
      mesh.cell_origin = glm::ivec3(job.coord.x - 1, 0, job.coord.y - 1) * kSectionSize;
      for (int sy = 0; sy < sections_y_; ++sy) {
        if (!job.mask.test(std::size_t(sy))) continue;
        mesh_section(w, {1, sy, 1}, mesh, t.mesh, job.meshes[std::size_t(sy)]);
        if (options_.vegetation)
          place_vegetation(own, {job.coord.x, sy, job.coord.y}, options_.vegetation_seed,
                           job.vegetation[std::size_t(sy)]);
      }
      return;
    }
    case JobKind::kNone:
      return;
  }
}

}  // namespace myriad::voxel
