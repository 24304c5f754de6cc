// Where a streamer keeps what it holds: a pool of slots that are reused after eviction (a released slot
// keeps its buffers, so the next item streamed into it allocates nothing once the pool has grown to the
// ring's size), and a dense grid from a bounded world's cell to its slot. Memory is bounded by the most
// slots ever held at once, never by the distance travelled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace myriad {

template <class T>
class SlotPool {
 public:
  // A released slot when there is one (its T as it was left: the caller resets what it must and keeps
  // the capacity), else a new default one. `fresh` (optional) says which.
  std::int32_t acquire(bool* fresh = nullptr) {
    if (fresh) *fresh = free_.empty();
    if (!free_.empty()) {
      const std::int32_t s = free_.back();
      free_.pop_back();
      return s;
    }
    slots_.emplace_back();
    return std::int32_t(slots_.size() - 1);
  }
  void release(std::int32_t s) { free_.push_back(s); }

  T& operator[](std::int32_t s) { return slots_[std::size_t(s)]; }
  const T& operator[](std::int32_t s) const { return slots_[std::size_t(s)]; }
  // Slots ever made (held and free): what bounds the memory.
  std::size_t size() const { return slots_.size(); }
  std::size_t held() const { return slots_.size() - free_.size(); }
  auto begin() { return slots_.begin(); }
  auto end() { return slots_.end(); }
  auto begin() const { return slots_.begin(); }
  auto end() const { return slots_.end(); }

 private:
  std::vector<T> slots_;  // never shrinks: references stay valid until the next acquire
  std::vector<std::int32_t> free_;
};

// A bounded grid's cells (x, y in 0..size - 1) to slots; -1 where nothing is held.
class GridSlots {
 public:
  GridSlots() = default;
  explicit GridSlots(glm::ivec2 size) : size_(size), slot_(std::size_t(size.x) * std::size_t(size.y), -1) {}

  glm::ivec2 size() const { return size_; }
  bool inside(glm::ivec2 c) const { return c.x >= 0 && c.y >= 0 && c.x < size_.x && c.y < size_.y; }
  // Row-major index of an inside cell: for per-cell arrays kept beside the table.
  std::size_t index(glm::ivec2 c) const { return std::size_t(c.y) * std::size_t(size_.x) + std::size_t(c.x); }
  std::size_t cells() const { return slot_.size(); }
  // The cell's slot; -1 outside the grid or when nothing is held.
  std::int32_t operator[](glm::ivec2 c) const { return inside(c) ? slot_[index(c)] : -1; }
  void set(glm::ivec2 c, std::int32_t s) { slot_[index(c)] = s; }
  void clear(glm::ivec2 c) { slot_[index(c)] = -1; }

 private:
  glm::ivec2 size_{0};
  std::vector<std::int32_t> slot_;
};

}  // namespace myriad
