// Best-fit range allocation over a fixed capacity. Free ranges are indexed twice: by offset (to find
// neighbours when coalescing) and by (size, offset) (to find the smallest fit, lowest offset first).
#include "myriad/core/layout/range_allocator.hpp"

#include <iterator>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad {

RangeAllocator::RangeAllocator(std::uint32_t capacity, std::uint32_t slack)
    : capacity_(capacity), slack_(slack) {
  if (capacity_ > 0) insert_free(0, capacity_);
}

std::optional<Range> RangeAllocator::allocate(std::uint32_t count) {
  if (count == 0) return std::nullopt;
  const std::uint64_t wanted = std::uint64_t{count} + slack_;
  if (wanted > capacity_ - used_) return std::nullopt;
  const auto size = static_cast<std::uint32_t>(wanted);
  const auto fit = free_by_size_.lower_bound({size, 0});
  if (fit == free_by_size_.end()) return std::nullopt;
  const auto [free_size, offset] = *fit;
  erase_free(free_by_offset_.find(offset));
  if (free_size > size) insert_free(offset + size, free_size - size);
  allocated_.emplace(offset, size);
  used_ += size;
  return Range{offset, size};
}

void RangeAllocator::free(Range range) {
  const auto it = allocated_.find(range.offset);
  if (it == allocated_.end() || it->second != range.size) {
    throw Error("RangeAllocator::free: range was not handed out by this allocator (or was freed already)",
                "offset " + std::to_string(range.offset) + ", size " + std::to_string(range.size),
                "free exactly the Range that allocate() returned, once");
  }
  allocated_.erase(it);
  used_ -= range.size;

  std::uint32_t offset = range.offset;
  std::uint32_t size = range.size;
  auto next = free_by_offset_.lower_bound(offset);
  if (next != free_by_offset_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      size += prev->second;
      erase_free(prev);
    }
  }
  if (next != free_by_offset_.end() && next->first == range.offset + range.size) {
    size += next->second;
    erase_free(next);
  }
  insert_free(offset, size);
}

void RangeAllocator::shrink_to(std::uint32_t capacity) {
  if (capacity < end()) {
    throw Error("RangeAllocator::shrink_to: allocated ranges reach past the new capacity",
                std::to_string(end()) + " > " + std::to_string(capacity), "shrink to at least end()");
  }
  if (capacity >= capacity_) return;
  // Everything from end() on is free: the last free range, if any, reaches capacity_.
  if (!free_by_offset_.empty()) {
    const auto last = std::prev(free_by_offset_.end());
    const std::uint32_t offset = last->first;
    erase_free(last);
    if (capacity > offset) insert_free(offset, capacity - offset);
  }
  capacity_ = capacity;
}

std::uint32_t RangeAllocator::largest_free() const {
  return free_by_size_.empty() ? 0 : free_by_size_.rbegin()->first;
}

void RangeAllocator::insert_free(std::uint32_t offset, std::uint32_t size) {
  free_by_offset_.emplace(offset, size);
  free_by_size_.emplace(size, offset);
}

void RangeAllocator::erase_free(std::map<std::uint32_t, std::uint32_t>::iterator it) {
  free_by_size_.erase({it->second, it->first});
  free_by_offset_.erase(it);
}

}  // namespace myriad
