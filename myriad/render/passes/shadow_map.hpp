// One directional light's shadow map (SPEC X2): an orthographic, reverse-Z depth map fitted around the
// near part of the camera's frustum, rendered by the casters' depth-only passes between begin() and
// end(), and read by the receivers' fragment shaders through shaders/shadow.glsl (PCF).
//
// Frame order: fit() on the CPU; outside rendering, each caster culls against caster_frustum() with
// the camera's position for LOD; begin(); the casters' draw_shadow calls; end(); then the camera view
// (its own culling may reuse the caster culls' outputs: end() orders those rewrites after the shadow
// draws' reads); the receivers' draws take the map as their trailing `shadow` argument.
#pragma once

#include <array>
#include <span>
#include <cstdint>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/shaders/shadow_layout.h"

namespace myriad::render {

// Caster pipelines' hardware depth bias (reverse-Z: negative = away from the light). The receivers'
// normal offset and one-texel depth bias (shadow.glsl) do most of the work; this covers steep slopes.
inline constexpr float kShadowBiasConstant = -1.0f;
inline constexpr float kShadowBiasSlope = -1.5f;

class ShadowMap {
 public:
  static constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

  ShadowMap(gpu::Context& ctx, std::uint32_t size);  // size x size depth texels

  // Fits an orthographic light view (reverse-Z) around the part of `camera`'s frustum nearer than
  // `distance` metres, texel-snapped so it does not shimmer; the light-side near plane is pulled back
  // `caster_reach` metres towards the light so casters outside the camera frustum still cast.
  // The box is the slice's bounding sphere (its size does not change as the camera turns), in a
  // light frame fixed in the world, its centre snapped to whole texels.
  // The light direction is the camera view's to_light.
  void fit(const FrameView& camera, float distance, float caster_reach);

  // The shadow view of the last fit(): the light's view-projection and culling volume (the casters'
  // frustum), the camera's eye, LOD reference and slice.
  const FrameView& view() const { return view_; }
  const glm::mat4& light_view_proj() const { return view_.view_proj; }
  const Frustum& caster_frustum() const { return view_.frustum; }
  glm::vec3 to_light() const { return view_.to_light; }
  float texel_world_size() const { return params_.texel.x; }

  // Depth-only dynamic rendering, cleared, viewport/scissor set (also uploads the light parameters).
  void begin(VkCommandBuffer cmd);
  // Ends rendering; the map becomes readable by fragment shaders, and culling outputs read by the
  // shadow draws (indirect args, instance lists read by vertex shaders) may be overwritten afterwards
  // by compute or transfer.
  void end(VkCommandBuffer cmd);

  std::uint32_t size() const { return size_; }
  std::uint64_t gpu_bytes() const;

  // What receivers bind (see ShadowReceiver).
  const gpu::Image& image() const { return image_; }
  const gpu::Buffer& params_buffer() const { return params_buffer_; }
  VkSampler sampler() const { return sampler_.handle(); }

 private:
  gpu::Context& ctx_;
  std::uint32_t size_;
  gpu::Image image_;
  gpu::Sampler sampler_;
  gpu::Buffer params_buffer_;
  shader::ShadowParamsGpu params_{};
  FrameView view_;
};

// The depth-only caster variant of a pass's pipeline: `b` with its vertex shader and layout, built
// without fragment stage or colour, in the map's format, both faces, with the bias above.
gpu::Pipeline build_shadow_caster(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder b);

// The receiving variant of a pass's pipeline: `b` (vertex shader, layout, cull mode) with `fragment`,
// `extra` bindings after the layout's own, then ShadowReceiver's two, drawing into `color` + `depth`.
gpu::Pipeline build_shadow_receiver(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder b,
                                    std::span<const std::uint32_t> fragment,
                                    std::span<const VkDescriptorType> extra, VkFormat color, VkFormat depth);

// The reverse-Z compare sampler of shadow lookups (GREATER_OR_EQUAL passes = lit), linear when the
// device filters depth, clamp to edge.
gpu::Sampler make_shadow_sampler(const gpu::Context& ctx);

// Held by each receiving renderer: the two bindings its passes add (shadow.glsl: the parameters, then
// the map with its compare sampler), either a ShadowMap's or, without one, a stand-in that reads as
// fully lit so those pictures are exactly what they were without shadows.
class ShadowReceiver {
 public:
  static constexpr std::array<VkDescriptorType, 2> kBindingTypes{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                                                 VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
  explicit ShadowReceiver(gpu::Context& ctx);
  // Appends the two binding types to a receiving pipeline's layout.
  static void add_bindings(gpu::PipelineLayoutDesc& layout);
  std::array<gpu::Binding, 2> bindings(const ShadowMap* shadow) const;

 private:
  gpu::Image lit_map_;
  gpu::Sampler sampler_;
  gpu::Buffer lit_params_;
};

}  // namespace myriad::render
