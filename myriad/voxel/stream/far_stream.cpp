// Far LOD streaming: a pool of block slots keyed per level by a slot table, mesh jobs on worker threads of
// its own, and main-thread bookkeeping (a job writes only its own output; the slot takes it on collect).
#include "myriad/voxel/stream/far_stream.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad::voxel {
namespace {

int chebyshev(glm::ivec2 d) { return std::max(std::abs(d.x), std::abs(d.y)); }

bool has_geometry(const SectionMesh& m) { return !m.vertices.empty(); }

}  // namespace

void FarUpdate::clear() {
  meshed.clear();
  evicted.clear();
  blocks_meshed = blocks_evicted = sections_meshed = 0;
}

struct FarStream::Job : WorkerPool::Job {
  int level = 0;
  glm::ivec2 block{0};
  int slot = -1;
  bool active = false;
  std::vector<SectionMesh> meshes;  // output, swapped into the slot on collect
};

void FarStreamOptions::validate() const {
  check_streamed_world_size(world_size, "FarStreamOptions::world_size");
  if (levels < 1 || levels > kFarMaxLevel)
    throw Error("far stream levels " + std::to_string(levels) + " is invalid", "FarStreamOptions::levels",
                "use 1.." + std::to_string(kFarMaxLevel));
  for (int l = 0; l < levels; ++l)
    if (radius[std::size_t(l)] < 1 || radius[std::size_t(l)] > 1000)
      throw Error("far ring radius " + std::to_string(radius[std::size_t(l)]) + " of level " +
                      std::to_string(l + 1) + " is invalid",
                  "FarStreamOptions::radius", "use 1..1000 blocks");
  if (inner_radius < 0 || radius[0] * far_block_columns(1) < inner_radius)
    throw Error("level 1 reaches " + std::to_string(radius[0] * far_block_columns(1)) +
                    " columns, inside the inner radius " + std::to_string(inner_radius),
                "FarStreamOptions::radius", "make radius[0] * 2 at least inner_radius (>= 0)");
}

FarStream::FarStream(const FarStreamOptions& options) : options_(options) {
  options.validate();
  const glm::ivec3 size = options.world_size;
  source_ = {size, options.generator, options.save_directory};
  for (int l = 1; l <= options.levels; ++l) {
    blocks_[std::size_t(l - 1)] = far_blocks(size, l);
    slot_of_[std::size_t(l - 1)].assign(
        std::size_t(blocks_[std::size_t(l - 1)].x) * std::size_t(blocks_[std::size_t(l - 1)].y), -1);
  }
  const int threads = std::max(1, options.worker_threads);
  const int jobs = options.max_jobs_in_flight > 0 ? options.max_jobs_in_flight : 4 * threads;
  for (int j = 0; j < jobs; ++j) {
    jobs_.push_back(std::make_unique<Job>());
    free_jobs_.push_back(jobs - 1 - j);
  }
  workers_ = worker_pool(options.workers, threads);
}

FarStream::~FarStream() {
  // A shared pool may outlive the stream: every job it was given must have run first.
  wait_for_jobs(jobs_, [](const Job& job) { return job.active; });
}

bool FarStream::inside(int level, glm::ivec2 b) const {
  if (level < 1 || level > options_.levels) return false;
  const glm::ivec2 n = blocks_[std::size_t(level - 1)];
  return b.x >= 0 && b.y >= 0 && b.x < n.x && b.y < n.y;
}

std::int32_t& FarStream::slot_ref(int level, glm::ivec2 b) {
  return slot_of_[std::size_t(level - 1)]
                 [std::size_t(b.y) * std::size_t(blocks_[std::size_t(level - 1)].x) + std::size_t(b.x)];
}

int FarStream::slot_of(int level, glm::ivec2 b) const {
  if (!inside(level, b)) return -1;
  return slot_of_[std::size_t(level - 1)]
                 [std::size_t(b.y) * std::size_t(blocks_[std::size_t(level - 1)].x) + std::size_t(b.x)];
}

int FarStream::distance(int level, glm::ivec2 b, glm::ivec2 camera_column) const {
  return chebyshev(b - (camera_column >> level));  // arithmetic shift: floor division for negatives too
}

