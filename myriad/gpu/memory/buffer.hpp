// GPU buffers: device-local, upload (host-visible, mapped) and readback (host-cached, mapped), with
// their device address for shaders that reach data through buffer_reference (arenas larger than
// maxStorageBufferRange). One allocation per buffer: Myriad's buffers are few and long-lived.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <source_location>
#include <span>
#include <vector>

#include "myriad/gpu/memory/buffer_guards.hpp"
#include "myriad/gpu/device/context.hpp"

namespace myriad::gpu {

enum class MemoryKind {
  kDeviceLocal,  // fastest for the GPU; filled by copies
  kUpload,       // host-visible + coherent, persistently mapped; CPU writes, GPU reads
  kReadback,     // host-visible + cached, persistently mapped; GPU writes, CPU reads
};

class Buffer {
 public:
  Buffer() = default;
  // Transfer src/dst and device-address usage are always added. With the context's buffer guards on,
  // the allocation is kGuardBytes longer and `where` names the buffer in guard reports.
  Buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind kind,
         const std::source_location& where = std::source_location::current());
  // A buffer without guards even when the context has them (the guards' own read-back buffer).
  static Buffer unguarded(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind kind);
  ~Buffer() { reset(); }
  Buffer(Buffer&& o) noexcept { *this = std::move(o); }
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  // The size asked for (guard bytes, when present, lie past it and are never bound).
  VkDeviceSize size() const { return size_; }
  VkDeviceAddress address() const { return address_; }
  MemoryKind kind() const { return kind_; }
  // Mapped pointer for kUpload/kReadback buffers, nullptr for device-local ones.
  void* mapped() const { return mapped_; }
  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }

  // For mapped buffers: make CPU writes visible to / GPU writes visible from the host when the memory
  // is not coherent.
  void flush() const;
  void invalidate() const;

  void reset() noexcept;

 private:
  void create(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind kind,
              BufferGuards* guards, const std::source_location& where);

  VkDevice device_ = VK_NULL_HANDLE;
  BufferGuards* guards_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  VkDeviceAddress address_ = 0;
  MemoryKind kind_ = MemoryKind::kDeviceLocal;
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

// A device-local storage buffer, plus `extra_usage` (e.g. indirect): the arrays passes write on the GPU.
Buffer make_storage_buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags extra_usage = 0,
                           const std::source_location& where = std::source_location::current());

std::uint32_t find_memory_type(const Context& ctx, std::uint32_t type_bits, VkMemoryPropertyFlags want,
                               VkMemoryPropertyFlags avoid = 0);

// Copies `bytes` into `dst` at `offset` through a temporary staging buffer and waits (setup path).
void upload(Context& ctx, const Buffer& dst, std::span<const std::byte> bytes, VkDeviceSize offset = 0);

template <class T>
void upload(Context& ctx, const Buffer& dst, std::span<const T> values, VkDeviceSize offset = 0) {
  upload(ctx, dst, std::as_bytes(values), offset);
}

// A device-local buffer of `usage` made to hold `values` and filled with them (setup of static data
// such as meshes; upload()'s path).
template <class T>
Buffer make_filled_buffer(Context& ctx, std::span<const T> values, VkBufferUsageFlags usage,
                          const std::source_location& where = std::source_location::current()) {
  Buffer b(ctx, values.size_bytes(), usage, MemoryKind::kDeviceLocal, where);
  upload(ctx, b, values);
  return b;
}

// What every read-back shares: in one submission (waited for) `record` copies `size` bytes into the
// staging buffer it is given; the copy is then made visible to the host and returned (size 0: nothing
// is recorded, the result is empty).
std::vector<std::byte> read_back(Context& ctx, VkDeviceSize size,
                                 const std::function<void(VkCommandBuffer, const Buffer& staging)>& record);

// Copies [offset, offset+size) of `src` back to the CPU and waits (tests, tools).
std::vector<std::byte> read_buffer(Context& ctx, const Buffer& src, VkDeviceSize offset, VkDeviceSize size);

template <class T>
std::vector<T> read_buffer_as(Context& ctx, const Buffer& src, std::size_t count, VkDeviceSize offset = 0) {
  const std::vector<std::byte> bytes = read_buffer(ctx, src, offset, count * sizeof(T));
  std::vector<T> out(count);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace myriad::gpu
