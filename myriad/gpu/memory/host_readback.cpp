#include "myriad/gpu/memory/host_readback.hpp"

#include <algorithm>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"

namespace myriad::gpu {

HostReadback::HostReadback(const Context& ctx, VkDeviceSize size, const std::source_location& where)
    : host_(ctx, std::max<VkDeviceSize>(size, 4), 0, MemoryKind::kReadback, where) {
  std::memset(host_.mapped(), 0, host_.size());
}

void HostReadback::record_copy(VkCommandBuffer cmd, const Buffer& src, VkDeviceSize src_offset,
                               VkDeviceSize size, VkDeviceSize at) const {
  if (size == 0) return;
  if (at + size > host_.size())
    throw Error("host read-back: " + std::to_string(size) + " bytes at " + std::to_string(at) +
                " do not fit its " + std::to_string(host_.size()));
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const VkBufferCopy region{src_offset, at, size};
  vkCmdCopyBuffer(cmd, src.handle(), host_.handle(), 1, &region);
}

void HostReadback::record_host_barrier(VkCommandBuffer cmd) const {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

}  // namespace myriad::gpu
