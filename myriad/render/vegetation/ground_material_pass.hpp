// The ground's terrain material on the GPU (vegetation::GroundMaterial, shaders/ground.frag): its detail
// textures, its parameters and the plant pass's direct vertex stage with the ground's fragment stage.
// Draws heightfield meshes of a VegetationRenderer: the field's ground tiles and a scene's terrain.
#pragma once

#include <cstdint>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/render/vegetation/vegetation_renderer.hpp"
#include "myriad/vegetation/bake/ground_material.hpp"

namespace myriad::render {

class GroundMaterialPass {
 public:
  // Validates `material` (myriad::Error naming the field).
  GroundMaterialPass(gpu::Context& ctx, const VegetationRenderer& renderer,
                     const vegetation::GroundMaterial& material);
  // Inside dynamic rendering: `count` RuntimeInstances of `instances` with the renderer's mesh `mesh_id`
  // in the material (settings: instance ids as draw_direct).
  void draw(VkCommandBuffer cmd, const FrameView& view, const VegetationDrawOptions& settings,
            std::uint32_t mesh_id, const gpu::Buffer& instances, std::uint32_t count,
            const ShadowMap* shadow) const;

 private:
  const VegetationRenderer& renderer_;
  gpu::Image textures_;   // the detail textures (GroundLayer order)
  gpu::Sampler sampler_;  // repeating, trilinear
  gpu::Buffer params_;    // GroundMaterialGpu
  ShadedPipeline pipeline_;
};

}  // namespace myriad::render
