#include "myriad/render/passes/offscreen_target.hpp"

#include <cstring>

#include "myriad/gpu/pipeline/rendering.hpp"
#include "myriad/gpu/sync/sync.hpp"

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
  const VkRenderingAttachmentInfo color_att = gpu::color_attachment(color_.view(), &clear_color);
  const VkRenderingAttachmentInfo depth_att = gpu::depth_attachment(depth_.view(), true);
  gpu::begin_rendering(cmd, width_, height_, &color_att, &depth_att);
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

void OffscreenTarget::resume(VkCommandBuffer cmd) {
  gpu::image_barrier(
      cmd, {color_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT});
  // Whatever read the depth (the pyramid build) finishes before rendering writes it again.
  gpu::image_barrier(
      cmd,
      {depth_.handle(), VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE,
       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
       VK_IMAGE_ASPECT_DEPTH_BIT});
  const VkRenderingAttachmentInfo color_att = gpu::color_attachment(color_.view(), nullptr);
  const VkRenderingAttachmentInfo depth_att = gpu::depth_attachment(depth_.view(), false);
  gpu::begin_rendering(cmd, width_, height_, &color_att, &depth_att);
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