int FarStream::inner_edge(int level) const {
  if (level <= 1) return 0;
  // Level L - 1 covers a level-L block wholly up to distance (R - 1) / 2; start one block inside that.
  return std::max(0, (options_.radius[std::size_t(level - 2)] - 1) / 2);
}

bool FarStream::needed(int level, glm::ivec2 b, glm::ivec2 camera_column) const {
  if (!inside(level, b)) return false;
  const int d = distance(level, b, camera_column);
  return d <= options_.radius[std::size_t(level - 1)] && d >= inner_edge(level);
}

const SectionMesh* FarStream::mesh(int level, glm::ivec2 b, int sy) const {
  const int s = slot_of(level, b);
  if (s < 0) return nullptr;
  const Slot& slot = slots_[std::size_t(s)];
  if (!slot.ready || sy < 0 || sy >= int(slot.meshes.size())) return nullptr;
  return &slot.meshes[std::size_t(sy)];
}

bool FarStream::block_ready(int level, glm::ivec2 b) const {
  const int s = slot_of(level, b);
  return s >= 0 && slots_[std::size_t(s)].ready;
}

FarStats FarStream::stats() const {
  FarStats st;
  st.pool_blocks = slots_.size();
  st.jobs_in_flight = std::size_t(in_flight_.load());
  auto bytes = [](const std::vector<SectionMesh>& meshes) {
    std::size_t b = 0;
    for (const SectionMesh& m : meshes)
      b += m.vertices.capacity() * sizeof(TerrainVertex) + m.indices.capacity() * sizeof(std::uint32_t) +
           m.atlas.capacity() * sizeof(AtlasRecord);
    return b;
  };
  for (const Slot& slot : slots_) {
    st.resident_blocks += slot.used ? 1 : 0;
    st.resident_bytes += bytes(slot.meshes);
  }
  for (const auto& job : jobs_)
    if (!job->active) st.resident_bytes += bytes(job->meshes);  // a job in flight is writing its own
  return st;
}

bool FarStream::idle() const {
  return have_camera_ && in_flight_.load() == 0 && !rescan_ && candidate_head_ >= candidates_.size();
}

void FarStream::refresh_column(glm::ivec2 column) {
  for (int l = 1; l <= options_.levels; ++l) {
    const int s = slot_of(l, column >> l);
    if (s < 0) continue;
    slots_[std::size_t(s)].dirty = true;
    rescan_ = true;
  }
}

void FarStream::evict(std::size_t s) {
  Slot& slot = slots_[s];
  if (slot.ready) {
    for (int sy = 0; sy < int(slot.meshes.size()); ++sy)
      if (has_geometry(slot.meshes[std::size_t(sy)])) update_.evicted.push_back({slot.level, slot.block, sy});
    ++update_.blocks_evicted;
  }
  for (SectionMesh& m : slot.meshes) m.clear();
  slot_ref(slot.level, slot.block) = -1;
  if (slot.ready) ++ready_version_;
  slot.used = slot.ready = slot.building = slot.dirty = false;
  free_slots_.push_back(std::int32_t(s));
}

void FarStream::collect() {
  std::exception_ptr first_error;
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    Job& job = *jobs_[j];
    if (!job.active || !job.done.load(std::memory_order_acquire)) continue;
    Slot& slot = slots_[std::size_t(job.slot)];
    slot.building = false;
    if (job.error) {
      if (!first_error) first_error = job.error;
      if (!slot.ready) evict(std::size_t(job.slot));  // tried again when needed
      rescan_ = true;
    } else {
      const int d = distance(slot.level, slot.block, camera_column_);
      const int reach = options_.radius[std::size_t(slot.level - 1)];
      if (d > reach + 1 || d < inner_edge(slot.level) - 1) {
        evict(std::size_t(job.slot));  // moved away while it was meshed
      } else {
        for (int sy = 0; sy < int(job.meshes.size()); ++sy) {
          const bool old_geometry = slot.ready && has_geometry(slot.meshes[std::size_t(sy)]);
          if (old_geometry || has_geometry(job.meshes[std::size_t(sy)]))
            update_.meshed.push_back({slot.level, slot.block, sy});
        }
        std::swap(slot.meshes, job.meshes);
        slot.ready = true;
        ++ready_version_;
        ++update_.blocks_meshed;
        update_.sections_meshed += int(slot.meshes.size());
        if (slot.dirty) rescan_ = true;
      }
    }
    job.active = false;
    job.error = nullptr;
    job.done.store(false, std::memory_order_relaxed);
    free_jobs_.push_back(int(j));
    in_flight_.fetch_sub(1, std::memory_order_relaxed);
  }
  if (first_error) std::rethrow_exception(first_error);
}

