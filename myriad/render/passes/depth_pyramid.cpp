#include "myriad/render/passes/depth_pyramid.hpp"

#include <algorithm>
#include <array>

#include "myriad/core/cull/min_pyramid.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/shaders/depth_reduce_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {
constexpr VkPipelineStageFlags2 kReaders =
    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
}  // namespace

DepthPyramid::DepthPyramid(gpu::Context& ctx, std::uint32_t source_width, std::uint32_t source_height)
    : ctx_(ctx),
      source_width_(source_width),
      source_height_(source_height),
      levels_(min_pyramid_levels(source_width, source_height)) {
  gpu::ImageDesc desc;
  desc.format = VK_FORMAT_R32_SFLOAT;
  desc.width = std::max(1u, source_width / 2);
  desc.height = std::max(1u, source_height / 2);
  desc.mip_levels = levels_;
  desc.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
  image_ = gpu::Image(ctx, desc);
  sampler_ = gpu::make_min_reduction_sampler(ctx);
  fetch_sampler_ = gpu::make_nearest_sampler(ctx);
  const gpu::PipelineLayoutDesc layout{
      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
      sizeof(shader::DepthReducePush)};
  reduce_first_ = gpu::make_compute_pipeline(ctx, spirv::depth_reduce_first_comp(), layout);
  reduce_ = gpu::make_compute_pipeline(ctx, spirv::depth_reduce_comp(), layout);
}

void DepthPyramid::record(VkCommandBuffer cmd, VkImageView source, VkImageLayout source_layout) {
  // Earlier readers of the pyramid finish before level writes begin; the first record lays the image
  // out (no setup submission: a scene frame makes its pyramid while recording).
  const VkImageLayout from = laid_out_ ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_UNDEFINED;
  laid_out_ = true;
  gpu::image_barrier(
      cmd, {image_.handle(), from, VK_IMAGE_LAYOUT_GENERAL, kReaders | VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT});
  std::uint32_t src_w = source_width_, src_h = source_height_;
  for (std::uint32_t level = 0; level < levels_; ++level) {
    const std::uint32_t dst_w = image_.width(level), dst_h = image_.height(level);
    const VkImageView src_view = level == 0 ? source : image_.mip_view(level - 1);
    const VkImageLayout src_layout = level == 0 ? source_layout : VK_IMAGE_LAYOUT_GENERAL;
    const VkSampler sampler = level == 0 ? fetch_sampler_.handle() : sampler_.handle();
    const std::array bindings{gpu::sampled_image(sampler, src_view, src_layout),
                              gpu::storage_image(image_.mip_view(level))};
    const shader::DepthReducePush push{{src_w, src_h}, {dst_w, dst_h}};
    gpu::bind(ctx_, cmd, level == 0 ? reduce_first_ : reduce_, bindings, &push, sizeof(push));
    vkCmdDispatch(cmd, (dst_w + 7) / 8, (dst_h + 7) / 8, 1);
    gpu::ImageTransition written{image_.handle(),
                                 VK_IMAGE_LAYOUT_GENERAL,
                                 VK_IMAGE_LAYOUT_GENERAL,
                                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                 kReaders | VK_PIPELINE_STAGE_2_COPY_BIT,
                                 VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT,
                                 VK_IMAGE_ASPECT_COLOR_BIT,
                                 level,
                                 1};
    gpu::image_barrier(cmd, written);
    src_w = dst_w;
    src_h = dst_h;
  }
}

}  // namespace myriad::render
