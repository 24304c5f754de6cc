#include "myriad/view/crosshair.hpp"

#include <array>
#include <cstddef>

#include "myriad/gpu/sync/sync.hpp"

namespace myriad::view {
namespace {

gpu::Image one_texel(gpu::Context& ctx, std::array<std::uint8_t, 4> rgba) {
  gpu::Image image(ctx, {VK_FORMAT_R8G8B8A8_UNORM, 1, 1, 1, VK_IMAGE_USAGE_SAMPLED_BIT});
  gpu::upload_image(ctx, image, std::as_bytes(std::span(rgba)), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  return image;
}

// Blits the one-texel `src` over the rectangle [x0, x1) x [y0, y1) of `dst`.
void fill(VkCommandBuffer cmd, const gpu::Image& src, VkImage dst, int x0, int y0, int x1, int y1) {
  VkImageBlit blit{};
  blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = {1, 1, 1};
  blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.dstOffsets[0] = {x0, y0, 0};
  blit.dstOffsets[1] = {x1, y1, 1};
  vkCmdBlitImage(cmd, src.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
}

void after_blit(VkCommandBuffer cmd, VkImage dst) {
  gpu::image_barrier(cmd, {dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT});
}

}  // namespace

Crosshair::Crosshair(gpu::Context& ctx)
    : light_(one_texel(ctx, {240, 240, 240, 255})), dark_(one_texel(ctx, {20, 20, 24, 255})) {}

void Crosshair::record(VkCommandBuffer cmd, VkImage dst, VkExtent2D extent) const {
  if (extent.width < 32 || extent.height < 32) return;
  const int cx = int(extent.width / 2), cy = int(extent.height / 2), arm = 9;
  // The frame (and the panel) were blitted into `dst` just before.
  // The four rectangles overlap at the centre: each blit waits for the one before.
  after_blit(cmd, dst);
  fill(cmd, dark_, dst, cx - arm - 1, cy - 2, cx + arm + 1, cy + 2);
  after_blit(cmd, dst);
  fill(cmd, dark_, dst, cx - 2, cy - arm - 1, cx + 2, cy + arm + 1);
  after_blit(cmd, dst);
  fill(cmd, light_, dst, cx - arm, cy - 1, cx + arm, cy + 1);
  after_blit(cmd, dst);
  fill(cmd, light_, dst, cx - 1, cy - arm, cx + 1, cy + arm);
}

}  // namespace myriad::view
