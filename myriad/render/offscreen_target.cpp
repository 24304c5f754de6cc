#include "myriad/render/offscreen_target.hpp"

#include <cstring>

#include "myriad/gpu/sync.hpp"

namespace myriad::render {

OffscreenTarget::OffscreenTarget(gpu::Context& ctx, std::uint32_t width, std::uint32_t height)
    : ctx_(ctx),
      width_(width),
      height_(height),
      color_(ctx, {kColorFormat, width, height, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT}),
      depth_(ctx, {kDepthFormat, width, height, 1,
                   VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT}) {}

void OffscreenTarget::begin(VkCommandBuffer cmd, glm::vec4 clear_color) {
  gpu::image_barrier(
      cmd, {color_.handle(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT});
  gpu::image_barrier(
      cmd, {depth_.handle(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
            VK_IMAGE_ASPECT_DEPTH_BIT});
  VkRenderingAttachmentInfo color_att{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color_att.imageView = color_.view();
  color_att.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color_att.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color_att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color_att.clearValue.color = {{clear_color.r, clear_color.g, clear_color.b, clear_color.a}};
  VkRenderingAttachmentInfo depth_att{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth_att.imageView = depth_.view();
  depth_att.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  depth_att.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth_att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  depth_att.clearValue.depthStencil = {0.0f, 0};  // reverse-Z: far = 0
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, {width_, height_}};
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &color_att;
  info.pDepthAttachment = &depth_att;
  vkCmdBeginRendering(cmd, &info);
  const VkViewport viewport{0.0f, 0.0f, float(width_), float(height_), 0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, {width_, height_}};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
}

void OffscreenTarget::end(VkCommandBuffer cmd) {
  vkCmdEndRendering(cmd);
  gpu::image_barrier(
      cmd, {color_.handle(), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT});
  gpu::image_barrier(
      cmd,
      {depth_.handle(), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL,
       VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_ASPECT_DEPTH_BIT});
}

std::vector<std::uint8_t> OffscreenTarget::read_color() {
  const std::vector<std::byte> bytes = gpu::read_image(ctx_, color_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  std::vector<std::uint8_t> out(bytes.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

std::vector<float> OffscreenTarget::read_depth() {
  const std::vector<std::byte> bytes = gpu::read_image(ctx_, depth_, VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL);
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace myriad::render
