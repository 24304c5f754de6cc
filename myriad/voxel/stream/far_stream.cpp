// Far LOD streaming on the streamer core (core/stream/): a pool of block slots keyed per level by a grid,
// a ring per level, mesh jobs on the shared worker pool, and the main-thread bookkeeping (a job writes
// only its own output; the slot takes it when the job is collected). The job body is mesh_far_block.
#include "myriad/voxel/stream/far_stream.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad::voxel {
namespace {

bool has_geometry(const SectionMesh& m) { return !m.vertices.empty(); }

}  // namespace

void FarUpdate::clear() {
  meshed.clear();
  evicted.clear();
  ready_changed.clear();
  blocks_meshed = blocks_evicted = sections_meshed = 0;
}

struct FarStream::Job : WorkerPool::Job {
  int level = 0;
  glm::ivec2 block{0};
  int slot = -1;
  std::vector<SectionMesh> meshes;  // output, swapped into the slot on collect
};

void FarStreamOptions::validate() const {
  check_streamed_world_size(world_size, "FarStreamOptions::world_size");
  if (levels < 1 || levels > kFarMaxLevel)
    throw Error("far stream levels " + std::to_string(levels) + " is invalid", "FarStreamOptions::levels",
                "use 1.." + std::to_string(kFarMaxLevel));
  if (max_launches_per_update < 1 || max_collects_per_update < 0)
    throw Error("far stream launch or collect budget is invalid", "FarStreamOptions::max_launches_per_update",
                "launch at least 1 job per update; collect 0 (all) or more");
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

namespace {

int far_jobs(const FarStreamOptions& o) {
  const int threads = std::max(1, o.worker_threads);
  return o.max_jobs_in_flight > 0 ? o.max_jobs_in_flight : 4 * threads;
}

}  // namespace

FarStream::FarStream(const FarStreamOptions& options)
    : options_((options.validate(), options)),
      jobs_(worker_pool(options.workers, std::max(1, options.worker_threads)), far_jobs(options)) {
  const glm::ivec3 size = options.world_size;
  source_ = {size, options.generator, options.save_directory};
  for (int l = 1; l <= options.levels; ++l) {
    slot_of_[std::size_t(l - 1)] = GridSlots(far_blocks(size, l));
    rings_[std::size_t(l - 1)] = StreamRing(options.radius[std::size_t(l - 1)]);
  }
}

FarStream::~FarStream() = default;  // jobs_ waits for the jobs in flight

bool FarStream::inside(int level, glm::ivec2 b) const {
  return level >= 1 && level <= options_.levels && slot_of_[std::size_t(level - 1)].inside(b);
}

int FarStream::slot_of(int level, glm::ivec2 b) const {
  return level >= 1 && level <= options_.levels ? slot_of_[std::size_t(level - 1)][b] : -1;
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
  const Slot& slot = slots_[s];
  if (!slot.ready || sy < 0 || sy >= int(slot.meshes.size())) return nullptr;
  return &slot.meshes[std::size_t(sy)];
}

bool FarStream::block_ready(int level, glm::ivec2 b) const {
  const int s = slot_of(level, b);
  return s >= 0 && slots_[s].ready;
}

FarStats FarStream::stats() const {
  FarStats st;
  st.pool_blocks = slots_.size();
  st.jobs_in_flight = jobs_.in_flight();
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
  jobs_.for_each_free([&](const Job& job) { st.resident_bytes += bytes(job.meshes); });  // not those writing
  st.resident_bytes += bytes(spare_);
  return st;
}

void FarStream::fit(std::vector<SectionMesh>& meshes, std::size_t n) {
  while (meshes.size() > n) {
    meshes.back().clear();
    spare_.push_back(std::move(meshes.back()));
    meshes.pop_back();
  }
  while (meshes.size() < n) {
    if (spare_.empty()) {
      meshes.emplace_back();
      continue;
    }
    meshes.push_back(std::move(spare_.back()));
    spare_.pop_back();
  }
}

bool FarStream::idle() const {
  return have_camera_ && jobs_.in_flight() == 0 && !rescan_ && candidate_head_ >= candidates_.size();
}

void FarStream::refresh_column(glm::ivec2 column) {
  for (int l = 1; l <= options_.levels; ++l) {
    const int s = slot_of(l, column >> l);
    if (s < 0) continue;
    slots_[s].dirty = true;
    rescan_ = true;
  }
}

void FarStream::evict(std::int32_t s) {
  Slot& slot = slots_[s];
  if (slot.ready) {
    for (int sy = 0; sy < int(slot.meshes.size()); ++sy)
      if (has_geometry(slot.meshes[std::size_t(sy)])) update_.evicted.push_back({slot.level, slot.block, sy});
    ++update_.blocks_evicted;
  }
  for (SectionMesh& m : slot.meshes) m.clear();
  slot_of_[std::size_t(slot.level - 1)].clear(slot.block);
  if (slot.ready) update_.ready_changed.push_back({slot.level, slot.block});
  slot.used = slot.ready = slot.building = slot.dirty = false;
  slots_.release(s);
}

void FarStream::collect() {
  const std::exception_ptr error =
      jobs_.collect(std::size_t(options_.max_collects_per_update), [this](Job& job) { finish(job); });
  if (error) std::rethrow_exception(error);
}

void FarStream::finish(Job& job) {
  Slot& slot = slots_[job.slot];
  slot.building = false;
  if (job.error) {
    if (!slot.ready) evict(job.slot);  // tried again when needed
    rescan_ = true;
    return;
  }
  const int d = distance(slot.level, slot.block, camera_column_);
  const int reach = options_.radius[std::size_t(slot.level - 1)];
  if (d > reach + 1 || d < inner_edge(slot.level) - 1) {
    evict(job.slot);  // moved away while it was meshed
    return;
  }
  for (int sy = 0; sy < int(job.meshes.size()); ++sy) {
    const bool old_geometry = slot.ready && has_geometry(slot.meshes[std::size_t(sy)]);
    if (old_geometry || has_geometry(job.meshes[std::size_t(sy)]))
      update_.meshed.push_back({slot.level, slot.block, sy});
  }
  std::swap(slot.meshes, job.meshes);
  if (!slot.ready) update_.ready_changed.push_back({slot.level, slot.block});
  slot.ready = true;
  ++update_.blocks_meshed;
  update_.sections_meshed += int(slot.meshes.size());
  if (slot.dirty) rescan_ = true;
}

void FarStream::scan() {
  rescan_ = false;
  for (std::int32_t s = 0; s < std::int32_t(slots_.size()); ++s) {
    const Slot& slot = slots_[s];
    if (!slot.used || slot.building) continue;  // a building slot is checked when its job is collected
    const int d = distance(slot.level, slot.block, camera_column_);
    if (d > options_.radius[std::size_t(slot.level - 1)] + 1 || d < inner_edge(slot.level) - 1) evict(s);
  }
  candidates_.clear();
  candidate_head_ = 0;
  for (int l = 1; l <= options_.levels; ++l) {
    const glm::ivec2 centre = camera_column_ >> l;
    for (const glm::ivec2 offset :
         rings_[std::size_t(l - 1)].band(inner_edge(l), options_.radius[std::size_t(l - 1)])) {
      const glm::ivec2 b = centre + offset;
      if (!needed(l, b, camera_column_)) continue;
      const int s = slot_of(l, b);
      if (s >= 0 && (!slots_[s].dirty || slots_[s].building)) continue;
      candidates_.push_back({chebyshev(offset) * far_block_columns(l), l, b});
    }
  }
  std::sort(candidates_.begin(), candidates_.end(), [](const Candidate& a, const Candidate& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.level != b.level) return a.level < b.level;
    return a.block.y != b.block.y ? a.block.y < b.block.y : a.block.x < b.block.x;
  });
}

