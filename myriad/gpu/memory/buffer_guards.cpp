#include "myriad/gpu/memory/buffer_guards.hpp"

#include <cstring>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/sync/sync.hpp"

namespace myriad::gpu {
namespace {

constexpr std::size_t kGuardWords = kGuardBytes / sizeof(std::uint32_t);

std::string origin_of(const std::source_location& where) {
  std::string file = where.file_name();
  // Paths below the source tree read better without the build machine's prefix.
  if (const auto at = file.find("myriad/"); at != std::string::npos) file = file.substr(at);
  return file + ":" + std::to_string(where.line());
}

}  // namespace

BufferGuards::BufferGuards(Context& ctx) : ctx_(ctx) {}

BufferGuards::~BufferGuards() = default;

void BufferGuards::add(VkBuffer buffer, VkDeviceSize offset, void* mapped,
                       const std::source_location& where) {
  bool filled = false;
  if (mapped) {
    auto* words = reinterpret_cast<std::uint32_t*>(static_cast<std::byte*>(mapped) + offset);
    for (std::size_t i = 0; i < kGuardWords; ++i) words[i] = kGuardWord;
    filled = true;
  }
  std::lock_guard lock(mutex_);
  entries_[buffer] = Entry{offset, origin_of(where), filled, false};
}

void BufferGuards::remove(VkBuffer buffer) noexcept {
  std::lock_guard lock(mutex_);
  entries_.erase(buffer);
}

std::size_t BufferGuards::tracked() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

void BufferGuards::record_fills(VkCommandBuffer cmd) {
  std::lock_guard lock(mutex_);
  bool any = false;
  for (auto& [buffer, e] : entries_) {
    if (e.filled) continue;
    vkCmdFillBuffer(cmd, buffer, e.offset, kGuardBytes, kGuardWord);
    e.filled = true;
    any = true;
  }
  // The fills land before anything the command buffer does next (an overrun must find the pattern).
  if (any)
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                   VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

void BufferGuards::record_copies(VkCommandBuffer cmd) {
  std::lock_guard lock(mutex_);
  copied_.clear();
  for (const auto& [buffer, e] : entries_)
    if (e.filled && !e.reported) copied_.push_back(buffer);
  if (copied_.empty()) return;
  const VkDeviceSize bytes = copied_.size() * kGuardBytes;
  if (!readback_ || readback_->size() < bytes) {
    // The previous submission has completed (compare() ran), so the old buffer is free to go.
    readback_ = std::make_unique<Buffer>(Buffer::unguarded(ctx_, bytes * 2, 0, MemoryKind::kReadback));
  }
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  for (std::size_t i = 0; i < copied_.size(); ++i) {
    const VkBufferCopy region{entries_.at(copied_[i]).offset, i * kGuardBytes, kGuardBytes};
    vkCmdCopyBuffer(cmd, copied_[i], readback_->handle(), 1, &region);
  }
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

std::vector<std::string> BufferGuards::compare() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> damaged;
  if (copied_.empty()) return damaged;
  readback_->invalidate();
  const auto* words = static_cast<const std::uint32_t*>(readback_->mapped());
  for (std::size_t i = 0; i < copied_.size(); ++i) {
    const auto it = entries_.find(copied_[i]);
    if (it == entries_.end()) continue;  // destroyed since (after its last use)
    const std::uint32_t* guard = words + i * kGuardWords;
    std::size_t first = kGuardWords;
    for (std::size_t w = 0; w < kGuardWords; ++w)
      if (guard[w] != kGuardWord) {
        first = w;
        break;
      }
    if (first == kGuardWords) continue;
    it->second.reported = true;
    damaged.push_back("buffer guard: a GPU buffer of " + std::to_string(it->second.offset) +
                      " bytes made at " + it->second.origin + " was written past its end (byte " +
                      std::to_string(it->second.offset + first * 4) + ")");
  }
  copied_.clear();
  return damaged;
}

}  // namespace myriad::gpu
