// The viewer's on-screen text panel: lines drawn on the CPU into an RGBA8 image (core's text
// raster), copied to the GPU through a mapped buffer and blitted over the frame's top-left corner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "myriad/core/image/text_raster.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/image.hpp"

namespace myriad::view {

struct PanelImage {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgba;  // width*height RGBA8, rows top to bottom
};

inline constexpr Rgba8 kPanelBackground{14, 18, 26, 255};
inline constexpr Rgba8 kPanelText{236, 232, 200, 255};
inline constexpr std::uint32_t kPanelMaxWidth = 1024;
inline constexpr std::uint32_t kPanelMaxHeight = 640;
inline constexpr int kPanelOffset = 8;  // pixels between the frame's corner and the panel

// Lays out `lines` at `scale` pixels per font unit on an opaque background, cropped to the maximum
// panel size.
PanelImage layout_panel(const std::vector<std::string>& lines, int scale);

class StatsPanel {
 public:
  explicit StatsPanel(gpu::Context& ctx);

  // Writes the panel into the upload buffer: only while no submitted frame still reads it (the frame
  // loop keeps one frame in flight).
  void set_lines(const std::vector<std::string>& lines, int scale);
  // Records the copy into the panel image and its blit onto `dst` (TRANSFER_DST_OPTIMAL, written by
  // an earlier blit in this command buffer), clipped to `dst_extent`.
  void record(VkCommandBuffer cmd, VkImage dst, VkExtent2D dst_extent) const;

  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }

 private:
  gpu::Image image_;
  gpu::Buffer upload_;
  std::uint32_t width_ = 0;
  std::uint32_t height_ = 0;
};

}  // namespace myriad::view
