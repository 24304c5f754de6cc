// The sky (issue: one shading model): a fullscreen pass recorded after the frame's last geometry, inside
// its rendering, that shades only the pixels left at the cleared far depth (an EQUAL depth test at reverse-Z
// 0, no depth write), so it costs nothing where geometry covers the sky. It writes colour only: the
// clear's alpha is left, so images still tell sky (the clear's alpha) from geometry. Its colour is the
// shading model's sky (shaders/lighting_model.h), whose horizon is the fog's colour: far geometry fades into
// it.
#pragma once

#include "myriad/gpu/device/context.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/passes/shadow_map.hpp"

namespace myriad::render {

class SkyPass {
 public:
  SkyPass(gpu::Context& ctx, VkFormat color_format, VkFormat depth_format);
  // Inside rendering into a target of the formats above: the sky of `view`, its light block `light`'s
  // (the frame's shadow map or light-only block).
  void draw(VkCommandBuffer cmd, const FrameView& view, const ShadowMap& light) const;

 private:
  gpu::Context& ctx_;
  ShadedPipeline pipeline_;
};

}  // namespace myriad::render
