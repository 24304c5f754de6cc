#include "myriad/core/layout/frame_arena.hpp"

#include <algorithm>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad {

FrameArena::FrameArena(std::size_t first_block_bytes, std::size_t limit_bytes)
    : first_block_bytes_(first_block_bytes), limit_bytes_(limit_bytes) {
  if (first_block_bytes == 0 || first_block_bytes > limit_bytes) {
    throw Error("first block of " + std::to_string(first_block_bytes) + " bytes with a limit of " +
                    std::to_string(limit_bytes),
                "FrameArena", "give a first block of at least one byte and at most the limit");
  }
}

FrameArena::~FrameArena() = default;

void* FrameArena::bump(Block& block, std::size_t size, std::size_t align) {
  const auto base = reinterpret_cast<std::uintptr_t>(block.bytes.get());
  const std::uintptr_t at = (base + offset_ + (align - 1)) & ~std::uintptr_t(align - 1);
  if (at - base > block.size || size > block.size - (at - base)) return nullptr;
  offset_ = at - base + size;
  return reinterpret_cast<void*>(at);
}

void* FrameArena::allocate(std::size_t size, std::size_t align) {
  if (align == 0) align = 1;
  if ((align & (align - 1)) != 0)
    throw Error("alignment " + std::to_string(align) + " is not a power of two", "FrameArena::allocate");
  size = std::max<std::size_t>(size, 1);  // a distinct pointer inside a block, as owns() expects
  for (;;) {
    if (current_ < blocks_.size()) {
      if (void* p = bump(blocks_[current_], size, align)) {
        ++stats_.allocations;
        ++stats_.live;
        stats_.peak_used_bytes = std::max(stats_.peak_used_bytes, used_before_ + offset_);
        return p;
      }
      if (current_ + 1 < blocks_.size()) {  // a kept block further on
        used_before_ += offset_;
        ++current_;
        offset_ = 0;
        continue;
      }
    }
    // A new block: double the last (the first at its given size), at least what the request needs
    // with its alignment padding, within the limit.
    const std::size_t need = size + align - 1;
    if (need < size || need > limit_bytes_ - stats_.block_bytes) {
      ++stats_.refused;
      return nullptr;
    }
    std::size_t bytes = blocks_.empty() ? first_block_bytes_ : blocks_.back().size * 2;
    bytes = std::min(std::max(bytes, need), limit_bytes_ - stats_.block_bytes);
    blocks_.push_back({std::make_unique_for_overwrite<std::byte[]>(bytes), bytes});
    stats_.block_bytes += bytes;
    stats_.blocks = blocks_.size();
    if (blocks_.size() > 1) used_before_ += offset_;
    current_ = blocks_.size() - 1;
    offset_ = 0;
  }
}

void FrameArena::release() {
  if (stats_.live == 0) throw Error("release with no allocation live", "FrameArena::release");
  if (--stats_.live == 0) rewind();
}

void FrameArena::rewind() {
  current_ = 0;
  offset_ = 0;
  used_before_ = 0;
  ++stats_.rewinds;
}

bool FrameArena::owns(const void* p) const {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  return std::any_of(blocks_.begin(), blocks_.end(), [at](const Block& b) {
    const auto base = reinterpret_cast<std::uintptr_t>(b.bytes.get());
    return at >= base && at < base + b.size;
  });
}

}  // namespace myriad
