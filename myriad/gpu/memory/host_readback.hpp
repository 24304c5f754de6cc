// A frame's GPU results (draw counts, visible lists) copied into host memory inside the frame and read
// once its submission completed: statistics without a submission of their own, so reading them never
// waits on the queue. Record the copies after the writes' barrier (e.g. gpu::after_cull_dispatch, which
// makes compute writes visible to copies), then record_host_barrier.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "myriad/gpu/memory/buffer.hpp"

namespace myriad::gpu {

class HostReadback {
 public:
  HostReadback() = default;
  HostReadback(const Context& ctx, VkDeviceSize size,
               const std::source_location& where = std::source_location::current());

  // Copies [src_offset, src_offset + size) of `src` to byte `at` of the host buffer. An earlier copy
  // into the host buffer completes first (the previous frame's, or this frame's other pass's).
  void record_copy(VkCommandBuffer cmd, const Buffer& src, VkDeviceSize src_offset, VkDeviceSize size,
                   VkDeviceSize at) const;
  // After the copies: they are visible to host reads once the submission completed.
  void record_host_barrier(VkCommandBuffer cmd) const;

  // After the submission completed: `count` values from byte `at` (what the last copy there wrote;
  // zeros before any).
  template <class T>
  std::vector<T> read(VkDeviceSize at, std::size_t count) const {
    host_.invalidate();
    std::vector<T> out(count);
    if (count > 0)
      std::memcpy(out.data(), static_cast<const std::byte*>(host_.mapped()) + at, count * sizeof(T));
    return out;
  }
  VkDeviceSize size() const { return host_.size(); }

 private:
  Buffer host_;
};

}  // namespace myriad::gpu
