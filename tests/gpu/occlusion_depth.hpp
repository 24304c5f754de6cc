// Depth images for Hi-Z occlusion tests: reverse-Z (0 = far), walls drawn as screen rectangles at the
// depth a point at a given view distance gets, and the same image as a GPU depth pyramid (built by
// render::DepthPyramid from an R32F upload) and as the CPU reference (build_min_pyramid).
#pragma once

#include <memory>
#include <vector>

#include "myriad/core/cull/hiz_occlusion.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"

namespace myriad::test {

class OcclusionDepth {
 public:
  OcclusionDepth(std::uint32_t width, std::uint32_t height)
      : width_(width), height_(height), texels_(width * height) {}

  // Fills the pixels whose centres lie in [lo, hi] (normalised 0..1 screen coordinates, y down as the
  // image rows) with the depth `proj` gives a point `distance` metres ahead, where that is nearer.
  void wall(const glm::mat4& proj, glm::vec2 lo, glm::vec2 hi, float distance) {
    const glm::vec4 clip = proj * glm::vec4(0.0f, 0.0f, -distance, 1.0f);
    const float depth = clip.z / clip.w;
    for (std::uint32_t y = 0; y < height_; ++y)
      for (std::uint32_t x = 0; x < width_; ++x) {
        const glm::vec2 p((float(x) + 0.5f) / float(width_), (float(y) + 0.5f) / float(height_));
        if (p.x < lo.x || p.y < lo.y || p.x > hi.x || p.y > hi.y) continue;
        float& t = texels_[std::size_t(y) * width_ + x];
        t = std::max(t, depth);
      }
  }

  // The CPU side; valid while this object lives and no wall is added.
  HizReference reference(const glm::mat4& view_proj) {
    levels_ = build_min_pyramid(texels_, width_, height_);
    return {view_proj, levels_, width_, height_};
  }

  // The GPU side: the depth as an R32F image reduced by the renderer's own pyramid pass.
  std::unique_ptr<render::DepthPyramid> gpu_pyramid(gpu::Context& ctx) const {
    gpu::Image image(ctx, {VK_FORMAT_R32_SFLOAT, width_, height_, 1, VK_IMAGE_USAGE_SAMPLED_BIT});
    gpu::upload_image(ctx, image, std::as_bytes(std::span(texels_)),
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    auto pyramid = std::make_unique<render::DepthPyramid>(ctx, width_, height_);
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      pyramid->record(cmd, image.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    });
    return pyramid;
  }

  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }

 private:
  std::uint32_t width_, height_;
  std::vector<float> texels_;
  std::vector<MinPyramidLevel> levels_;
};

}  // namespace myriad::test
