// Records the two passes of a vegetation frame. The second rendering pass loads what the first
// stored, so the target ends exactly as OffscreenTarget::end leaves it (readable colour and depth).
#include "myriad/render/vegetation_frame.hpp"

#include <cstring>

#include "myriad/core/error.hpp"
#include "myriad/core/frustum.hpp"
#include "myriad/gpu/rendering.hpp"
#include "myriad/gpu/sync.hpp"
#include "myriad/render/shaders/veg_cull_layout.h"

namespace myriad::render {
namespace {
constexpr VkDeviceSize kArgsBytes = VEG_ARGS_BYTES;
}  // namespace

std::uint64_t VegetationFrameCounts::total() const {
  std::uint64_t n = 0;
  for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) n += early[l] + late[l];
  return n;
}

VegetationFrame::VegetationFrame(gpu::Context& ctx, const VegetationCull& cull,
                                 const VegetationRenderer& renderer, OffscreenTarget& target,
                                 std::uint32_t max_types)
    : ctx_(ctx),
      cull_(cull),
      renderer_(renderer),
      target_(target),
      pyramid_(ctx, target.width(), target.height()),
      counts_(ctx, 2 * VkDeviceSize(max_types) * kArgsBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
              gpu::MemoryKind::kReadback),
      max_types_(max_types) {}

void VegetationFrame::copy_args(VkCommandBuffer cmd, std::span<const VegetationFrameType> types,
                                std::uint32_t pass) {
  // VegetationCull::record leaves the args visible to copies; the next record waits for the copy.
  for (std::uint32_t t = 0; t < types.size(); ++t) {
    const VkBufferCopy region{0, (VkDeviceSize(pass) * max_types_ + t) * kArgsBytes, kArgsBytes};
    vkCmdCopyBuffer(cmd, types[t].gpu->args.handle(), counts_.handle(), 1, &region);
  }
}

void VegetationFrame::resume(VkCommandBuffer cmd) {
  gpu::image_barrier(cmd, {target_.color().handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                           VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT});
  // The pyramid build read the depth; its writes wait for that read.
  gpu::image_barrier(
      cmd, {target_.depth().handle(), VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL,
            VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
            VK_IMAGE_ASPECT_DEPTH_BIT});
  const VkRenderingAttachmentInfo color = gpu::color_attachment(target_.color().view(), nullptr);
  const VkRenderingAttachmentInfo depth = gpu::depth_attachment(target_.depth().view(), false);
  gpu::begin_rendering(cmd, target_.width(), target_.height(), &color, &depth);
}

void VegetationFrame::record(VkCommandBuffer cmd, const VegetationDrawSettings& settings, glm::vec3 camera,
                             std::span<const VegetationFrameType> types, const OpaqueFn& opaque,
                             bool occlusion, glm::vec4 clear, const ShadowMap* shadow) {
  if (types.size() > max_types_) throw Error("VegetationFrame: more runtime types than max_types");
  recorded_types_ = static_cast<std::uint32_t>(types.size());
  recorded_draws_ = 0;
  recorded_binds_ = 0;
  const Frustum frustum = Frustum::from_view_proj(settings.view_proj, DepthConvention::kReverseZ);
  auto draw_all = [&](VkCommandBuffer c) {
    for (const VegetationFrameType& t : types) {
      VegetationDrawSettings s = settings;
      s.id_base = t.id_base;
      recorded_draws_ += renderer_.draw(c, s, *t.gpu, 0xFu, shadow);
      ++recorded_binds_;
    }
  };
  // Phase 1 (or the only pass).
  const VegetationPass first = occlusion ? VegetationPass::kEarly : VegetationPass::kSingle;
  for (const VegetationFrameType& t : types) (void)cull_.record(cmd, frustum, camera, *t.gpu, nullptr, first);
  copy_args(cmd, types, 0);
  target_.begin(cmd, clear);
  if (opaque) opaque(cmd, settings);
  draw_all(cmd);
  target_.end(cmd);
  if (occlusion) {
    // Phase 2: the pyramid of this frame's depth so far, every instance tested against it.
    pyramid_.record(cmd, target_.depth().view(), VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL);
    const VegetationHiz hiz{pyramid_.image().view(), pyramid_.sampler().handle(), pyramid_.levels(),
                            pyramid_.source_width(), pyramid_.source_height(),    settings.view_proj};
    for (const VegetationFrameType& t : types)
      (void)cull_.record(cmd, frustum, camera, *t.gpu, &hiz, VegetationPass::kLate);
    copy_args(cmd, types, 1);
    resume(cmd);
    draw_all(cmd);
    target_.end(cmd);
  } else {
    vkCmdFillBuffer(cmd, counts_.handle(), VkDeviceSize(max_types_) * kArgsBytes,
                    VkDeviceSize(max_types_) * kArgsBytes, 0);
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                      VK_ACCESS_2_HOST_READ_BIT);
}

VegetationFrameCounts VegetationFrame::read_counts() const {
  counts_.invalidate();
  VegetationFrameCounts c;
  c.draws = recorded_draws_;
  c.binds = recorded_binds_;
  const auto* bytes = static_cast<const std::byte*>(counts_.mapped());
  for (std::uint32_t pass = 0; pass < 2; ++pass)
    for (std::uint32_t t = 0; t < recorded_types_; ++t)
      for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) {
        const std::byte* type_args = bytes + (VkDeviceSize(pass) * max_types_ + t) * kArgsBytes;
        shader::DrawIndexedCommand a;
        std::memcpy(&a, type_args + l * sizeof(a), sizeof(a));
        if (l == 0) {
          std::uint32_t overflow = 0;
          std::memcpy(&overflow, type_args + offsetof(shader::VegCullArgs, overflow), sizeof(overflow));
          c.overflow += overflow;
        }
        (pass == 0 ? c.early : c.late)[l] += a.instance_count;
        c.indices += std::uint64_t(a.instance_count) * a.index_count;
        c.triangles += std::uint64_t(a.instance_count) * (a.index_count / 3);
      }
  return c;
}

}  // namespace myriad::render
