#include "myriad/gpu/memory/upload_queue.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"

namespace myriad::gpu {
namespace {

constexpr VkDeviceSize kAlign = 16;

VkDeviceSize align_up(VkDeviceSize v) { return (v + kAlign - 1) & ~(kAlign - 1); }

std::uint64_t p99(std::vector<std::uint64_t> frames) {
  if (frames.empty()) return 0;
  const std::size_t k = (frames.size() * 99 + 99) / 100 - 1;  // nearest rank
  std::nth_element(frames.begin(), frames.begin() + std::ptrdiff_t(k), frames.end());
  return frames[k];
}

}  // namespace

UploadQueue::UploadQueue(StagingRing& ring) : ring_(ring), frame_serial_(ring.serial()) {}

UploadShare UploadQueue::share(std::string_view name, std::uint64_t budget, UploadPolicy policy) {
  if (budget == 0 && policy == UploadPolicy::kBudgeted)
    throw Error("upload share '" + std::string(name) + "' has a zero budget", "UploadQueue::share");
  Share s;
  s.name = std::string(name);
  s.budget = budget;
  s.policy = policy;
  shares_.push_back(std::move(s));
  return UploadShare(shares_.size() - 1);
}

void UploadQueue::release(UploadShare share) {
  if (share >= shares_.size() || !shares_[share].live) return;
  Share& s = shares_[share];
  for (Queued& q : queued_)
    if (q.share == share && !q.dropped) discard(q);
  s.live = false;
  s.history = {};
}

UploadQueue::Share& UploadQueue::live_share(UploadShare share) {
  sync_frame();
  if (share >= shares_.size() || !shares_[share].live)
    throw Error("unknown or released upload share " + std::to_string(share), "UploadQueue");
  return shares_[share];
}

void UploadQueue::sync_frame() {
  if (ring_.serial() == frame_serial_) return;
  // A new staging frame began: the last one's bytes join the statistics (nothing before the first).
  for (Share& s : shares_) {
    if (!s.live || frame_serial_ == 0) continue;
    if (s.history.size() < kHistoryFrames)
      s.history.push_back(s.frame_bytes);
    else
      s.history[std::size_t(s.frames % kHistoryFrames)] = s.frame_bytes;
    ++s.frames;
    s.max_frame_bytes = std::max(s.max_frame_bytes, s.frame_bytes);
    if (s.policy == UploadPolicy::kBudgeted && s.budgeted_bytes > s.budget) ++s.frames_over_budget;
    s.frame_bytes = s.budgeted_bytes = s.deferred = 0;
    s.blocked = false;
  }
  frame_serial_ = ring_.serial();
}

std::uint64_t UploadQueue::begin_frame() {
  ring_.begin_frame();
  sync_frame();
  return frame_serial_;
}

bool UploadQueue::budget_allows(const Share& s, VkDeviceSize size) const {
  // A first item larger than the budget goes alone: nothing waits forever.
  return s.budgeted_bytes == 0 || s.budgeted_bytes + size <= s.budget;
}

std::optional<StagingRing::Span> UploadQueue::stage(UploadShare share, VkDeviceSize size,
                                                    VkDeviceSize alignment) {
  Share& s = live_share(share);
  if (s.policy != UploadPolicy::kBudgeted)
    throw Error("stage() under '" + s.name + "', a share without a budget", "UploadQueue::stage",
                "use reserve() for data that goes every frame");
  std::optional<StagingRing::Span> span;
  if (!s.blocked && budget_allows(s, size)) span = ring_.allocate_budgeted(size, std::max(alignment, kAlign));
  if (!span) {
    ++s.deferred;
    return std::nullopt;
  }
  s.budgeted_bytes += size;
  s.frame_bytes += size;
  s.staged_total += size;
  return span;
}

StagingRing::Span UploadQueue::reserve(UploadShare share, VkDeviceSize size, VkDeviceSize alignment) {
  Share& s = live_share(share);
  const StagingRing::Span span = ring_.reserve(size, alignment);
  s.frame_bytes += size;
  s.staged_total += size;
  return span;
}

void UploadQueue::copy_from(const StagingRing::Span& staged, VkDeviceSize from, VkBuffer dst,
                            VkDeviceSize dst_offset, VkDeviceSize size) {
  if (from + size > staged.size)
    throw Error("copy past the end of its staging span", "UploadQueue::copy_from");
  if (size == 0) return;
  staged_copies_.push_back({staged.buffer, dst, {staged.offset + from, dst_offset, size}});
}

void UploadQueue::enqueue(UploadShare share, VkBuffer dst, VkDeviceSize dst_offset,
                          std::span<const std::byte> bytes, std::int64_t tag) {
  const std::span<std::byte> to = enqueue_space(share, dst, dst_offset, bytes.size(), tag);
  if (!to.empty()) std::memcpy(to.data(), bytes.data(), bytes.size());
}

std::span<std::byte> UploadQueue::enqueue_space(UploadShare share, VkBuffer dst, VkDeviceSize dst_offset,
                                                std::size_t size, std::int64_t tag) {
  Share& s = live_share(share);
  if (size == 0) return {};
  std::byte* to = grow_bytes(size);
  queued_.push_back({share, tag, dst, dst_offset, size, std::size_t(to - bytes_.get()), false});
  tagged_ += tag != kNoTag ? 1 : 0;
  s.queued_bytes += size;
  ++s.queued_copies;
  return {to, size};
}

std::byte* UploadQueue::grow_bytes(std::size_t size) {
  const std::size_t at = std::size_t(align_up(bytes_size_));
  if (at + size > bytes_capacity_) {
    const std::size_t capacity = std::max({at + size, 2 * bytes_capacity_, std::size_t(64) << 10});
    auto grown = std::make_unique_for_overwrite<std::byte[]>(capacity);
    if (bytes_size_ > 0) std::memcpy(grown.get(), bytes_.get(), bytes_size_);
    bytes_ = std::move(grown);
    bytes_capacity_ = capacity;
  }
  bytes_size_ = at + size;
  return bytes_.get() + at;
}

void UploadQueue::discard(Queued& q) {
  Share& s = shares_[q.share];
  s.queued_bytes -= q.size;
  --s.queued_copies;
  dead_bytes_ += q.size;
  tagged_ -= q.tag != kNoTag ? 1 : 0;
  q.dropped = true;
}

void UploadQueue::drop(VkBuffer dst) {
  if (dst == VK_NULL_HANDLE) return;  // (a clear's source is null: it must not match)
  for (Queued& q : queued_)
    if (!q.dropped && q.dst == dst) discard(q);
  // The buffer is going away: nothing recorded may touch it.
  std::erase_if(device_ops_, [dst](const DeviceOp& d) { return d.dst == dst || d.src == dst; });
  std::erase_if(staged_copies_, [dst](const Copy& c) { return c.dst == dst; });
  std::erase_if(fills_, [dst](const Fill& f) { return f.dst == dst; });
}

void UploadQueue::drop(VkBuffer dst, std::int64_t tag) {
  // Usually nothing tagged waits (the last record() staged it): no walk over the queue. A frame in which a
  // row of sections leaves drops a hundred of them.
  if (tagged_ == 0) return;
  for (Queued& q : queued_)
    if (!q.dropped && q.dst == dst && q.tag == tag) discard(q);
}

void UploadQueue::copy(VkBuffer src, VkBuffer dst, const VkBufferCopy& region) {
  if (region.size > 0) device_ops_.push_back({src, dst, region, 0});
}

void UploadQueue::clear(const Buffer& dst, std::uint32_t value) {
  // The buffer's own size: guard words past it (buffer_guards.hpp) must stay untouched.
  if (dst.size() >= 4)
    device_ops_.push_back({VK_NULL_HANDLE, dst.handle(), {0, 0, dst.size() / 4 * 4}, value});
}

void UploadQueue::fill(VkBuffer dst, VkDeviceSize offset, VkDeviceSize size, std::uint32_t value) {
  if ((offset | size) % 4 != 0)
    throw Error("fill offset and size must be multiples of 4", "UploadQueue::fill");
  if (size > 0) fills_.push_back({dst, offset, size, value});
}

void UploadQueue::stage_all_or_none(UploadShare share) {
  Share& s = shares_[share];
  VkDeviceSize total = 0;
  for (const Queued& q : queued_)
    if (!q.dropped && q.share == share) total = align_up(total) + q.size;
  if (total == 0) return;
  if (total > ring_.capacity())
    throw Error(
        "queued '" + s.name + "' uploads (" + std::to_string(total) + " bytes) exceed the staging ring",
        "UploadQueue::record", "raise ContextOptions::staging_ring_bytes, or queue less per frame");
  const std::optional<StagingRing::Span> span = ring_.allocate(total, kAlign);
  if (!span) {  // the ring is busy with frames in flight: all of it in a later frame
    ++s.deferred;
    return;
  }
  VkDeviceSize at = 0;
  for (Queued& q : queued_) {
    if (q.dropped || q.share != share) continue;
    at = align_up(at);
    std::memcpy(span->data + at, bytes_.get() + q.at, q.size);
    staged_copies_.push_back({span->buffer, q.dst, {span->offset + at, q.dst_offset, q.size}});
    at += q.size;
    s.frame_bytes += q.size;
    s.staged_total += q.size;
    discard(q);
  }
}

void UploadQueue::stage_queued() {
  if (queued_.empty()) return;
  for (UploadShare i = 0; i < shares_.size(); ++i)
    if (shares_[i].live && shares_[i].policy == UploadPolicy::kAllOrNone && shares_[i].queued_copies > 0)
      stage_all_or_none(i);
  // Budgeted shares oldest first; a share stops at its first refusal, so its order holds.
  for (Queued& q : queued_) {
    if (q.dropped) continue;
    Share& s = shares_[q.share];
    if (s.policy != UploadPolicy::kBudgeted || s.blocked) continue;
    std::optional<StagingRing::Span> span;
    if (budget_allows(s, q.size)) span = ring_.allocate_budgeted(q.size, kAlign);
    if (!span) {
      s.blocked = true;
      ++s.deferred;
      continue;
    }
    std::memcpy(span->data, bytes_.get() + q.at, q.size);
    staged_copies_.push_back({span->buffer, q.dst, {span->offset, q.dst_offset, q.size}});
    s.budgeted_bytes += q.size;
    s.frame_bytes += q.size;
    s.staged_total += q.size;
    discard(q);
  }
  compact_queue();
}

void UploadQueue::compact_queue() {
  std::erase_if(queued_, [](const Queued& q) { return q.dropped; });
  if (queued_.empty()) {
    // A whole world's worth gives its memory back; a streaming frame's keeps the capacity.
    if (bytes_capacity_ > kKeptQueueBytes) {
      bytes_.reset();
      bytes_capacity_ = 0;
    }
    bytes_size_ = 0;
    dead_bytes_ = 0;
    return;
  }
  // Moved down once at least half the bytes are dead: each byte moves O(1) times on average.
  if (dead_bytes_ * 2 < bytes_size_) return;
  std::size_t to = 0;
  for (Queued& q : queued_) {
    to = std::size_t(align_up(to));
    if (q.at != to) std::memmove(bytes_.get() + to, bytes_.get() + q.at, q.size);
    q.at = to;
    to += q.size;
  }
  bytes_size_ = to;
  dead_bytes_ = 0;
}

bool UploadQueue::pending() const {
  if (!device_ops_.empty() || !fills_.empty() || !staged_copies_.empty()) return true;
  // Dropped entries stay in queued_ until the next record(): count what is still queued.
  return std::any_of(shares_.begin(), shares_.end(), [](const Share& s) { return s.queued_copies > 0; });
}

namespace {

constexpr VkPipelineStageFlags2 kTransfer = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
constexpr VkAccessFlags2 kWrite = VK_ACCESS_2_TRANSFER_WRITE_BIT;

// Writes of one group that overlap an earlier one of the group wait for it (a barrier between them);
// the common case, no overlap, records without one.
class OverlapRuns {
 public:
  // Whether [begin, end) of `dst` meets a write of the current run (then a barrier starts a new one).
  bool starts_run(VkBuffer dst, VkDeviceSize begin, VkDeviceSize end) {
    for (const Range& r : run_)
      if (r.dst == dst && begin < r.end && r.begin < end) {
        run_.clear();
        run_.push_back({dst, begin, end});
        return true;
      }
    run_.push_back({dst, begin, end});
    return false;
  }

