#include "myriad/gpu/memory/staging_ring.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad::gpu {

StagingRing::StagingRing(const Context& ctx, VkDeviceSize capacity, VkDeviceSize frame_budget)
    : buffer_(ctx, capacity, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
              MemoryKind::kUpload),
      frame_budget_(frame_budget) {
  if (capacity == 0) throw Error("StagingRing: zero capacity");
}

std::uint64_t StagingRing::begin_frame() {
  // The previous frame (if it staged anything) joins those in flight.
  if (frame_used_ > 0) in_flight_.push_back({serial_, head_, frame_used_});
  ++serial_;
  frame_used_ = 0;
  frame_budget_used_ = 0;
  stats_.frame_bytes = 0;
  stats_.budgeted_bytes = 0;
  stats_.deferred = 0;
  return serial_;
}

void StagingRing::complete(std::uint64_t serial) {
  while (!in_flight_.empty() && in_flight_.front().serial <= serial) {
    used_ -= in_flight_.front().used;
    in_flight_.pop_front();
  }
  // The current frame completed too: its bytes are free and the next allocation starts after them.
  if (serial >= serial_ && frame_used_ > 0) {
    used_ -= frame_used_;
    frame_used_ = 0;
  }
  if (used_ == 0) head_ = 0;  // nothing in flight: start from the beginning, the most room in one piece
}

std::optional<StagingRing::Span> StagingRing::allocate(VkDeviceSize size, VkDeviceSize alignment) {
  if (size == 0) return Span{static_cast<std::byte*>(buffer_.mapped()) + head_, buffer_.handle(), head_, 0};
  const VkDeviceSize capacity = buffer_.size();
  const VkDeviceSize aligned = (head_ + alignment - 1) & ~(alignment - 1);
  VkDeviceSize start = aligned, padding = aligned - head_;
  if (aligned + size > capacity) {  // wrap: the bytes up to the end are skipped
    start = 0;
    padding = capacity - head_;
  }
  // The free region runs from head_ (after wrapping, from 0) to the oldest in-flight byte.
  const VkDeviceSize free = capacity - used_;
  if (size > capacity || padding + size > free) return std::nullopt;
  head_ = start + size;
  used_ += padding + size;
  frame_used_ += padding + size;
  stats_.frame_bytes += size;
  stats_.total_bytes += size;
  stats_.peak_frame_bytes = std::max(stats_.peak_frame_bytes, stats_.frame_bytes);
  return Span{static_cast<std::byte*>(buffer_.mapped()) + start, buffer_.handle(), start, size};
}

std::optional<StagingRing::Span> StagingRing::allocate_budgeted(VkDeviceSize size, VkDeviceSize alignment) {
  if (frame_budget_used_ > 0 && frame_budget_used_ + size > frame_budget_) {
    ++stats_.deferred;
    return std::nullopt;
  }
  std::optional<Span> span = allocate(size, alignment);
  if (!span) {
    ++stats_.deferred;
    return std::nullopt;
  }
  frame_budget_used_ += size;
  stats_.budgeted_bytes += size;
  return span;
}

StagingRing::Span StagingRing::reserve(VkDeviceSize size, VkDeviceSize alignment) {
  std::optional<Span> span = allocate(size, alignment);
  if (!span)
    throw Error("staging ring full: " + std::to_string(size) + " bytes asked, " +
                    std::to_string(buffer_.size() - used_) + " of " + std::to_string(buffer_.size()) +
                    " free",
                "StagingRing", "complete earlier frames first, or give the ring more capacity");
  return *span;
}

StagingRing::Span StagingRing::stage(std::span<const std::byte> bytes, VkDeviceSize alignment) {
  const Span span = reserve(bytes.size(), alignment);
  if (!bytes.empty()) std::memcpy(span.data, bytes.data(), bytes.size());
  return span;
}

}  // namespace myriad::gpu
