// The viewer's crosshair: a small cross at the frame's centre, white over a dark rim so it reads on sky
// and ground alike, drawn with blits of two one-texel images (no pipeline).
#pragma once

#include "myriad/gpu/device/context.hpp"
#include "myriad/gpu/memory/image.hpp"

namespace myriad::view {

class Crosshair {
 public:
  explicit Crosshair(gpu::Context& ctx);
  // Onto `dst` (TRANSFER_DST_OPTIMAL, written by an earlier blit in this command buffer).
  void record(VkCommandBuffer cmd, VkImage dst, VkExtent2D extent) const;

 private:
  gpu::Image light_, dark_;
};

}  // namespace myriad::view
