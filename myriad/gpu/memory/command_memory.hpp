// Host memory for a command pool: the VkAllocationCallbacks a pool is created with. While a command
// buffer is being recorded (between open() and close()) the driver's allocations are served from a
// FrameArena; at any other time (the pool itself, the command buffer object, which a driver may keep
// for reuse) from the heap. A driver that allocates per recorded command (a CPU implementation does:
// each draw, bind and barrier is an entry) then costs a pointer bump per command, and freeing the frame's
// commands no longer hands the heap hundreds of small blocks that a later large request has to walk.
//
// Always yields memory: an arena request refused at its limit is served by the heap and counted
// (`heap_fallbacks`). Every allocation carries a small header saying where it came from, so frees and
// reallocations need no lookup. Use one CommandMemory per pool, on the thread that owns the pool; it
// must outlive the pool (vkDestroyCommandPool frees through it).
#pragma once

#include <cstddef>
#include <cstdint>

#include "myriad/core/layout/frame_arena.hpp"
#include "myriad/gpu/device/vk.hpp"

namespace myriad::gpu {

struct CommandMemoryStats {
  std::uint64_t arena_allocations = 0;  // served by the arena while recording
  std::uint64_t heap_allocations = 0;   // served by the heap outside recording
  std::uint64_t heap_fallbacks = 0;     // while recording, refused by the arena and served by the heap
  std::uint64_t reallocations = 0;
  std::size_t arena_bytes = 0;       // the arena's blocks
  std::size_t arena_peak_bytes = 0;  // the most one recording used
  std::uint64_t arena_rewinds = 0;
};

class CommandMemory {
 public:
  explicit CommandMemory(std::size_t first_block_bytes = std::size_t(256) << 10,
                         std::size_t limit_bytes = std::size_t(64) << 20);
  CommandMemory(const CommandMemory&) = delete;
  CommandMemory& operator=(const CommandMemory&) = delete;

  // Pass to vkCreateCommandPool and vkDestroyCommandPool.
  const VkAllocationCallbacks* callbacks() const { return &callbacks_; }

  // Recording starts (after vkBeginCommandBuffer) and ends (after vkEndCommandBuffer). The arena's
  // memory is reused once every allocation made while open has been freed (the command buffer reset or
  // freed), so open/close bracket one command buffer's recording at a time.
  void open() { open_ = true; }
  void close() { open_ = false; }
  bool is_open() const { return open_; }

  CommandMemoryStats stats() const;

 private:
  static void* VKAPI_PTR allocate(void* user, std::size_t size, std::size_t align,
                                  VkSystemAllocationScope scope) noexcept;
  static void* VKAPI_PTR reallocate(void* user, void* original, std::size_t size, std::size_t align,
                                    VkSystemAllocationScope scope) noexcept;
  // Noexcept: a throw here (a release the arena never handed out) is a bug and must not cross the driver.
  static void VKAPI_PTR free(void* user, void* memory) noexcept;
  void* take(std::size_t size, std::size_t align);
  void give_back(void* memory);

  FrameArena arena_;
  VkAllocationCallbacks callbacks_{};
  bool open_ = false;
  std::uint64_t heap_allocations_ = 0;
  std::uint64_t heap_fallbacks_ = 0;
  std::uint64_t reallocations_ = 0;
};

}  // namespace myriad::gpu
