#include "myriad/view/stats_panel.hpp"

#include <algorithm>
#include <cstring>

#include "myriad/gpu/sync/sync.hpp"

namespace myriad::view {

PanelImage layout_panel(const std::vector<std::string>& lines, int scale) {
  constexpr int kPadding = 6;
  scale = std::max(scale, 1);
  int text_w = 0;
  for (const std::string& line : lines) text_w = std::max(text_w, text_width(line, scale));
  const int line_h = kTextLineHeight * scale;
  PanelImage panel;
  panel.width = std::min(kPanelMaxWidth, std::uint32_t(text_w + 2 * kPadding));
  panel.height = std::min(kPanelMaxHeight, std::uint32_t(int(lines.size()) * line_h + 2 * kPadding));
  panel.rgba.resize(std::size_t(panel.width) * panel.height * 4);
  const RgbaImageView view{panel.rgba, panel.width, panel.height};
  fill_rect(view, 0, 0, int(panel.width), int(panel.height), kPanelBackground);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    draw_text(view, kPadding, kPadding + int(i) * line_h, lines[i], kPanelText, scale);
  }
  return panel;
}

// gpu::Image gives every image a view, which needs a usage that views allow: sampled (never used).
StatsPanel::StatsPanel(gpu::Context& ctx)
    : image_(ctx, {VK_FORMAT_R8G8B8A8_UNORM, kPanelMaxWidth, kPanelMaxHeight, 1, VK_IMAGE_USAGE_SAMPLED_BIT}),
      upload_(ctx, VkDeviceSize(kPanelMaxWidth) * kPanelMaxHeight * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
              gpu::MemoryKind::kUpload) {}

void StatsPanel::set_lines(const std::vector<std::string>& lines, int scale) {
  const PanelImage panel = layout_panel(lines, scale);
  width_ = panel.width;
  height_ = panel.height;
  std::memcpy(upload_.mapped(), panel.rgba.data(), panel.rgba.size());
  upload_.flush();
}

void StatsPanel::record(VkCommandBuffer cmd, VkImage dst, VkExtent2D dst_extent) const {
  const std::uint32_t w =
      std::min(width_, dst_extent.width > kPanelOffset ? dst_extent.width - kPanelOffset : 0u);
  const std::uint32_t h =
      std::min(height_, dst_extent.height > kPanelOffset ? dst_extent.height - kPanelOffset : 0u);
  if (w == 0 || h == 0) return;
  // The previous frame's blit read the image; that frame completed (fence) before this one records.
  gpu::image_barrier(cmd, {image_.handle(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_TRANSFER_WRITE_BIT});
  VkBufferImageCopy copy{};
  copy.bufferRowLength = width_;
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {width_, height_, 1};
  vkCmdCopyBufferToImage(cmd, upload_.handle(), image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                         &copy);
  gpu::image_barrier(
      cmd, {image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_BLIT_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT});
  // The frame was blitted into `dst` just before: the panel's blit overwrites part of it.
  gpu::image_barrier(cmd, {dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT});
  VkImageBlit blit{};
  blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = {int(w), int(h), 1};
  blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.dstOffsets[0] = {kPanelOffset, kPanelOffset, 0};
  blit.dstOffsets[1] = {kPanelOffset + int(w), kPanelOffset + int(h), 1};
  vkCmdBlitImage(cmd, image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
}

}  // namespace myriad::view
