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

void VegetationPools::ensure_capacity(std::size_t type, const vegetation::RuntimeWorld::Type& cpu) {
  Pool& pool = pools_[type];
  const std::uint32_t need = cpu.page_count();
  if (need == 0 || (pool.gpu && need <= pool.gpu->page_capacity)) return;
  // A new pool holds what is there (a settled start needs no slack); a growing one takes an eighth more.
  const std::uint32_t capacity =
      pool.gpu ? std::max({need + need / 8, kMinPages, pool.gpu->page_capacity + pool.gpu->page_capacity / 8})
               : std::max(need, kMinPages);
  VegetationGpuType grown = cull_.make_pool(cpu, renderer_.lod_meshes(cpu.prefab), options_.band,
                                            options_.fade, capacity, renderer_.lod_bounds(cpu.prefab));
  VkDeviceSize kept_visibility = 0;
  if (pool.gpu) {
    // What the old pool holds stays valid: pages not yet staged are still queued and not live.
    VegetationGpuType& old = *pool.gpu;
    growth_.push_back({old.records.handle(), grown.records.handle(), {0, 0, old.records.size()}});
    growth_.push_back({old.pages.handle(), grown.pages.handle(), {0, 0, old.pages.size()}});
    growth_.push_back({old.visibility.handle(), grown.visibility.handle(), {0, 0, old.visibility.size()}});
    kept_visibility = old.visibility.size();
    grown.segments = std::move(old.segments);
    retired_.push_back(std::move(old));
    ++frame_.pools_grown;
  }
  growth_fills_.push_back(
      {grown.visibility.handle(), kept_visibility, grown.visibility.size() - kept_visibility});
  pool.gpu = std::move(grown);
  stage_params(*pool.gpu);
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

void VegetationPools::rebuild_live(const vegetation::RuntimeWorld& world, const ResidentFn& resident) {
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
      if (!resident(s.tile) || std::binary_search(waiting_.begin(), waiting_.end(), s.tile)) continue;
      if (n == gpu.segments.size()) gpu.segments.emplace_back();
      gpu.segments[n++] = s;
      live_.push_back(s.tile);
    }
    gpu.segments.resize(n);
  }
  std::sort(live_.begin(), live_.end());
  live_.erase(std::unique(live_.begin(), live_.end()), live_.end());
  for (const TileKey& k : waiting_) frame_.tiles_waiting += resident(k) ? 1 : 0;
  frame_types_.clear();
  std::uint32_t id_base = 0;
  for (const Pool& p : pools_) {
    if (!p.gpu) continue;
    frame_types_.push_back({&*p.gpu, id_base});
    id_base += p.gpu->capacity;
  }
}

const VegetationPoolsFrame& VegetationPools::update(vegetation::RuntimeWorld& world,
                                                    const ResidentFn& resident) {
  return update(world, resident, nullptr);
}

const VegetationPoolsFrame& VegetationPools::update(vegetation::RuntimeWorld& world,
                                                    const ResidentFn& resident,
                                                    std::uint64_t resident_version) {
  return update(world, resident, &resident_version);
}

const VegetationPoolsFrame& VegetationPools::update(vegetation::RuntimeWorld& world,
                                                    const ResidentFn& resident,
                                                    const std::uint64_t* resident_version) {
  // The frame that read the replaced pools completed.
  retired_.clear();
  growth_.clear();
  growth_fills_.clear();
  copies_.clear();
  fills_.clear();
  frame_ = {};
  staged_tiles_.clear();
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
  // The live set only changes with the pools (a tile turns resident with its last append, leaves with
  // its removal) or with what landed: a quiet frame keeps last frame's. With the streamer's resident
  // version, appends (to tiles not yet resident) and pages landing for such tiles do not count: only a
  // page of a resident tile that was waiting can complete it.
  bool rebuild = !live_valid_ || frame_.tables_staged > 0 || frame_.pools_grown > 0;
  if (resident_version) {
    rebuild = rebuild || world.structure_version() != live_structure_ || *resident_version != live_resident_;
    for (std::size_t i = 0; !rebuild && i < staged_tiles_.size(); ++i)
      rebuild = resident(staged_tiles_[i]) &&
                std::binary_search(waiting_.begin(), waiting_.end(), staged_tiles_[i]);
  } else {
    rebuild = rebuild || world.version() != live_version_ || frame_.pages_staged > 0;
  }
  if (rebuild) {
    rebuild_live(world, resident);
    live_valid_ = true;
    live_version_ = world.version();
    live_structure_ = world.structure_version();
    if (resident_version) live_resident_ = *resident_version;
    waiting_pages_ = frame_.pages_waiting;
    waiting_tiles_ = frame_.tiles_waiting;
  } else {
    frame_.pages_waiting = waiting_pages_;
    frame_.tiles_waiting = waiting_tiles_;
  }
  return frame_;
}

