#include "myriad/gpu/pipeline/rendering.hpp"

namespace myriad::gpu {

VkRenderingAttachmentInfo color_attachment(VkImageView view, const glm::vec4* clear) {
  VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  a.imageView = view;
  a.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  a.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
  a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  if (clear) a.clearValue.color = {{clear->r, clear->g, clear->b, clear->a}};
  return a;
}

VkRenderingAttachmentInfo depth_attachment(VkImageView view, bool clear) {
  VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  a.imageView = view;
  a.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  a.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
  a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  a.clearValue.depthStencil = {0.0f, 0};  // reverse-Z: far = 0
  return a;
}

void begin_rendering(VkCommandBuffer cmd, std::uint32_t width, std::uint32_t height,
                     const VkRenderingAttachmentInfo* color, const VkRenderingAttachmentInfo* depth) {
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, {width, height}};
  info.layerCount = 1;
  info.colorAttachmentCount = color ? 1u : 0u;
  info.pColorAttachments = color;
  info.pDepthAttachment = depth;
  vkCmdBeginRendering(cmd, &info);
  const VkViewport viewport{0.0f, 0.0f, float(width), float(height), 0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, {width, height}};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
}

}  // namespace myriad::gpu
