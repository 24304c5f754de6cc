// Memory for allocations that all end together, such as the commands recorded into one command buffer:
// each allocation is a bump of an offset inside kept blocks, a release only counts, and once every
// allocation handed out has been released the arena rewinds to its first block. After the first frames
// the blocks cover the largest frame and a frame allocates nothing from the heap: the cost of an
// allocation no longer depends on what the heap holds (a general-purpose heap that has just taken back
// a frame's many small blocks may walk them all on the next large request).
//
// Bounded by construction: the blocks never hold more than `limit_bytes`; a request that would need
// more returns null, and the caller serves it elsewhere (CommandMemory falls back to the heap and counts
// it). Blocks are kept for reuse, never returned before destruction.
//
// Not thread-safe: one thread at a time (a command pool is externally synchronised).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace myriad {

struct FrameArenaStats {
  std::uint64_t allocations = 0;  // served from the blocks
  std::uint64_t refused = 0;      // over the limit: null returned
  std::uint64_t rewinds = 0;      // times every allocation was released and the offset went back
  std::size_t live = 0;           // allocations not yet released
  std::size_t block_bytes = 0;    // the blocks' bytes (what the arena holds)
  std::size_t blocks = 0;
  std::size_t peak_used_bytes = 0;  // the most bytes in use between two rewinds (padding included)
};

class FrameArena {
 public:
  // The first block's bytes (later blocks double, or fit a larger request) and the most all blocks
  // together may hold. Throws myriad::Error when first_block_bytes is 0 or above limit_bytes.
  explicit FrameArena(std::size_t first_block_bytes = std::size_t(256) << 10,
                      std::size_t limit_bytes = std::size_t(64) << 20);
  ~FrameArena();
  FrameArena(const FrameArena&) = delete;
  FrameArena& operator=(const FrameArena&) = delete;

  // `size` bytes aligned to `align` (a power of two; 0 reads as 1), or null when serving it would take
  // the blocks past the limit. size 0 returns a valid, unique-enough pointer that must be released too.
  void* allocate(std::size_t size, std::size_t align);
  // Ends one allocation this arena handed out (any order). Throws myriad::Error when nothing is live.
  void release();
  // True when `p` points into one of the blocks.
  bool owns(const void* p) const;

  const FrameArenaStats& stats() const { return stats_; }

 private:
  struct Block {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t size = 0;
  };
  void* bump(Block& block, std::size_t size, std::size_t align);
  void rewind();

  std::vector<Block> blocks_;
  std::size_t current_ = 0;      // the block being filled
  std::size_t offset_ = 0;       // bytes used in it
  std::size_t used_before_ = 0;  // bytes used in the blocks before it (for the peak)
  std::size_t first_block_bytes_;
  std::size_t limit_bytes_;
  FrameArenaStats stats_;
};

}  // namespace myriad
