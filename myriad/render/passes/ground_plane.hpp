// A flat ground plane that receives the sun's shadows: what a scene stands on when it has no
// terrain of its own (the crowd scene: the enemies' shadows fall on it). One quad, no vertex buffer;
// it casts nothing and is not culled (a plane under the whole scene is always in view).
#pragma once

#include "myriad/gpu/device/context.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/passes/shadow_map.hpp"

namespace myriad::render {

struct GroundPlaneOptions {
  glm::vec2 centre{0.0f};         // world x, z
  glm::vec2 half_extent{500.0f};  // metres in x and z
  float height = 0.0f;            // world y
  glm::vec3 albedo_srgb{0.42f, 0.47f, 0.36f};
  float variation_scale = 4.0f;  // scale of the albedo's gentle variation (metres; ground_plane_layout.h)

  // Throws myriad::Error naming the first invalid field (GroundPlane's constructor calls it).
  void validate() const;
};

class GroundPlane : public FrameSystem {
 public:
  using FrameSystem::cull;
  using FrameSystem::draw;

  GroundPlane(gpu::Context& ctx, const GroundPlaneOptions& options, VkFormat color_format,
              VkFormat depth_format);
  void cull(VkCommandBuffer, const FrameView&, FramePhase, const DepthPyramid*) override {}
  // Inside rendering, in the first phase only.
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;
  SystemFrameStats read_frame_stats(bool drawn) override;

 private:
  gpu::Context& ctx_;
  GroundPlaneOptions options_;
  ShadedPipeline pipeline_;
  ShadowReceiver shadow_receiver_;
};

}  // namespace myriad::render
