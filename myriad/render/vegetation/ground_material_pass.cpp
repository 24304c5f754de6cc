#include "myriad/render/vegetation/ground_material_pass.hpp"

#include <array>

#include "myriad/render/shaders/ground_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {

shader::GroundMaterialGpu material_params(const vegetation::GroundMaterial& m) {
  m.validate();
  return {{m.sand_below, m.sand_blend, m.rock_above, 0.0f},
          {m.rock_slope, m.dirt_share, 1.0f / m.detail_metres, 1.0f / m.variation_metres}};
}

}  // namespace

GroundMaterialPass::GroundMaterialPass(gpu::Context& ctx, const VegetationRenderer& renderer,
                                       const vegetation::GroundMaterial& material)
    : renderer_(renderer),
      textures_(gpu::make_texture_array_image(ctx, vegetation::make_ground_texture_array())),
      sampler_(gpu::make_linear_sampler(ctx)) {
  const shader::GroundMaterialGpu params = material_params(material);
  params_ = gpu::make_filled_buffer(ctx, std::span<const shader::GroundMaterialGpu>(&params, 1),
                                    VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  const std::array<VkDescriptorType, 2> extra{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                              VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
  pipeline_ = renderer.direct_variant(spirv::ground_frag(), extra);
}

void GroundMaterialPass::draw(VkCommandBuffer cmd, const FrameView& view,
                              const VegetationDrawOptions& settings, std::uint32_t mesh_id,
                              const gpu::Buffer& instances, std::uint32_t count,
                              const ShadowMap* shadow) const {
  const std::array material{
      gpu::sampled_image(sampler_.handle(), textures_.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
      gpu::uniform_buffer(params_.handle())};
  renderer_.draw_direct_variant(cmd, view, settings, pipeline_, material, mesh_id, instances, count, shadow);
}

}  // namespace myriad::render
