#include "myriad/render/passes/ground_plane.hpp"

#include <array>
#include <cmath>

#include "myriad/core/io/error.hpp"
#include "myriad/render/shaders/ground_plane_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

void GroundPlaneOptions::validate() const {
  const auto finite2 = [](glm::vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
  if (!finite2(centre)) throw Error("the centre must be finite", "GroundPlaneOptions::centre");
  if (!finite2(half_extent) || !(half_extent.x > 0.0f) || !(half_extent.y > 0.0f))
    throw Error("the half extent must be finite metres > 0", "GroundPlaneOptions::half_extent");
  if (!std::isfinite(height)) throw Error("the height must be finite", "GroundPlaneOptions::height");
  for (int c = 0; c < 3; ++c)
    if (!(albedo_srgb[c] >= 0.0f && albedo_srgb[c] <= 1.0f))
      throw Error("each albedo channel must be in [0, 1]", "GroundPlaneOptions::albedo_srgb");
  if (!(variation_scale > 0.0f) || !std::isfinite(variation_scale))
    throw Error("the variation scale must be finite metres > 0", "GroundPlaneOptions::variation_scale");
}

GroundPlane::GroundPlane(gpu::Context& ctx, const GroundPlaneOptions& options, VkFormat color_format,
                         VkFormat depth_format)
    : ctx_(ctx), options_(options), shadow_receiver_(ctx) {
  options_.validate();
  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::ground_plane_vert();
  b.layout = {{}, sizeof(shader::GroundPlanePush)};
  b.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  b.cull_mode = VK_CULL_MODE_NONE;  // seen from below it is still the floor
  pipeline_ = build_shadow_receiver(ctx, b, spirv::ground_plane_frag(), {}, color_format, depth_format);
}

void GroundPlane::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                       const ShadowMap* shadow) {
  if (!first_phase(phase)) return;
  shader::GroundPlanePush push{};
  push.view_proj = view.view_proj;
  push.to_light = glm::vec4(view.to_light, 0.0f);
  push.rect = glm::vec4(options_.centre, options_.half_extent);
  push.albedo_scale = glm::vec4(options_.albedo_srgb, options_.variation_scale);
  push.height = options_.height;
  const std::array<gpu::Binding, 2> bindings = shadow_receiver_.bindings(shadow);
  gpu::bind(ctx_, cmd, pipeline_.of(view), bindings, &push, sizeof(push));
  vkCmdDraw(cmd, 4, 1, 0, 0);
}

SystemFrameStats GroundPlane::read_frame_stats(bool drawn) {
  SystemFrameStats s;
  s.objects = 1;
  if (!drawn) return s;
  s.visible = 1;
  s.draws = 1;
  s.pipeline_binds = 1;
  s.vertices = 4;
  s.triangles = 2;
  return s;
}

}  // namespace myriad::render
