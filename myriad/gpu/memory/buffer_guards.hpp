// Guard words past the end of GPU buffers (ContextOptions::buffer_guards; on in every GPU test).
//
// A compute pass that writes past the end of its buffer corrupts whatever lies behind it, and neither
// lavapipe nor the validation layer notices. With guards on, every gpu::Buffer is allocated
// kGuardBytes longer; the extra bytes hold a known word (filled at the start of the first submission
// after the buffer was made), descriptors still bind only the buffer's own size, and at the end of
// every submission the guards are copied back and compared. A changed word is reported as a
// validation message naming where the buffer was created, so every test that already demands zero
// validation messages also fails on an out-of-bounds write.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <source_location>
#include <string>
#include <unordered_map>
#include <vector>

#include "myriad/gpu/device/vk.hpp"

namespace myriad::gpu {

class Buffer;
class Context;

inline constexpr VkDeviceSize kGuardBytes = 256;
inline constexpr std::uint32_t kGuardWord = 0x6D79A5C3u;

class BufferGuards {
 public:
  explicit BufferGuards(Context& ctx);
  ~BufferGuards();
  BufferGuards(const BufferGuards&) = delete;
  BufferGuards& operator=(const BufferGuards&) = delete;

  // A new buffer whose guard starts at byte `offset` (its requested size). `mapped`: its host pointer
  // if it has one, whose guard is written at once; device-local guards are filled by the next
  // record_fills().
  void add(VkBuffer buffer, VkDeviceSize offset, void* mapped, const std::source_location& where);
  void remove(VkBuffer buffer) noexcept;

  // At the start of a command buffer: fills the guards not yet written, then a barrier.
  void record_fills(VkCommandBuffer cmd);
  // At the end of a command buffer: a barrier, then copies of every written guard for compare().
  void record_copies(VkCommandBuffer cmd);
  // After that command buffer completed: one message per guard found changed (each buffer once).
  std::vector<std::string> compare();

  std::size_t tracked() const;

 private:
  struct Entry {
    VkDeviceSize offset;
    std::string origin;  // "file:line" of the code that made the buffer
    bool filled;
    bool reported;
  };

  Context& ctx_;
  mutable std::mutex mutex_;
  std::unordered_map<VkBuffer, Entry> entries_;
  // Buffers whose guards the last record_copies() copied, in the readback buffer's order.
  std::vector<VkBuffer> copied_;
  std::unique_ptr<Buffer> readback_;
};

}  // namespace myriad::gpu