void FarStream::launch() {
  const int budget = options_.max_launches_per_update;
  int launched = 0;
  const auto batch = jobs_.batch();  // one wake for the update's launches
  while (candidate_head_ < candidates_.size() && !jobs_.full() && launched < budget) {
    const Candidate c = candidates_[candidate_head_++];
    int s = slot_of(c.level, c.block);
    if (s >= 0) {
      Slot& slot = slots_[s];
      if (slot.building || !slot.dirty) continue;
      slot.dirty = false;
    } else {
      s = slots_.acquire();
      Slot& slot = slots_[s];
      slot.level = c.level;
      slot.block = c.block;
      slot.used = true;
      slot.ready = slot.dirty = false;
      fit(slot.meshes, std::size_t(sections_y(c.level)));
      slot_of_[std::size_t(c.level - 1)].set(c.block, s);
    }
    slots_[s].building = true;
    Job& job = jobs_.next();
    job.level = c.level;
    job.block = c.block;
    job.slot = s;
    fit(job.meshes, std::size_t(sections_y(c.level)));
    // Metres (cells) to the camera: the nearest work of every streamer on the pool goes first.
    jobs_.launch(std::int64_t(c.distance) * kSectionSize, [this](Job& j, WorkerPool::Local& local) {
      mesh_far_block(source_, j.level, j.block, options_.mesh, local.scratch<FarScratch>(), j.meshes);
    });
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

}  // namespace myriad::voxel