void VegetationPools::settle(vegetation::RuntimeWorld& world, const ResidentFn& resident) {
  do {
    (void)ctx_.staging_ring().begin_frame();
    (void)update(world, resident);
    ctx_.submit_and_wait([&](VkCommandBuffer cmd) { upload(cmd); });
  } while (!settled());
  retired_.clear();
  // A settled world is a good moment to give the growth slack back: pools more than a sixteenth past
  // what they hold are copied into buffers of their size (the frames after this grow them again if the
  // camera moves on).
  for (std::size_t t = 0; t < pools_.size(); ++t) {
    if (!pools_[t].gpu) continue;
    const vegetation::RuntimeWorld::Type& cpu = world.types()[t];
    const std::uint32_t need = std::max(cpu.page_count(), kMinPages);
    VegetationGpuType& old = *pools_[t].gpu;
    if (old.page_capacity <= need + need / 16) continue;
    VegetationGpuType fitted = cull_.make_pool(cpu, renderer_.lod_meshes(cpu.prefab), options_.band,
                                               options_.fade, need, renderer_.lod_bounds(cpu.prefab));
    fitted.segments = std::move(old.segments);
    const shader::VegCullParams params = cull_.params(fitted);
    ctx_.submit_and_wait([&](VkCommandBuffer cmd) {
      for (const auto& [from, to] :
           {std::pair{&old.records, &fitted.records}, std::pair{&old.pages, &fitted.pages},
            std::pair{&old.visibility, &fitted.visibility}}) {
        const VkBufferCopy region{0, 0, to->size()};
        vkCmdCopyBuffer(cmd, from->handle(), to->handle(), 1, &region);
      }
      vkCmdUpdateBuffer(cmd, fitted.params.handle(), 0, sizeof(params), &params);
    });
    old = std::move(fitted);
  }
  rebuild_live(world, resident);
}

void VegetationPools::upload(VkCommandBuffer cmd) {
  if (growth_fills_.empty() && copies_.empty() && fills_.empty()) return;
  // Earlier frames' reads of these pools finish before they are written.
  gpu::memory_barrier(cmd,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_NONE);
  for (const Transfer& t : growth_) vkCmdCopyBuffer(cmd, t.src, t.dst, 1, &t.region);
  for (const Fill& f : growth_fills_) vkCmdFillBuffer(cmd, f.dst, f.offset, f.size, 0u);
  if (!growth_fills_.empty())  // the staged pages may land on what the growth copies and fills wrote
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  ctx_.staging_ring().flush();
  // One copy command per destination, its regions in staging order.
  std::stable_sort(copies_.begin(), copies_.end(),
                   [](const Transfer& a, const Transfer& b) { return a.dst < b.dst; });
  std::vector<VkBufferCopy> regions;
  for (std::size_t i = 0; i < copies_.size();) {
    std::size_t j = i;
    regions.clear();
    while (j < copies_.size() && copies_[j].dst == copies_[i].dst && copies_[j].src == copies_[i].src)
      regions.push_back(copies_[j++].region);
    vkCmdCopyBuffer(cmd, copies_[i].src, copies_[i].dst, static_cast<std::uint32_t>(regions.size()),
                    regions.data());
    i = j;
  }
  for (const Fill& f : fills_) vkCmdFillBuffer(cmd, f.dst, f.offset, f.size, 0u);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

}  // namespace myriad::render
