#include "myriad/gpu/append_overflow.hpp"

#include "myriad/gpu/sync.hpp"

namespace myriad::gpu {

AppendOverflow::AppendOverflow(const Context& ctx)
    : device_(ctx, sizeof(std::uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::kDeviceLocal),
      host_(ctx, sizeof(std::uint32_t), 0, MemoryKind::kReadback) {
  *static_cast<std::uint32_t*>(host_.mapped()) = 0;
}

void AppendOverflow::record_reset(VkCommandBuffer cmd) const {
  // The previous pass's read-back copy finishes before the word is cleared, and its write to host
  // memory is ordered before this pass's copy.
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                 VK_ACCESS_2_TRANSFER_WRITE_BIT);
  vkCmdFillBuffer(cmd, device_.handle(), 0, sizeof(std::uint32_t), 0u);
}

void AppendOverflow::record_readback(VkCommandBuffer cmd) const {
  // A pass without its own reset (the late phase of two-phase culling) copies again: the previous
  // copy into host memory completes first.
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const VkBufferCopy region{0, 0, sizeof(std::uint32_t)};
  vkCmdCopyBuffer(cmd, device_.handle(), host_.handle(), 1, &region);
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

std::uint32_t AppendOverflow::read() const {
  host_.invalidate();
  return *static_cast<const std::uint32_t*>(host_.mapped());
}

}  // namespace myriad::gpu
