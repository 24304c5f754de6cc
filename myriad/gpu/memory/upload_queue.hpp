// The one way data reaches device buffers during a frame. Every system stages through it under a named
// share of the frame's byte budget; the queue owns what waits (CPU copies of bytes that did not fit),
// the copy regions, the fills, and the barriers around them, and reports bytes per share per frame.
//
// A frame: begin_frame() (the scene frame calls it) → systems stage, enqueue, fill and copy (CPU update
// and upload) → record() (any system's upload may call it; the scene frame calls it after every
// upload) → the frame's submission. record() writes, after an execution barrier on earlier work:
//
//   device copies and whole-buffer clears (in their order) → fills → copies from staging → one closing
//   barrier
//
// with a barrier between two groups only when both have work, so a fill may empty a range a device copy
// wrote, and a staged copy may land on a filled range.
//
// Budgets. A share's budgeted uploads (stage(), queued copies of a kBudgeted share) stop for the frame
// once the share staged `budget` bytes (a first one larger than the budget goes alone, so nothing
// waits forever) or the staging ring's frame budget is spent; what waits goes in later frames, oldest
// first. A kAllOrNone share stages everything it queued in one frame or nothing (its owner paces what
// it queues: geometry whose tables must never point at bytes that have not landed). Data that must go
// this frame (reserve) is never refused but counted in its share. The queue follows the staging ring's
// frames: whoever begins one (begin_frame here, or the ring's own) starts the queue's.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "myriad/gpu/memory/staging_ring.hpp"

namespace myriad::gpu {

using UploadShare = std::uint32_t;

// kBudgeted: stage() and queued copies within the share's budget. kAllOrNone: queued copies all in one
// frame or none (the budget is the owner's pacing, reported). kPerFrame: data that goes every frame
// (reserve() only; no budget).
enum class UploadPolicy : std::uint8_t { kBudgeted, kAllOrNone, kPerFrame };

// One share's figures. frame_* are of the last frame record() ran in; max and p99 over the frames the
// share saw (p99 over the last kHistoryFrames of them).
struct UploadShareStats {
  std::string name;
  std::uint64_t budget = 0;
  std::uint64_t frame_bytes = 0;  // staged this frame: budgeted, queued and must-go bytes
  std::uint64_t max_frame_bytes = 0;
  std::uint64_t p99_frame_bytes = 0;
  std::uint64_t frames = 0;              // frames with the share alive
  std::uint64_t frames_over_budget = 0;  // budgeted bytes above the budget (a lone oversized item)
  std::uint64_t deferred = 0;            // this frame: budgeted stagings refused (their work waits)
  std::uint64_t queued_bytes = 0;        // waiting in the queue now
  std::uint32_t queued_copies = 0;
};

class UploadQueue {
 public:
  static constexpr std::size_t kHistoryFrames = 4096;
  static constexpr std::int64_t kNoTag = -1;  // a queued copy drop(dst, tag) never names

  explicit UploadQueue(StagingRing& ring);

  // A share of the frame budget named `name` (reports add shares of one name together). Each call
  // makes a new share: two systems of one kind each get their budget. release() when the owner goes:
  // its queued work is dropped and it leaves the reports.
  UploadShare share(std::string_view name, std::uint64_t budget,
                    UploadPolicy policy = UploadPolicy::kBudgeted);
  void release(UploadShare share);

  // Starts a frame (the staging ring's): the last frame's bytes join the statistics.
  std::uint64_t begin_frame();

  // `size` bytes of staging for the caller to fill now, within the share's budget and the ring's frame
  // budget; nothing when those are spent (the caller keeps its work for a later frame). copy_from()
  // sends parts of it to buffers.
  std::optional<StagingRing::Span> stage(UploadShare share, VkDeviceSize size, VkDeviceSize alignment = 16);
  // Staging for data that must go this frame: never refused (throws when the ring is full). Copied with
  // copy_from(), or read in place by a shader.
  StagingRing::Span reserve(UploadShare share, VkDeviceSize size, VkDeviceSize alignment = 16);
  // record() copies `size` bytes at `from` in `staged` (from stage() or reserve()) to `dst` at
  // `dst_offset` (offsets multiples of 4).
  void copy_from(const StagingRing::Span& staged, VkDeviceSize from, VkBuffer dst, VkDeviceSize dst_offset,
                 VkDeviceSize size);

  // Keeps a copy of `bytes` for `dst` at `dst_offset` until record() stages it under the share's
  // policy. `tag` names what the bytes belong to (a section, a page), so drop() can discard a version
  // a newer one replaces.
  void enqueue(UploadShare share, VkBuffer dst, VkDeviceSize dst_offset, std::span<const std::byte> bytes,
               std::int64_t tag = kNoTag);
  // enqueue() for bytes the caller writes in place: `size` bytes to fill now (valid until the queue's next
  // call), so data gathered from several arrays is copied once.
  std::span<std::byte> enqueue_space(UploadShare share, VkBuffer dst, VkDeviceSize dst_offset,
                                     std::size_t size, std::int64_t tag = kNoTag);
  // Discards every queued copy to `dst` and, without a tag, every pending copy, clear and fill that
  // touches it (call before destroying a buffer that has work pending). With `tag`: only the queued
  // copies with that tag.
  void drop(VkBuffer dst);
  void drop(VkBuffer dst, std::int64_t tag);

  // Device work recorded before the fills and staged copies: a buffer-to-buffer copy (a pool grown into
  // a new buffer) and a whole buffer set to `value` (a new buffer's empty slots).
  void copy(VkBuffer src, VkBuffer dst, const VkBufferCopy& region);
  void clear(const Buffer& dst, std::uint32_t value);
  // `size` bytes at `offset` (multiples of 4) set to `value`, after copies and clears, before staged
  // copies.
  void fill(VkBuffer dst, VkDeviceSize offset, VkDeviceSize size, std::uint32_t value);

