// GPU depth pyramid for Hi-Z occlusion: an R32F mip chain, one compute dispatch per level. Level 0
// reads the depth (or R32F) source with texelFetch; every further level reads the previous one
// through a MIN-reduction sampler. Matches myriad::build_min_pyramid exactly.
#pragma once

#include <cstdint>

#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"

namespace myriad::render {

class DepthPyramid {
 public:
  // Sized for a source of source_width x source_height; level 0 is half that (rounded down).
  DepthPyramid(gpu::Context& ctx, std::uint32_t source_width, std::uint32_t source_height);

  // Records the reduction. `source` is read in `source_layout`. The pyramid is in
  // VK_IMAGE_LAYOUT_GENERAL from the first record on; on return all levels are visible to compute and
  // fragment reads. Nothing reads it before its first record.
  void record(VkCommandBuffer cmd, VkImageView source, VkImageLayout source_layout);

  const gpu::Image& image() const { return image_; }
  const gpu::Sampler& sampler() const { return sampler_; }
  std::uint32_t levels() const { return levels_; }
  std::uint32_t source_width() const { return source_width_; }
  std::uint32_t source_height() const { return source_height_; }

 private:
  gpu::Context& ctx_;
  std::uint32_t source_width_, source_height_, levels_;
  gpu::Image image_;
  gpu::Sampler sampler_;        // MIN reduction, levels 1+
  gpu::Sampler fetch_sampler_;  // nearest, level 0 (texelFetch)
  gpu::Pipeline reduce_first_;
  gpu::Pipeline reduce_;
  bool laid_out_ = false;  // in VK_IMAGE_LAYOUT_GENERAL (after the first record)
};

}  // namespace myriad::render
