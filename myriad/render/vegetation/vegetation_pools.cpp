// Page-granular GPU pools. A change log entry names a page once per frame however often it changed;
// the pending level per page keeps a page queued once until it is staged (its bytes are read from the
// CPU pool when staged, so the newest content goes).
#include "myriad/render/vegetation/vegetation_pools.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "myriad/core/error.hpp"
#include "myriad/gpu/staging_ring.hpp"
#include "myriad/gpu/sync.hpp"

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
    : ctx_(ctx), cull_(cull), renderer_(renderer), options_(options) {
  if (options_.upload_budget < kPageRecordBytes + sizeof(PlantPage))
    throw Error("the vegetation upload budget is below one page (" +
                    std::to_string(kPageRecordBytes + sizeof(PlantPage)) + " bytes)",
                "VegetationPoolsOptions::upload_budget");
}

VegetationPools::~VegetationPools() = default;

const VegetationGpuType* VegetationPools::pool(std::size_t type) const {
  return type < pools_.size() && pools_[type].gpu ? &*pools_[type].gpu : nullptr;
}

bool VegetationPools::live(TileKey tile) const {
  return std::binary_search(live_.begin(), live_.end(), tile);
}

bool VegetationPools::settled() const { return record_head_ == record_queue_.size(); }

std::uint64_t VegetationPools::gpu_bytes() const {
  std::uint64_t bytes = 0;
  for (const Pool& p : pools_)
    if (p.gpu) bytes += p.gpu->bytes();
  return bytes;
}

void VegetationPools::stage_params(const VegetationGpuType& gpu) {
  const shader::VegCullParams params = cull_.params(gpu);
  const gpu::StagingRing::Span span =
      ctx_.staging_ring().stage(std::as_bytes(std::span<const shader::VegCullParams>(&params, 1)));
  copies_.push_back({span.buffer, gpu.params.handle(), {span.offset, 0, sizeof(params)}});
  frame_.staged_bytes += sizeof(params);
}

void VegetationPools::resize_pool(std::size_t type, const vegetation::RuntimeWorld::Type& cpu,
                                  std::uint32_t page_capacity) {
  Pool& pool = pools_[type];
  VegetationGpuType resized = cull_.make_pool(cpu, renderer_.lod_meshes(cpu.prefab), options_.band,
                                              options_.fade, page_capacity, renderer_.lod_bounds(cpu.prefab));
  VkDeviceSize kept_visibility = 0;
  if (pool.gpu) {
    // What the old pool holds stays valid (pages not yet staged are still queued and not live); pages
    // past the new size are free.
    VegetationGpuType& old = *pool.gpu;
    for (const auto& [from, to] :
         {std::pair{&old.records, &resized.records}, std::pair{&old.pages, &resized.pages},
          std::pair{&old.visibility, &resized.visibility}})
      growth_.push_back({from->handle(), to->handle(), {0, 0, std::min(from->size(), to->size())}});
    kept_visibility = std::min(old.visibility.size(), resized.visibility.size());
    resized.segments = std::move(old.segments);
    retired_.push_back(std::move(old));
  }
  if (kept_visibility < resized.visibility.size())
    growth_fills_.push_back(
        {resized.visibility.handle(), kept_visibility, resized.visibility.size() - kept_visibility});
  pool.gpu = std::move(resized);
  stage_params(*pool.gpu);
}

void VegetationPools::ensure_capacity(std::size_t type, const vegetation::RuntimeWorld::Type& cpu) {
  const Pool& pool = pools_[type];
  const std::uint32_t need = cpu.page_count();
  if (need == 0 || (pool.gpu && need <= pool.gpu->page_capacity)) return;
  // A new pool holds what is there (a settled start needs no slack); a growing one takes an eighth more.
  const std::uint32_t capacity =
      pool.gpu ? std::max({need + need / 8, kMinPages, pool.gpu->page_capacity + pool.gpu->page_capacity / 8})
               : std::max(need, kMinPages);
  frame_.pools_grown += pool.gpu ? 1 : 0;
  resize_pool(type, cpu, capacity);
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
  const gpu::StagingRing::Span span = ctx_.staging_ring().reserve(n * sizeof(PlantPage));
  VkDeviceSize at = 0;
  for (std::uint32_t page : pool.table_queue) {
    if (pool.pending[page] != kTable || page >= cpu.page_count()) continue;
    std::memcpy(span.data + at, &cpu.pages[page], sizeof(PlantPage));
    copies_.push_back({span.buffer,
                       pool.gpu->pages.handle(),
                       {span.offset + at, VkDeviceSize(page) * sizeof(PlantPage), sizeof(PlantPage)}});
    at += sizeof(PlantPage);
    pool.pending[page] = 0;
    ++frame_.tables_staged;
  }
  frame_.staged_bytes += at;
  pool.table_queue.clear();
}

