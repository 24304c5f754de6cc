// The picked cell's outline for voxel editing: its 12 edges and a square in the face a placed voxel would
// go against, drawn as lines over the terrain in the frame's last phase (a FrameSystem without culling:
// one draw of 32 vertices, no buffers). Cleared, it draws nothing.
#pragma once

#include <optional>

#include "myriad/gpu/device/context.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/frame/frame_system.hpp"

namespace myriad::render {

struct CellOutlineTarget {
  glm::ivec3 cell{0};  // world cell (1 world unit each)
  int face = 0;        // voxel::Face to mark
};

class CellOutline final : public FrameSystem {
 public:
  CellOutline(gpu::Context& ctx, VkFormat color_format, VkFormat depth_format);

  void set(std::optional<CellOutlineTarget> target) { target_ = target; }
  const std::optional<CellOutlineTarget>& target() const { return target_; }

  void cull(VkCommandBuffer, const FrameView&, FramePhase, const DepthPyramid*) override {}
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_;
  std::optional<CellOutlineTarget> target_;
};

}  // namespace myriad::render
