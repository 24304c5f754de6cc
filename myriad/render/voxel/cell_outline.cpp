#include "myriad/render/voxel/cell_outline.hpp"

#include "myriad/render/shaders/cell_outline_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

CellOutline::CellOutline(gpu::Context& ctx, VkFormat color_format, VkFormat depth_format) : ctx_(ctx) {
  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::cell_outline_vert();
  b.fragment = spirv::cell_outline_frag();
  b.layout = {{}, sizeof(shader::CellOutlinePush)};
  b.color_formats = {color_format};
  b.depth_format = depth_format;
  b.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  b.cull_mode = VK_CULL_MODE_NONE;
  b.depth_write = false;  // an overlay: what is drawn later still tests against the terrain's depth
  b.clip_distances = 1;
  pipeline_ = b.build(ctx);
}

void CellOutline::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap*) {
  // The last phase: a two-phase frame draws its late phase after the early one, over everything.
  if (!target_ || phase == FramePhase::kEarly) return;
  shader::CellOutlinePush push{};
  push.view_proj = view.view_proj;
  push.cell = glm::vec4(glm::vec3(target_->cell), 1.0f);
  push.color = glm::vec4(0.05f, 0.05f, 0.06f, 1.0f);
  push.face_color = glm::vec4(1.0f, 0.92f, 0.35f, 1.0f);
  push.face = std::uint32_t(target_->face);
  push.slice_height = view.slice_height;
  gpu::bind(ctx_, cmd, pipeline_, {}, &push, sizeof(push));
  vkCmdDraw(cmd, 32, 1, 0, 0);
}

}  // namespace myriad::render