void VegetationPools::stage_records(const vegetation::RuntimeWorld& world) {
  gpu::StagingRing& ring = ctx_.staging_ring();
  std::uint64_t budget = options_.upload_budget;
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
    if (budget < kBytes) break;
    const std::optional<gpu::StagingRing::Span> span = ring.allocate_budgeted(kBytes);
    if (!span) break;  // the frame's ring budget is spent: the rest goes in later frames
    std::memcpy(span->data, cpu.page_records(next.page), kPageRecordBytes);
    std::memcpy(span->data + kPageRecordBytes, &cpu.pages[next.page], sizeof(PlantPage));
    const VegetationGpuType& gpu = *pool.gpu;
    copies_.push_back({span->buffer,
                       gpu.records.handle(),
                       {span->offset, VkDeviceSize(next.page) * kPageRecordBytes, kPageRecordBytes}});
    copies_.push_back(
        {span->buffer,
         gpu.pages.handle(),
         {span->offset + kPageRecordBytes, VkDeviceSize(next.page) * sizeof(PlantPage), sizeof(PlantPage)}});
    // New instances in the slots: nothing of them was visible last frame.
    fills_.push_back(
        {gpu.visibility.handle(), VkDeviceSize(next.page) * kPageVisibilityBytes, kPageVisibilityBytes});
    pool.pending[next.page] = 0;
    staged_tiles_.push_back({cpu.pages[next.page].tile_x, cpu.pages[next.page].tile_z});
    budget -= kBytes;
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
  live_.clear();
  for (std::size_t t = 0; t < pools_.size(); ++t) {
    if (!pools_[t].gpu) continue;
    VegetationGpuType& gpu = *pools_[t].gpu;
    // Assigned over the previous frame's copies: their page lists keep their storage.
    std::size_t n = 0;
    for (const vegetation::RuntimeWorld::Segment& s : world.types()[t].segments) {
      if (!streamer.resident(s.tile) || std::binary_search(waiting_.begin(), waiting_.end(), s.tile))
        continue;
      if (n == gpu.segments.size()) gpu.segments.emplace_back();
      gpu.segments[n++] = s;
      live_.push_back(s.tile);
    }
    gpu.segments.resize(n);
  }
  std::sort(live_.begin(), live_.end());
  live_.erase(std::unique(live_.begin(), live_.end()), live_.end());
  for (const TileKey& k : waiting_) frame_.tiles_waiting += streamer.resident(k) ? 1 : 0;
  frame_types_.clear();
  std::uint32_t id_base = 0;
  for (const Pool& p : pools_) {
    if (!p.gpu) continue;
    frame_types_.push_back({&*p.gpu, id_base});
    id_base += p.gpu->capacity;
  }
}

void VegetationPools::clear_frame() {
  // The frame that read the replaced pools completed.
  retired_.clear();
  growth_.clear();
  growth_fills_.clear();
  copies_.clear();
  fills_.clear();
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
    (void)ctx_.staging_ring().begin_frame();
    (void)update(streamer);
    ctx_.submit_and_wait([&](VkCommandBuffer cmd) { upload(cmd); });
  } while (!settled());
  // A settled world is a good moment to give the growth slack back: pools more than a sixteenth past
  // what they hold are copied into buffers of their size (the frames after this grow them again if the
  // camera moves on).
  clear_frame();
  (void)ctx_.staging_ring().begin_frame();
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
  if (growth_.empty() && growth_fills_.empty() && copies_.empty() && fills_.empty()) return;
  // Earlier frames' reads of these pools finish before they are written.
  gpu::memory_barrier(cmd,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_NONE);
  for (const Transfer& t : growth_) vkCmdCopyBuffer(cmd, t.src, t.dst, 1, &t.region);
  for (const Fill& f : growth_fills_) vkCmdFillBuffer(cmd, f.dst, f.offset, f.size, 0u);
  if (!growth_.empty() || !growth_fills_.empty())  // staged pages may land on what those wrote
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  ctx_.staging_ring().flush();
  // One copy command per destination, its regions in staging order.
  std::stable_sort(copies_.begin(), copies_.end(),
                   [](const Transfer& a, const Transfer& b) { return a.dst < b.dst; });
  for (std::size_t i = 0; i < copies_.size();) {
    std::size_t j = i;
    regions_.clear();
    while (j < copies_.size() && copies_[j].dst == copies_[i].dst && copies_[j].src == copies_[i].src)
      regions_.push_back(copies_[j++].region);
    vkCmdCopyBuffer(cmd, copies_[i].src, copies_[i].dst, static_cast<std::uint32_t>(regions_.size()),
                    regions_.data());
    i = j;
  }
  for (const Fill& f : fills_) vkCmdFillBuffer(cmd, f.dst, f.offset, f.size, 0u);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

}  // namespace myriad::render