void FarStream::scan() {
  rescan_ = false;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const Slot& slot = slots_[s];
    if (!slot.used || slot.building) continue;  // a building slot is checked when its job is collected
    const int d = distance(slot.level, slot.block, camera_column_);
    if (d > options_.radius[std::size_t(slot.level - 1)] + 1 || d < inner_edge(slot.level) - 1) evict(s);
  }
  candidates_.clear();
  candidate_head_ = 0;
  for (int l = 1; l <= options_.levels; ++l) {
    const int reach = options_.radius[std::size_t(l - 1)];
    const glm::ivec2 centre = camera_column_ >> l;
    for (int dz = -reach; dz <= reach; ++dz)
      for (int dx = -reach; dx <= reach; ++dx) {
        const glm::ivec2 b = centre + glm::ivec2(dx, dz);
        if (!needed(l, b, camera_column_)) continue;
        const int s = slot_of(l, b);
        if (s >= 0 && (!slots_[std::size_t(s)].dirty || slots_[std::size_t(s)].building)) continue;
        candidates_.push_back({chebyshev({dx, dz}) * far_block_columns(l), l, b});
      }
  }
  std::sort(candidates_.begin(), candidates_.end(), [](const Candidate& a, const Candidate& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.level != b.level) return a.level < b.level;
    return a.block.y != b.block.y ? a.block.y < b.block.y : a.block.x < b.block.x;
  });
}

void FarStream::launch() {
  const int budget = std::max(1, options_.max_launches_per_update);
  int launched = 0;
  while (candidate_head_ < candidates_.size() && !free_jobs_.empty() && launched < budget) {
    const Candidate c = candidates_[candidate_head_++];
    int s = slot_of(c.level, c.block);
    if (s >= 0) {
      Slot& slot = slots_[std::size_t(s)];
      if (slot.building || !slot.dirty) continue;
      slot.dirty = false;
    } else {
      if (free_slots_.empty()) {
        free_slots_.push_back(std::int32_t(slots_.size()));
        slots_.emplace_back();
      }
      s = free_slots_.back();
      free_slots_.pop_back();
      Slot& slot = slots_[std::size_t(s)];
      slot.level = c.level;
      slot.block = c.block;
      slot.used = true;
      if (slot.ready) ++ready_version_;
      slot.ready = slot.dirty = false;
      slot.meshes.resize(std::size_t(sections_y(c.level)));
      slot_ref(c.level, c.block) = s;
    }
    Slot& slot = slots_[std::size_t(s)];
    slot.building = true;
    const int j = free_jobs_.back();
    free_jobs_.pop_back();
    Job& job = *jobs_[std::size_t(j)];
    job.level = c.level;
    job.block = c.block;
    job.slot = s;
    job.active = true;
    job.meshes.resize(std::size_t(sections_y(c.level)));
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    workers_->push(job,
                   [this, &job](WorkerPool::Local& local) { run_job(job, local.scratch<FarScratch>()); });
    ++launched;
  }
}

const FarUpdate& FarStream::update(glm::dvec3 camera) {
  update_.clear();
  const glm::ivec2 cc{int(std::floor(camera.x / kSectionSize)), int(std::floor(camera.z / kSectionSize))};
  if (!have_camera_ || cc != camera_column_) rescan_ = true;
  have_camera_ = true;
  camera_column_ = cc;
  collect();
  if (rescan_) scan();
  launch();
  return update_;
}

void FarStream::run_job(Job& job, FarScratch& scratch) const {
  mesh_far_block(source_, job.level, job.block, options_.mesh, scratch, job.meshes);
}

}  // namespace myriad::voxel