  // Stages what the budgets allow of the queued copies and records everything pending (order above).
  // Nothing is recorded when nothing is pending. Returns the bytes copied from staging.
  std::uint64_t record(VkCommandBuffer cmd);

  // Whether anything waits for record() (queued copies included).
  bool pending() const;
  std::uint64_t queued_bytes(UploadShare share) const { return shares_.at(share).queued_bytes; }
  std::uint32_t queued_copies(UploadShare share) const { return shares_.at(share).queued_copies; }
  // Bytes the share staged since begin_frame().
  std::uint64_t frame_bytes(UploadShare share) const { return shares_.at(share).frame_bytes; }
  std::uint64_t budget(UploadShare share) const { return shares_.at(share).budget; }
  // Bytes the share staged since it was made (a monotonic count: an owner's difference between two of
  // its calls is what went in between, whichever record() staged it).
  std::uint64_t staged_total(UploadShare share) const { return shares_.at(share).staged_total; }
  // The live shares' figures, one entry per name (shares of one name added; budgets too).
  std::vector<UploadShareStats> stats();
  StagingRing& ring() { return ring_; }

 private:
  struct Share {
    std::string name;
    std::uint64_t budget = 0;
    UploadPolicy policy = UploadPolicy::kBudgeted;
    bool live = true;
    bool blocked = false;  // a budgeted staging was refused this frame: the rest of its queue waits
    std::uint64_t frame_bytes = 0, budgeted_bytes = 0, deferred = 0;
    std::uint64_t queued_bytes = 0;
    std::uint32_t queued_copies = 0;
    std::uint64_t staged_total = 0;
    std::uint64_t frames = 0, max_frame_bytes = 0, frames_over_budget = 0;
    std::vector<std::uint64_t> history;  // frame bytes, a ring of kHistoryFrames
  };
  struct Queued {
    UploadShare share;
    std::int64_t tag;
    VkBuffer dst;
    VkDeviceSize dst_offset, size;
    std::size_t at;  // in bytes_
    bool dropped;
  };
  struct Copy {
    VkBuffer src, dst;
    VkBufferCopy region;
  };
  struct DeviceOp {
    VkBuffer src;  // VK_NULL_HANDLE: a clear of region.size bytes to `value`
    VkBuffer dst;
    VkBufferCopy region;
    std::uint32_t value;
  };
  struct Fill {
    VkBuffer dst;
    VkDeviceSize offset, size;
    std::uint32_t value;
  };

  Share& live_share(UploadShare share);
  // Rolls the statistics into a new frame when the staging ring began one.
  void sync_frame();
  bool budget_allows(const Share& s, VkDeviceSize size) const;
  void discard(Queued& q);
  void stage_all_or_none(UploadShare share);
  void stage_queued();
  void compact_queue();
  void record_fills(VkCommandBuffer cmd);
  std::uint64_t record_staged_copies(VkCommandBuffer cmd);

  StagingRing& ring_;
  std::vector<Share> shares_;
  std::vector<Queued> queued_;  // oldest first
  // The queued bytes: a store kept across frames up to kKeptQueueBytes of capacity (a streamed terrain
  // frame's budget four times over), uninitialised when it grows; more (a whole world's first upload) gives
  // its memory back. (Freeing it every frame made each large frame fault its pages in again.)
  static constexpr std::size_t kKeptQueueBytes = std::size_t(4) << 20;
  std::byte* grow_bytes(std::size_t size);  // `size` more bytes at the aligned end: where they go
  std::unique_ptr<std::byte[]> bytes_;
  std::size_t bytes_size_ = 0, bytes_capacity_ = 0;
  std::size_t dead_bytes_ = 0;        // of bytes_, of entries staged or dropped
  std::size_t tagged_ = 0;            // queued entries with a tag, neither staged nor dropped
  std::uint64_t frame_serial_ = 0;    // the staging ring frame the per-frame figures are of
  std::vector<DeviceOp> device_ops_;  // in submission order
  std::vector<Copy> staged_copies_;
  std::vector<Fill> fills_;
  // record()'s scratch
  std::vector<Fill> merged_fills_;
  std::vector<Copy> sorted_copies_;
  std::vector<VkBufferCopy> regions_;
};

// A share released when its owner goes (a member of the system that stages under it).
class OwnedUploadShare {
 public:
  OwnedUploadShare(UploadQueue& queue, std::string_view name, std::uint64_t budget = 0,
                   UploadPolicy policy = UploadPolicy::kPerFrame)
      : queue_(&queue), id_(queue.share(name, budget, policy)) {}
  ~OwnedUploadShare() {
    if (queue_) queue_->release(id_);
  }
  OwnedUploadShare(OwnedUploadShare&& o) noexcept : queue_(o.queue_), id_(o.id_) { o.queue_ = nullptr; }
  OwnedUploadShare& operator=(OwnedUploadShare&& o) noexcept {
    if (this != &o) {
      if (queue_) queue_->release(id_);
      queue_ = o.queue_;
      id_ = o.id_;
      o.queue_ = nullptr;
    }
    return *this;
  }
  OwnedUploadShare(const OwnedUploadShare&) = delete;
  OwnedUploadShare& operator=(const OwnedUploadShare&) = delete;
  operator UploadShare() const { return id_; }

 private:
  UploadQueue* queue_;
  UploadShare id_;
};

}  // namespace myriad::gpu
