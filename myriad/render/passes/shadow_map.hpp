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
#include "myriad/render/shaders/light_layout.h"

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
  // The light direction is the camera view's to_light; the light block's shading fields (sky, fog,
  // exposure) are the camera view's lighting.
  void fit(const FrameView& camera, float distance, float caster_reach);

  // Without a shadow pass this frame: the light block takes the camera view's light and lighting with
  // the map off (every receiver fully lit), recorded outside rendering. A scene frame drawn without a
  // shadow map binds one of these, so every frame's receivers shade with the view's light.
  void record_light_only(VkCommandBuffer cmd, const FrameView& camera);

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
  // Whether receivers see this map's shadows (false for a light-only block: record_light_only).
  bool casts_shadows() const { return params_.to_light.w != 0.0f; }
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
  shader::LightParamsGpu params_{};
  FrameView view_;

  // Records params_ into the block, ordered after last frame's reads and before this frame's.
  void record_params(VkCommandBuffer cmd);
};

// The depth-only caster variant of a pass's pipeline: `b` with its vertex shader and layout, built
// without fragment stage or colour, in the map's format, both faces, with the bias above.
gpu::Pipeline build_shadow_caster(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder b);
// The same with a depth-only `fragment` stage (an alpha test that discards: leaf cards cast their
// leaves' shadow) and `extra` bindings after the layout's own (what it samples). Costlier than a
// caster without fragment stage: only for casters that need it.
gpu::Pipeline build_alpha_tested_caster(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder b,
                                        std::span<const std::uint32_t> fragment,
                                        std::span<const VkDescriptorType> extra);

// A receiving pass's pipeline in each shading mode (lighting.glsl's specialisation constant 0), each
// built the first time a frame asks for it: a scene drawn only in full shading never compiles the flat
// variant. Both variants share one layout shape, so descriptors pushed for either fit the other.
class ShadedPipeline {
 public:
  ShadedPipeline() = default;
  ShadedPipeline(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder builder);
  // The pipeline of `shading` (built on first use).
  const gpu::Pipeline& get(Shading shading) const;
  const gpu::Pipeline& of(const FrameView& view) const { return get(view.lighting.shading); }
  bool built() const { return ctx_ != nullptr; }

 private:
  const gpu::Context* ctx_ = nullptr;
  gpu::GraphicsPipelineBuilder builder_;
  mutable std::array<gpu::Pipeline, 2> variants_;
};

// The receiving variant of a pass's pipeline: `b` (vertex shader, layout, cull mode) with `fragment`,
// `extra` bindings after the layout's own, then ShadowReceiver's two, drawing into `color` + `depth`.
ShadedPipeline build_shadow_receiver(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder b,
                                     std::span<const std::uint32_t> fragment,
                                     std::span<const VkDescriptorType> extra, VkFormat color, VkFormat depth);

// The reverse-Z compare sampler of shadow lookups (GREATER_OR_EQUAL passes = lit), linear when the
// device filters depth, clamp to edge.
gpu::Sampler make_shadow_sampler(const gpu::Context& ctx);

// Held by each receiving renderer: the two bindings its passes add (shadow.glsl: the frame's light block,
// then the map with its compare sampler), either a ShadowMap's or, for a renderer drawn outside a scene
// frame without one, a stand-in: fully lit, shaded with a default FrameView's light and lighting.
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