 private:
  struct Range {
    VkBuffer dst;
    VkDeviceSize begin, end;
  };
  std::vector<Range> run_;
};

}  // namespace

void UploadQueue::record_fills(VkCommandBuffer cmd) {
  // Sorted by destination: fills of one value that overlap or touch merge into one; two overlapping
  // fills of different values keep their order instead.
  merged_fills_.assign(fills_.begin(), fills_.end());
  std::stable_sort(merged_fills_.begin(), merged_fills_.end(), [](const Fill& a, const Fill& b) {
    return a.dst != b.dst ? a.dst < b.dst : a.offset < b.offset;
  });
  std::size_t n = 0;
  bool conflict = false;
  for (const Fill& f : merged_fills_) {
    Fill* last = n > 0 ? &merged_fills_[n - 1] : nullptr;
    if (last && last->dst == f.dst && f.offset <= last->offset + last->size) {
      if (last->value != f.value) {
        conflict = true;
        break;
      }
      last->size = std::max(last->offset + last->size, f.offset + f.size) - last->offset;
      continue;
    }
    merged_fills_[n++] = f;
  }
  if (!conflict) {
    for (std::size_t i = 0; i < n; ++i) {
      const Fill& f = merged_fills_[i];
      vkCmdFillBuffer(cmd, f.dst, f.offset, f.size, f.value);
    }
    return;
  }
  OverlapRuns runs;
  for (const Fill& f : fills_) {
    if (runs.starts_run(f.dst, f.offset, f.offset + f.size))
      memory_barrier(cmd, kTransfer, kWrite, kTransfer, kWrite);
    vkCmdFillBuffer(cmd, f.dst, f.offset, f.size, f.value);
  }
}

std::uint64_t UploadQueue::record_staged_copies(VkCommandBuffer cmd) {
  ring_.flush();
  std::uint64_t bytes = 0;
  for (const Copy& c : staged_copies_) bytes += c.region.size;
  // Sorted by destination and offset: one copy command per destination and staging buffer, unless two
  // copies overlap (a command's regions must not), when they go one by one in their order.
  sorted_copies_.assign(staged_copies_.begin(), staged_copies_.end());
  std::stable_sort(sorted_copies_.begin(), sorted_copies_.end(), [](const Copy& a, const Copy& b) {
    if (a.dst != b.dst) return a.dst < b.dst;
    if (a.src != b.src) return a.src < b.src;
    return a.region.dstOffset < b.region.dstOffset;
  });
  bool overlap = false;
  for (std::size_t i = 1; i < sorted_copies_.size() && !overlap; ++i) {
    const Copy &a = sorted_copies_[i - 1], &b = sorted_copies_[i];
    overlap = a.dst == b.dst && b.region.dstOffset < a.region.dstOffset + a.region.size;
  }
  if (overlap) {
    OverlapRuns runs;
    for (const Copy& c : staged_copies_) {
      if (runs.starts_run(c.dst, c.region.dstOffset, c.region.dstOffset + c.region.size))
        memory_barrier(cmd, kTransfer, kWrite, kTransfer, kWrite);
      vkCmdCopyBuffer(cmd, c.src, c.dst, 1, &c.region);
    }
    return bytes;
  }
  for (std::size_t i = 0; i < sorted_copies_.size();) {
    std::size_t j = i;
    regions_.clear();
    while (j < sorted_copies_.size() && sorted_copies_[j].dst == sorted_copies_[i].dst &&
           sorted_copies_[j].src == sorted_copies_[i].src)
      regions_.push_back(sorted_copies_[j++].region);
    vkCmdCopyBuffer(cmd, sorted_copies_[i].src, sorted_copies_[i].dst, std::uint32_t(regions_.size()),
                    regions_.data());
    i = j;
  }
  return bytes;
}

std::uint64_t UploadQueue::record(VkCommandBuffer cmd) {
  sync_frame();
  stage_queued();
  const bool group1 = !device_ops_.empty();
  const bool group2 = !fills_.empty();
  const bool group3 = !staged_copies_.empty();
  if (!group1 && !group2 && !group3) return 0;
  // Earlier reads of the destinations (last frame's, or this command buffer's) finish first.
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE, kTransfer, VK_ACCESS_2_NONE);
  // Device copies and clears in their order; one that meets an earlier one's destination waits for it.
  OverlapRuns runs;
  for (const DeviceOp& d : device_ops_) {
    if (runs.starts_run(d.dst, d.region.dstOffset, d.region.dstOffset + d.region.size))
      memory_barrier(cmd, kTransfer, kWrite, kTransfer, kWrite);
    if (d.src == VK_NULL_HANDLE)
      vkCmdFillBuffer(cmd, d.dst, 0, d.region.size, d.value);
    else
      vkCmdCopyBuffer(cmd, d.src, d.dst, 1, &d.region);
  }
  if (group1 && (group2 || group3))
    memory_barrier(cmd, kTransfer, kWrite | VK_ACCESS_2_TRANSFER_READ_BIT, kTransfer, kWrite);
  if (group2) record_fills(cmd);
  if (group2 && group3) memory_barrier(cmd, kTransfer, kWrite, kTransfer, kWrite);
  const std::uint64_t bytes = group3 ? record_staged_copies(cmd) : 0;
  // Everything written is visible to every later read (shaders, index fetch, indirect arguments,
  // copies) and ordered before later writes.
  memory_barrier(cmd, kTransfer, kWrite, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                 VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  device_ops_.clear();
  fills_.clear();
  staged_copies_.clear();
  return bytes;
}

std::vector<UploadShareStats> UploadQueue::stats() {
  sync_frame();
  std::map<std::string, std::size_t> index;
  std::vector<UploadShareStats> out;
  std::vector<std::vector<std::uint64_t>> histories;
  for (const Share& s : shares_) {
    if (!s.live) continue;
    auto [it, fresh] = index.try_emplace(s.name, out.size());
    if (fresh) {
      out.push_back({});
      out.back().name = s.name;
      histories.emplace_back();
    }
    UploadShareStats& o = out[it->second];
    std::vector<std::uint64_t>& h = histories[it->second];
    o.budget += s.budget;
    o.frame_bytes += s.frame_bytes;
    o.max_frame_bytes += s.max_frame_bytes;  // an upper bound when one name has several shares
    o.frames = std::max(o.frames, s.frames);
    o.frames_over_budget += s.frames_over_budget;
    o.deferred += s.deferred;
    o.queued_bytes += s.queued_bytes;
    o.queued_copies += s.queued_copies;
    if (h.size() < s.history.size()) h.resize(s.history.size(), 0);
    for (std::size_t f = 0; f < s.history.size(); ++f) h[f] += s.history[f];
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i].p99_frame_bytes = p99(histories[i]);
  return out;
}

}  // namespace myriad::gpu
