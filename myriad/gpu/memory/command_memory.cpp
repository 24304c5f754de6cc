#include "myriad/gpu/memory/command_memory.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace myriad::gpu {
namespace {

// Just before every payload: its size and where its allocation starts (the payload's offset into it,
// which is also the allocation's alignment), and whether the heap or the arena holds it.
struct Header {
  std::uint64_t size = 0;
  std::uint32_t offset = 0;
  std::uint32_t from_heap = 0;
};
static_assert(sizeof(Header) == 16);

Header& header_of(void* payload) { return *(static_cast<Header*>(payload) - 1); }

}  // namespace

CommandMemory::CommandMemory(std::size_t first_block_bytes, std::size_t limit_bytes)
    : arena_(first_block_bytes, limit_bytes) {
  callbacks_.pUserData = this;
  callbacks_.pfnAllocation = &CommandMemory::allocate;
  callbacks_.pfnReallocation = &CommandMemory::reallocate;
  callbacks_.pfnFree = &CommandMemory::free;
}

void* CommandMemory::take(std::size_t size, std::size_t align) {
  // The payload starts `offset` bytes in: a multiple of its alignment with room for the header.
  const std::size_t offset = std::max(std::max<std::size_t>(align, 1), sizeof(Header));
  if (offset > UINT32_MAX || size > SIZE_MAX - offset || (offset & (offset - 1)) != 0) return nullptr;
  std::byte* base = nullptr;
  if (open_) {
    base = static_cast<std::byte*>(arena_.allocate(offset + size, offset));
    if (!base) ++heap_fallbacks_;  // past the arena's limit
  } else {
    ++heap_allocations_;
  }
  const bool from_heap = base == nullptr;
  if (from_heap) {
    base = static_cast<std::byte*>(::operator new(offset + size, std::align_val_t(offset), std::nothrow));
    if (!base) return nullptr;
  }
  void* payload = base + offset;
  header_of(payload) = {size, std::uint32_t(offset), from_heap ? 1u : 0u};
  return payload;
}

void CommandMemory::give_back(void* memory) {
  if (!memory) return;
  const Header h = header_of(memory);
  std::byte* base = static_cast<std::byte*>(memory) - h.offset;
  if (h.from_heap)
    ::operator delete(base, std::align_val_t(h.offset));
  else
    arena_.release();
}

void* VKAPI_PTR CommandMemory::allocate(void* user, std::size_t size, std::size_t align,
                                        VkSystemAllocationScope) noexcept {
  return static_cast<CommandMemory*>(user)->take(size, align);
}

void* VKAPI_PTR CommandMemory::reallocate(void* user, void* original, std::size_t size, std::size_t align,
                                          VkSystemAllocationScope) noexcept {
  auto& self = *static_cast<CommandMemory*>(user);
  ++self.reallocations_;
  if (size == 0) {  // as the Vulkan specification asks: a free, returning null
    self.give_back(original);
    return nullptr;
  }
  void* moved = self.take(size, align);
  if (!moved || !original) return moved;  // on failure the original stays valid
  std::memcpy(moved, original, std::min<std::uint64_t>(header_of(original).size, size));
  self.give_back(original);
  return moved;
}

void VKAPI_PTR CommandMemory::free(void* user, void* memory) noexcept {
  static_cast<CommandMemory*>(user)->give_back(memory);
}

CommandMemoryStats CommandMemory::stats() const {
  const FrameArenaStats& a = arena_.stats();
  CommandMemoryStats s;
  s.arena_allocations = a.allocations;
  s.heap_allocations = heap_allocations_;
  s.heap_fallbacks = heap_fallbacks_;
  s.reallocations = reallocations_;
  s.arena_bytes = a.block_bytes;
  s.arena_peak_bytes = a.peak_used_bytes;
  s.arena_rewinds = a.rewinds;
  return s;
}

}  // namespace myriad::gpu
