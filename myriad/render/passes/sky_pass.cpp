#include "myriad/render/passes/sky_pass.hpp"

#include <array>

#include "myriad/render/shaders/sky_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

SkyPass::SkyPass(gpu::Context& ctx, VkFormat color_format, VkFormat depth_format) : ctx_(ctx) {
  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::sky_vert();
  b.layout = {{}, sizeof(shader::SkyPush)};
  b.cull_mode = VK_CULL_MODE_NONE;
  b.depth_write = false;
  b.depth_compare = VK_COMPARE_OP_EQUAL;  // only where the cleared far depth (0) is left
  b.write_alpha = false;                  // the clear's alpha still tells sky from geometry
  pipeline_ = build_shadow_receiver(ctx, b, spirv::sky_frag(), {}, color_format, depth_format);
}

void SkyPass::draw(VkCommandBuffer cmd, const FrameView& view, const ShadowMap& light) const {
  const shader::SkyPush push{glm::inverse(view.view_proj), glm::vec4(view.eye, 1.0f)};
  const std::array bindings{
      gpu::uniform_buffer(light.params_buffer().handle()),
      gpu::sampled_image(light.sampler(), light.image().view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)};
  gpu::bind(ctx_, cmd, pipeline_.of(view), bindings, &push, sizeof(push));
  vkCmdDraw(cmd, 3, 1, 0, 0);
}

}  // namespace myriad::render
