// Page-granular GPU pools. A change log entry names a page once per frame however often it changed;
// the pending level per page keeps a page queued once until it is staged (its bytes are read from the
// CPU pool when staged, so the newest content goes).
#include "myriad/render/vegetation/vegetation_pools.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"

namespace myriad::render {
namespace {

using vegetation::kPageSlots;
using vegetation::PlantPage;
using vegetation::PlantRecord;
using vegetation::TileKey;

constexpr VkDeviceSize kPageRecordBytes = VkDeviceSize(kPageSlots) * sizeof(PlantRecord);
constexpr VkDeviceSize kPageVisibilityBytes = VkDeviceSize(kPageSlots) * sizeof(std::uint32_t);
constexpr std::uint32_t kMinPages = 16;
constexpr std::uint8_t kTable = 1, kRecords = 2;

}  // namespace

VegetationPools::VegetationPools(gpu::Context& ctx, const VegetationCull& cull,
                                 const VegetationRenderer& renderer, VegetationPoolsOptions options)
    : ctx_(ctx),
      cull_(cull),
      renderer_(renderer),
      options_(options),
      share_((options.validate(), ctx.uploads().share("vegetation field", options.upload_budget))) {}

void VegetationPoolsOptions::validate() const {
  if (upload_budget < kPageRecordBytes + sizeof(PlantPage))
    throw Error("the vegetation upload budget is below one page (" +
                    std::to_string(kPageRecordBytes + sizeof(PlantPage)) + " bytes)",
                "VegetationPoolsOptions::upload_budget");
  if (!(band >= 0.0f && band < 1.0f) || !(fade >= 0.0f && fade < 1.0f))
    throw Error("LOD and fade bands must be in [0, 1)", "VegetationPoolsOptions::band/fade");
}

VegetationPools::~VegetationPools() {
  // Nothing pending (growth copies, staged pages, cleared words) may touch the pools once they are gone.
  gpu::UploadQueue& uploads = ctx_.uploads();
  auto drop = [&uploads](const VegetationGpuType& g) {
    for (const gpu::Buffer* b : {&g.records, &g.pages, &g.params, &g.visibility}) uploads.drop(b->handle());
  };
  for (const Pool& p : pools_)
    if (p.gpu) drop(*p.gpu);
  for (const VegetationGpuType& g : retired_) drop(g);
  uploads.release(share_);
}

const VegetationGpuType* VegetationPools::pool(std::size_t type) const {
  return type < pools_.size() && pools_[type].gpu ? &*pools_[type].gpu : nullptr;
}

bool VegetationPools::live(TileKey tile) const {
  const auto at = std::lower_bound(live_.begin(), live_.end(), tile,
                                   [](const LiveTile& t, vegetation::TileKey k) { return t.key < k; });
  return at != live_.end() && at->key == tile;
}

bool VegetationPools::settled() const { return record_head_ == record_queue_.size(); }

std::uint64_t VegetationPools::gpu_bytes() const {
  std::uint64_t bytes = 0;
  for (const Pool& p : pools_)
    if (p.gpu) bytes += p.gpu->bytes();
  return bytes;
}

std::uint64_t VegetationPools::gpu_bytes_ahead() const {
  std::uint64_t bytes = 0;
  for (const Pool& p : pools_)
    if (const VegetationPoolBuffers* b = p.next.peek())
      bytes += b->records.size() + b->pages.size() + b->lists.size() + b->visibility.size();
  return bytes;
}

void VegetationPools::stage_params(const VegetationGpuType& gpu) {
  const shader::VegCullParams params = cull_.params(gpu);
  gpu::UploadQueue& uploads = ctx_.uploads();
  const gpu::StagingRing::Span span = uploads.reserve(share_, sizeof(params));
  std::memcpy(span.data, &params, sizeof(params));
  uploads.copy_from(span, 0, gpu.params.handle(), 0, sizeof(params));
  frame_.staged_bytes += sizeof(params);
}

void VegetationPools::resize_pool(std::size_t type, const vegetation::RuntimeWorld::Type& cpu,
                                  std::uint32_t page_capacity, VegetationPoolBuffers* made) {
  Pool& pool = pools_[type];
  VegetationGpuType resized =
      cull_.make_pool(cpu, renderer_.lod_meshes(cpu.prefab), options_.band, options_.fade, page_capacity,
                      renderer_.lod_bounds(cpu.prefab), pool.gpu ? &*pool.gpu : nullptr, made);
  VkDeviceSize kept_visibility = 0;
  if (pool.gpu) {
    // What the old pool holds stays valid (pages not yet staged are still queued and not live); pages
    // past the new size are free.
    VegetationGpuType& old = *pool.gpu;
    for (const auto& [from, to] :
         {std::pair{&old.records, &resized.records}, std::pair{&old.pages, &resized.pages},
          std::pair{&old.visibility, &resized.visibility}})
      ctx_.uploads().copy(from->handle(), to->handle(), {0, 0, std::min(from->size(), to->size())});
    kept_visibility = std::min(old.visibility.size(), resized.visibility.size());
    resized.segments = std::move(old.segments);
    retired_.push_back(std::move(old));
  }
  if (kept_visibility < resized.visibility.size())
    ctx_.uploads().fill(resized.visibility.handle(), kept_visibility,
                        resized.visibility.size() - kept_visibility, 0u);
  pool.gpu = std::move(resized);
  stage_params(*pool.gpu);
}

namespace {

// A growing pool takes an eighth more than it needs, and at least an eighth more than it had.
std::uint32_t grown_capacity(std::uint32_t capacity, std::uint32_t need) {
  return std::max({need + need / 8, kMinPages, capacity + capacity / 8});
}

}  // namespace

void VegetationPools::ensure_capacity(std::size_t type, const vegetation::RuntimeWorld::Type& cpu) {
  Pool& pool = pools_[type];
  const std::uint32_t need = cpu.page_count();
  pool.growth = 0.9 * pool.growth + 0.1 * double(need > pool.last_need ? need - pool.last_need : 0u);
  pool.last_need = need;
  if (need == 0) return;
  if (pool.gpu && need <= pool.gpu->page_capacity) {
    prepare_growth(pool, need);
    return;
  }
  // A new pool holds what is there (a settled start needs no slack). A growing one takes the buffers made
  // ahead when they are ready and hold what it needs, else makes its own.
  std::optional<VegetationPoolBuffers> made;
  if (const VegetationPoolBuffers* ready = pool.gpu ? pool.next.peek() : nullptr;
      ready && ready->page_capacity >= need)
    made = pool.next.take();
  const std::uint32_t capacity = made       ? made->page_capacity
                                 : pool.gpu ? grown_capacity(pool.gpu->page_capacity, need)
                                            : std::max(need, kMinPages);
  frame_.pools_grown += pool.gpu ? 1 : 0;
  frame_.pools_grown_ahead += made ? 1 : 0;
  resize_pool(type, cpu, capacity, made ? &*made : nullptr);
}

// A pool whose need, at the pace it grew lately, passes its capacity within this many updates (a second at
// 60 Hz) has its next buffers made now; buffers made for one that will not pass it within kKeepUpdates are
// given back: device memory is held ahead only for pools about to grow.
constexpr double kAheadUpdates = 60.0, kKeepUpdates = 240.0;

void VegetationPools::prepare_growth(Pool& pool, std::uint32_t need) {
  const std::uint32_t capacity = pool.gpu->page_capacity;
  if (!options_.workers || pool.next.making()) return;
  const VegetationPoolBuffers* ready = pool.next.peek();
  if (ready && (ready->page_capacity <= capacity || double(need) + pool.growth * kKeepUpdates < capacity)) {
    pool.next = {};  // made before the pool last grew, or the pool stopped growing
    ready = nullptr;
  }
  if (double(need) + pool.growth * kAheadUpdates < capacity) return;
  const std::uint32_t next = grown_capacity(capacity, need);
  if (ready && ready->page_capacity >= next) return;
  const VegetationCull& cull = cull_;
  pool.next.keep(
      options_.workers, [&cull, next] { return cull.make_pool_buffers(next); }, false);
}

void VegetationPools::stage_table(std::size_t type, const vegetation::RuntimeWorld::Type& cpu) {
  Pool& pool = pools_[type];
  std::size_t n = 0;
  for (std::uint32_t page : pool.table_queue)
    n += pool.pending[page] == kTable && page < cpu.page_count() ? 1 : 0;
  if (n == 0) {
    pool.table_queue.clear();
    return;
  }
  // Table entries alone (a rebase) go all in this frame, outside the budget: every live page's offset
  // must match the frame's render origin.
  gpu::UploadQueue& uploads = ctx_.uploads();
  const gpu::StagingRing::Span span = uploads.reserve(share_, n * sizeof(PlantPage));
  VkDeviceSize at = 0;
  for (std::uint32_t page : pool.table_queue) {
    if (pool.pending[page] != kTable || page >= cpu.page_count()) continue;
    std::memcpy(span.data + at, &cpu.pages[page], sizeof(PlantPage));
    uploads.copy_from(span, at, pool.gpu->pages.handle(), VkDeviceSize(page) * sizeof(PlantPage),
                      sizeof(PlantPage));
    at += sizeof(PlantPage);
    pool.pending[page] = 0;
    ++frame_.tables_staged;
  }
  frame_.staged_bytes += at;
  pool.table_queue.clear();
}

void VegetationPools::stage_records(const vegetation::RuntimeWorld& world) {
  gpu::UploadQueue& uploads = ctx_.uploads();
  constexpr VkDeviceSize kBytes = kPageRecordBytes + sizeof(PlantPage);
  while (record_head_ < record_queue_.size()) {
    const PendingPage next = record_queue_[record_head_];
    Pool& pool = pools_[next.type];
    const vegetation::RuntimeWorld::Type& cpu = world.types()[next.type];
    if (pool.pending[next.page] != kRecords || next.page >= cpu.page_count()) {
      // Staged under an earlier entry, or released from the pool's end (nothing there is live).
      if (pool.pending[next.page] == kRecords) pool.pending[next.page] = 0;
      ++record_head_;
      continue;
    }
    const std::optional<gpu::StagingRing::Span> span = uploads.stage(share_, kBytes);
    if (!span) break;  // the frame's share is spent: the rest goes in later frames
    std::memcpy(span->data, cpu.page_records(next.page), kPageRecordBytes);
    std::memcpy(span->data + kPageRecordBytes, &cpu.pages[next.page], sizeof(PlantPage));
    const VegetationGpuType& gpu = *pool.gpu;
    uploads.copy_from(*span, 0, gpu.records.handle(), VkDeviceSize(next.page) * kPageRecordBytes,
                      kPageRecordBytes);
    uploads.copy_from(*span, kPageRecordBytes, gpu.pages.handle(),
                      VkDeviceSize(next.page) * sizeof(PlantPage), sizeof(PlantPage));
    // New instances in the slots: nothing of them was visible last frame.
    uploads.fill(gpu.visibility.handle(), VkDeviceSize(next.page) * kPageVisibilityBytes,
                 kPageVisibilityBytes, 0u);
    pool.pending[next.page] = 0;
    staged_tiles_.push_back({cpu.pages[next.page].tile_x, cpu.pages[next.page].tile_z});
    frame_.staged_bytes += kBytes;
    ++frame_.pages_staged;
    ++record_head_;
  }
  // The queue's staged head is dropped once it is most of the queue (amortised, no shifting per page).
  if (record_head_ > 0 && record_head_ * 2 >= record_queue_.size()) {
    record_queue_.erase(record_queue_.begin(), record_queue_.begin() + std::ptrdiff_t(record_head_));
    record_head_ = 0;
  }
}

void VegetationPools::rebuild_live(const vegetation::TileStreamer& streamer) {
  const vegetation::RuntimeWorld& world = streamer.world();
  // Tiles with a page still waiting are held back whole (a freed page waiting names no tile).
  waiting_.clear();
  for (std::size_t i = record_head_; i < record_queue_.size(); ++i) {
    const PendingPage p = record_queue_[i];
    if (pools_[p.type].pending[p.page] != kRecords || p.page >= world.types()[p.type].page_count()) continue;
    ++frame_.pages_waiting;
    const PlantPage& page = world.types()[p.type].pages[p.page];
    if (page.count > 0) waiting_.push_back({page.tile_x, page.tile_z});
  }
  std::sort(waiting_.begin(), waiting_.end());
  waiting_.erase(std::unique(waiting_.begin(), waiting_.end()), waiting_.end());
  // The tiles that may be drawn, once (resident, no page waiting), sorted: each segment is then a search
  // in this short array, asked again only when the tile changes from the segment before (a tile's
  // segments are appended together).
  streamer.resident_tiles(drawable_);
  std::erase_if(drawable_, [&](vegetation::TileKey k) {
    return std::binary_search(waiting_.begin(), waiting_.end(), k);
  });
  // The drawn segments follow the drawable set from the last build (the usual frame: a tile made resident
  // or whole, a tile that left), else are rebuilt from the world (the first build, a moved origin).
  const bool moved = world.render_origin() != live_origin_;
  live_origin_ = world.render_origin();
  if (live_valid_ && !moved) {
    follow_live(world);
    frame_.live_followed = true;
  } else {
    merge_live(world);
    frame_.live_rebuilt = true;
  }
  for (const TileKey& k : waiting_) frame_.tiles_waiting += streamer.resident(k) ? 1 : 0;
  frame_types_.clear();
  std::uint32_t id_base = 0;
  for (const Pool& p : pools_) {
    if (!p.gpu) continue;
    frame_types_.push_back({&*p.gpu, id_base});
    id_base += p.gpu->capacity;
  }
}

// Every pool's segments from the world: those of drawable tiles, in the world's (id) order.
void VegetationPools::merge_live(const vegetation::RuntimeWorld& world) {
  live_.clear();
  for (std::size_t t = 0; t < pools_.size(); ++t) {
    if (!pools_[t].gpu) continue;
    std::vector<vegetation::RuntimeWorld::Segment>& segments = pools_[t].gpu->segments;
    segments.clear();
    std::optional<vegetation::TileKey> last;
    bool drawn = false;
    for (const vegetation::RuntimeWorld::Segment& s : world.types()[t].segments) {
      if (s.tile != last) {
        last = s.tile;
        drawn = std::binary_search(drawable_.begin(), drawable_.end(), s.tile);
        if (drawn) live_.push_back({s.tile, world.segment_ids(s.tile)->first});
      }
      if (drawn) segments.push_back(s);
    }
  }
  std::sort(live_.begin(), live_.end(), [](const LiveTile& a, const LiveTile& b) { return a.key < b.key; });
  live_.erase(std::unique(live_.begin(), live_.end(),
                          [](const LiveTile& a, const LiveTile& b) { return a.key == b.key; }),
              live_.end());
}

// The same result from the last build, reading only what changed: a drawn tile's segments do not change
// while it stays drawable (it is whole; a moved origin rebuilds instead), so the segments of tiles no
// longer drawable are erased and those of newly drawable ones inserted by id, found through the tile's
// id range. A tile that left and came back between two builds has new ids: it counts as both.
void VegetationPools::follow_live(const vegetation::RuntimeWorld& world) {
  removed_.clear();
  added_.clear();
  std::size_t i = 0, j = 0;
  while (i < live_.size() || j < drawable_.size()) {
    if (j == drawable_.size() || (i < live_.size() && live_[i].key < drawable_[j])) {
      removed_.push_back(live_[i++].key);
    } else if (i == live_.size() || drawable_[j] < live_[i].key) {
      added_.push_back(drawable_[j++]);
    } else {
      const std::optional<vegetation::RuntimeWorld::SegmentIds> ids = world.segment_ids(drawable_[j]);
      if (!ids || ids->first != live_[i].first_id) {
        removed_.push_back(live_[i].key);
        added_.push_back(drawable_[j]);
      }
      ++i;
      ++j;
    }
  }
  if (removed_.empty() && added_.empty()) return;
  const auto by_id = [](const vegetation::RuntimeWorld::Segment& s, std::uint64_t id) { return s.id < id; };
  const auto gone = [this](vegetation::TileKey k) {
    return std::binary_search(removed_.begin(), removed_.end(), k);
  };
  for (std::size_t t = 0; t < pools_.size(); ++t) {
    if (!pools_[t].gpu) continue;
    std::vector<vegetation::RuntimeWorld::Segment>& segments = pools_[t].gpu->segments;
    if (!removed_.empty()) std::erase_if(segments, [&gone](const auto& s) { return gone(s.tile); });
    const std::vector<vegetation::RuntimeWorld::Segment>& from = world.types()[t].segments;
    for (const vegetation::TileKey& k : added_) {
      const std::optional<vegetation::RuntimeWorld::SegmentIds> ids = world.segment_ids(k);
      if (!ids) continue;  // nothing of it here
      // Each at its own id's place: another tile's segments may lie within the range (interleaved appends).
      for (auto s = std::lower_bound(from.begin(), from.end(), ids->first, by_id);
           s != from.end() && s->id <= ids->last; ++s)
        if (s->tile == k)
          segments.insert(std::lower_bound(segments.begin(), segments.end(), s->id, by_id), *s);
    }
  }
  std::erase_if(live_, [&gone](const LiveTile& t) { return gone(t.key); });
  for (const vegetation::TileKey& k : added_)
    if (const std::optional<vegetation::RuntimeWorld::SegmentIds> ids = world.segment_ids(k))
      live_.push_back({k, ids->first});
  std::sort(live_.begin(), live_.end(), [](const LiveTile& a, const LiveTile& b) { return a.key < b.key; });
}

void VegetationPools::clear_frame() {
  // The frame that read the replaced pools completed.
  retired_.clear();
  staged_tiles_.clear();
  frame_ = {};
}

const VegetationPoolsFrame& VegetationPools::update(vegetation::TileStreamer& streamer) {
  vegetation::RuntimeWorld& world = streamer.world();
  clear_frame();
  world.take_changes(changes_);
  pools_.resize(world.types().size());
  for (const vegetation::RuntimeWorld::PageChange& c : changes_) {
    Pool& pool = pools_[c.type];
    if (pool.pending.size() <= c.page) pool.pending.resize(std::size_t(c.page) + 1, 0);
    std::uint8_t& pending = pool.pending[c.page];
    const std::uint8_t level = c.records ? kRecords : kTable;
    if (pending >= level) continue;
    if (level == kRecords)
      record_queue_.push_back({c.type, c.page});
    else
      pool.table_queue.push_back(c.page);
    pending = level;
  }
  for (std::size_t t = 0; t < pools_.size(); ++t) {
    ensure_capacity(t, world.types()[t]);
    if (pools_[t].gpu) stage_table(t, world.types()[t]);
  }
  stage_records(world);
  // The live set changes when a tile turns resident (its last append) or leaves, with a rebase (the
  // segments' bounds), a grown pool or rewritten tables, or when a page of a resident tile that was
  // waiting lands; appends and pages of tiles not yet resident do not change it. A quiet frame keeps
  // last frame's.
  bool rebuild = !live_valid_ || frame_.tables_staged > 0 || frame_.pools_grown > 0 ||
                 world.structure_version() != live_structure_ ||
                 streamer.resident_version() != live_resident_;
  for (std::size_t i = 0; !rebuild && i < staged_tiles_.size(); ++i)
    rebuild = streamer.resident(staged_tiles_[i]) &&
              std::binary_search(waiting_.begin(), waiting_.end(), staged_tiles_[i]);
  if (rebuild) {
    rebuild_live(streamer);
    live_valid_ = true;
    live_structure_ = world.structure_version();
    live_resident_ = streamer.resident_version();
    waiting_pages_ = frame_.pages_waiting;
    waiting_tiles_ = frame_.tiles_waiting;
  } else {
    frame_.pages_waiting = waiting_pages_;
    frame_.tiles_waiting = waiting_tiles_;
  }
  return frame_;
}

void VegetationPools::settle(vegetation::TileStreamer& streamer) {
  do {
    (void)ctx_.uploads().begin_frame();
    (void)update(streamer);
    ctx_.submit_and_wait([&](VkCommandBuffer cmd) { upload(cmd); });
  } while (!settled());
  // A settled world is a good moment to give the growth slack back: pools more than a sixteenth past
  // what they hold are copied into buffers of their size (the frames after this grow them again if the
  // camera moves on).
  clear_frame();
  (void)ctx_.uploads().begin_frame();
  const vegetation::RuntimeWorld& world = streamer.world();
  for (std::size_t t = 0; t < pools_.size(); ++t) {
    if (!pools_[t].gpu) continue;
    const std::uint32_t need = std::max(world.types()[t].page_count(), kMinPages);
    if (pools_[t].gpu->page_capacity > need + need / 16) resize_pool(t, world.types()[t], need);
  }
  ctx_.submit_and_wait([&](VkCommandBuffer cmd) { upload(cmd); });
  clear_frame();
  rebuild_live(streamer);
}

void VegetationPools::upload(VkCommandBuffer cmd) {
  // Growth copies, cleared visibility words, then the staged pages and tables (upload_queue.hpp).
  ctx_.uploads().record(cmd);
}

}  // namespace myriad::render
