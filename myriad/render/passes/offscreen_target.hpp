// A headless render target: RGBA8 colour + D32 depth (reverse-Z: cleared to 0), with the barriers to
// begin and end dynamic rendering, to sample the depth afterwards, and to read the colour back.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/core/math/math.hpp"
#include "myriad/gpu/memory/image.hpp"

namespace myriad::render {

class OffscreenTarget {
 public:
  static constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
  static constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

  OffscreenTarget(gpu::Context& ctx, std::uint32_t width, std::uint32_t height);

  // Transitions both images for attachment use, begins rendering with the clears, sets viewport and
  // scissor to the whole target.
  void begin(VkCommandBuffer cmd, glm::vec4 clear_color);
  // Ends rendering; colour goes to TRANSFER_SRC (for read_color) and depth to DEPTH_READ_ONLY,
  // visible to compute shaders (depth pyramid).
  void end(VkCommandBuffer cmd);
  // After end() (and compute or copies reading its depth, such as the depth pyramid): rendering again,
  // loading colour and depth as end() left them.
  void resume(VkCommandBuffer cmd);

  // After the submission that called end() completed: width*height RGBA8 pixels, top row first.
  std::vector<std::uint8_t> read_color();
  std::vector<float> read_depth();

  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  const gpu::Image& color() const { return color_; }
  const gpu::Image& depth() const { return depth_; }

 private:
  gpu::Context& ctx_;
  std::uint32_t width_, height_;
  gpu::Image color_, depth_;
};

}  // namespace myriad::render
