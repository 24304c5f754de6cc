#include "myriad/gpu/memory/append_overflow.hpp"

#include "myriad/gpu/sync/sync.hpp"

namespace myriad::gpu {

AppendOverflow::AppendOverflow(const Context& ctx)
    : device_(ctx, sizeof(std::uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::kDeviceLocal),
      host_(ctx, sizeof(std::uint32_t)) {}

void AppendOverflow::record_reset(VkCommandBuffer cmd) const {
  // The previous pass's read-back copy finishes before the word is cleared, and its write to host
  // memory is ordered before this pass's copy.
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                 VK_ACCESS_2_TRANSFER_WRITE_BIT);
  vkCmdFillBuffer(cmd, device_.handle(), 0, sizeof(std::uint32_t), 0u);
}

void AppendOverflow::record_readback(VkCommandBuffer cmd) const {
  // A pass without its own reset (the late phase of two-phase culling) copies again: record_copy
  // orders the copy after the previous one.
  host_.record_copy(cmd, device_, 0, sizeof(std::uint32_t), 0);
  host_.record_host_barrier(cmd);
}

std::uint32_t AppendOverflow::read() const { return host_.read<std::uint32_t>(0, 1)[0]; }

}  // namespace myriad::gpu
