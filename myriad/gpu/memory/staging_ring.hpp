// The one per-frame upload path: a persistent, persistently mapped staging buffer used as a ring.
// Each frame's allocations are tagged with the frame; they are reused only after the caller reports
// that frame complete (its fence waited). A per-frame byte budget lets streaming work (pages, section
// instances) spread itself over frames instead of stalling one: budgeted allocations fail once the
// frame has staged that much, and the caller keeps the rest queued for the next frame. Per-frame data
// that must go every frame (entities, palettes, draw lists) allocates outside the budget but is counted.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>

#include "myriad/gpu/memory/buffer.hpp"

namespace myriad::gpu {

struct StagingRingStats {
  std::uint64_t frame_bytes = 0;     // staged in the current (or last) frame, budgeted or not
  std::uint64_t budgeted_bytes = 0;  // of which through allocate_budgeted
  std::uint64_t deferred = 0;        // budgeted allocations refused this frame (their work waits)
  std::uint64_t total_bytes = 0;     // since creation
  std::uint64_t peak_frame_bytes = 0;
};

class StagingRing {
 public:
  // `capacity`: the ring's bytes (the most all frames in flight can stage); `frame_budget`: what
  // allocate_budgeted may stage per frame.
  StagingRing(const Context& ctx, VkDeviceSize capacity, VkDeviceSize frame_budget);

  struct Span {
    std::byte* data = nullptr;  // mapped; write, then record a copy from (buffer, offset)
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
  };

  // Starts a frame: its allocations are tagged with the returned serial and its budget is fresh.
  std::uint64_t begin_frame();
  // The frame with `serial` and every earlier one completed on the GPU: their bytes can be reused.
  void complete(std::uint64_t serial);
  // Every frame begun so far completed (e.g. after a device wait).
  void complete_all() { complete(serial_); }
  // The serial of the current frame (0 before the first begin_frame).
  std::uint64_t serial() const { return serial_; }

  // `size` bytes at an `alignment` multiple (a power of two, at least 4), or nothing when the ring has
  // no room left before the oldest frame still in flight. Outside the frame budget.
  std::optional<Span> allocate(VkDeviceSize size, VkDeviceSize alignment = 16);
  // The same within the frame's budget: nothing once this frame staged `frame_budget` bytes through
  // here (a first allocation larger than the budget is granted alone, so no work waits forever).
  std::optional<Span> allocate_budgeted(VkDeviceSize size, VkDeviceSize alignment = 16);
  // allocate() for data that must go this frame: throws when the ring is full.
  Span reserve(VkDeviceSize size, VkDeviceSize alignment = 16);
  // Copies `bytes` into a fresh allocation (outside the budget). Throws when the ring is full.
  Span stage(std::span<const std::byte> bytes, VkDeviceSize alignment = 16);

  // The buffer (transfer source and storage: compute passes may read staged data directly).
  const Buffer& buffer() const { return buffer_; }
  VkDeviceSize capacity() const { return buffer_.size(); }
  VkDeviceSize frame_budget() const { return frame_budget_; }
  VkDeviceSize in_flight_bytes() const { return used_; }
  const StagingRingStats& stats() const { return stats_; }
  // Makes this frame's writes visible to the device (no-op on coherent memory).
  void flush() const { buffer_.flush(); }

 private:
  struct FrameMark {
    std::uint64_t serial;
    VkDeviceSize end;   // the head after the frame's last allocation
    VkDeviceSize used;  // bytes the frame holds (padding at a wrap included)
  };

  Buffer buffer_;
  VkDeviceSize frame_budget_;
  VkDeviceSize head_ = 0;  // next free byte
  VkDeviceSize used_ = 0;  // bytes held by frames not yet complete (and the current one)
  VkDeviceSize frame_used_ = 0;
  VkDeviceSize frame_budget_used_ = 0;
  std::uint64_t serial_ = 0;
  std::deque<FrameMark> in_flight_;  // oldest first; the current frame is not in it yet
  StagingRingStats stats_;
};

}  // namespace myriad::gpu
