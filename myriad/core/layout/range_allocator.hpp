// Variable-length ranges inside a fixed capacity (e.g. vertices in a GPU arena). Best-fit from a
// free list with coalescing of neighbours; optional slack added to each allocation so a range can
// be rewritten in place when its content grows a little; the capacity never grows (V10), though an
// allocator may be shrunk once to what it holds (an arena sized to its content).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>

namespace myriad {

struct Range {
  std::uint32_t offset = 0;
  std::uint32_t size = 0;  // includes the slack
  friend bool operator==(const Range&, const Range&) = default;
};

class RangeAllocator {
 public:
  // `slack` is added to every request. Capacity 0 is allowed (every allocation fails).
  explicit RangeAllocator(std::uint32_t capacity, std::uint32_t slack = 0);

  // Reserves count + slack elements; nullopt when no free range is large enough. count 0 -> nullopt.
  std::optional<Range> allocate(std::uint32_t count);
  // Returns a range obtained from allocate(); throws myriad::Error on a range it did not hand out.
  void free(Range range);
  // True when `count` elements (without new slack) still fit inside an allocated `range`.
  static bool fits_in_place(Range range, std::uint32_t count) { return count <= range.size; }

  // Lowers the capacity to `capacity`, which must be at least end(): the free space past it is dropped.
  // Throws myriad::Error when an allocated range would fall outside.
  void shrink_to(std::uint32_t capacity);

  std::uint32_t capacity() const { return capacity_; }
  std::uint32_t slack() const { return slack_; }
  std::uint32_t used() const { return used_; }
  std::uint32_t free_total() const { return capacity_ - used_; }
  std::uint32_t largest_free() const;
  std::size_t free_range_count() const { return free_by_offset_.size(); }
  std::size_t allocation_count() const { return allocated_.size(); }
  // One past the last allocated element (0 with nothing allocated): a pass over the allocated elements
  // need go no further.
  std::uint32_t end() const {
    return allocated_.empty() ? 0u : allocated_.rbegin()->first + allocated_.rbegin()->second;
  }

 private:
  void insert_free(std::uint32_t offset, std::uint32_t size);
  void erase_free(std::map<std::uint32_t, std::uint32_t>::iterator it);

  std::uint32_t capacity_;
  std::uint32_t slack_;
  std::uint32_t used_ = 0;
  std::map<std::uint32_t, std::uint32_t> free_by_offset_;           // offset -> size
  std::set<std::pair<std::uint32_t, std::uint32_t>> free_by_size_;  // (size, offset)
  std::map<std::uint32_t, std::uint32_t> allocated_;                // offset -> size
};

}  // namespace myriad
