// synchronization2 barrier helpers: the few shapes of barrier Myriad records, named by intent.
#pragma once

#include "myriad/gpu/device/vk.hpp"

namespace myriad::gpu {

// A global memory barrier between two (stage, access) scopes.
void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

// Full barrier: everything before completes and is visible to everything after (setup paths only).
void full_barrier(VkCommandBuffer cmd);

// The three barriers of a compute pass that rewrites indirect-draw inputs (GPU culling), in order:
// earlier indirect-draw and vertex-shader reads of the outputs finish before transfers or compute
// rewrite them (execution only: nothing was written)...
void before_output_reset(VkCommandBuffer cmd);
// ...the reset's transfer writes (fill/update) are visible to the compute pass...
void after_output_reset(VkCommandBuffer cmd);
// ...and the compute pass's writes are visible to indirect draws, vertex shaders and copies.
void after_cull_dispatch(VkCommandBuffer cmd);

struct ImageTransition {
  VkImage image = VK_NULL_HANDLE;
  VkImageLayout old_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageLayout new_layout = VK_IMAGE_LAYOUT_GENERAL;
  VkPipelineStageFlags2 src_stage = VK_PIPELINE_STAGE_2_NONE;
  VkAccessFlags2 src_access = VK_ACCESS_2_NONE;
  VkPipelineStageFlags2 dst_stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkAccessFlags2 dst_access = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  std::uint32_t base_mip = 0;
  std::uint32_t mip_count = VK_REMAINING_MIP_LEVELS;
};

void image_barrier(VkCommandBuffer cmd, const ImageTransition& t);

}  // namespace myriad::gpu
