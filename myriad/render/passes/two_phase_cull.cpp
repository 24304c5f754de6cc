#include "myriad/render/passes/two_phase_cull.hpp"

#include <algorithm>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"

namespace myriad::render {

TwoPhaseCull::TwoPhaseCull(gpu::Context& ctx, std::uint32_t candidates)
    : ctx_(ctx),
      counters_(gpu::make_storage_buffer(ctx, sizeof(shader::CullCounters))),
      counters_host_(ctx, sizeof(shader::CullCounters)),
      params_(gpu::make_storage_buffer(ctx, sizeof(shader::HizParams))) {
  reserve(std::max(candidates, 1u));
}

void TwoPhaseCull::reserve(std::uint32_t candidates) {
  if (candidates <= capacity_) return;
  // Grown by half again, so a stream of small additions does not reallocate every time.
  capacity_ = std::max(candidates, capacity_ + capacity_ / 2);
  visibility_ = gpu::make_storage_buffer(ctx_, VkDeviceSize(capacity_) * sizeof(std::uint32_t));
  clear_pending_ = true;
}

void TwoPhaseCull::record_begin(VkCommandBuffer cmd, FramePhase phase, const glm::mat4& view_proj,
                                const DepthPyramid* pyramid) {
  if (phase == FramePhase::kLate && !pyramid) throw Error("TwoPhaseCull: phase 2 needs the depth pyramid");
  // Earlier culling dispatches (which read the parameters and write the counters and visibility) and
  // the last counters read-back finish before these are rewritten.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  if (clear_pending_) {
    vkCmdFillBuffer(cmd, visibility_.handle(), 0, VkDeviceSize(capacity_) * sizeof(std::uint32_t), 0u);
    clear_pending_ = false;
  }
  if (phase != FramePhase::kLate)
    vkCmdFillBuffer(cmd, counters_.handle(), 0, sizeof(shader::CullCounters), 0u);
  if (phase == FramePhase::kLate) {
    shader::HizParams p{};
    p.view_proj = view_proj;
    p.source_width = pyramid->source_width();
    p.source_height = pyramid->source_height();
    p.levels = pyramid->levels();
    vkCmdUpdateBuffer(cmd, params_.handle(), 0, sizeof(p), &p);
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void TwoPhaseCull::record_end(VkCommandBuffer cmd, FramePhase phase) {
  if (phase == FramePhase::kEarly) return;
  // (The shadow view's single pass copied too: record_copy orders this copy after that one.)
  counters_host_.record_copy(cmd, counters_, 0, sizeof(shader::CullCounters), 0);
  counters_host_.record_host_barrier(cmd);
}

gpu::Pipeline TwoPhaseCull::make_pipeline(const gpu::Context& ctx, std::span<const std::uint32_t> spirv,
                                          std::uint32_t own_storage, std::uint32_t push_bytes, bool hiz) {
  gpu::PipelineLayoutDesc d{std::vector<VkDescriptorType>(own_storage + 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                            push_bytes};
  if (hiz) {
    d.bindings.push_back(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
    d.bindings.push_back(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  }
  return gpu::make_compute_pipeline(ctx, spirv, d);
}

void TwoPhaseCull::bind(VkCommandBuffer cmd, const gpu::Pipeline& plain, const gpu::Pipeline& hiz,
                        std::vector<gpu::Binding> own, FramePhase phase, const DepthPyramid* pyramid,
                        const void* push, std::uint32_t push_bytes) const {
  own.push_back(gpu::storage_buffer(visibility_));
  own.push_back(gpu::storage_buffer(counters_));
  const bool test = tests_pyramid(phase, pyramid);
  if (test) {
    own.push_back(
        gpu::sampled_image(pyramid->sampler().handle(), pyramid->image().view(), VK_IMAGE_LAYOUT_GENERAL));
    own.push_back(gpu::storage_buffer(params_));
  }
  gpu::bind(ctx_, cmd, test ? hiz : plain, own, push, push_bytes);
}

shader::CullCounters TwoPhaseCull::read() const { return counters_host_.read<shader::CullCounters>(0, 1)[0]; }

}  // namespace myriad::render
