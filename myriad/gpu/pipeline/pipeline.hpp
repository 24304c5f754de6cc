// Compute and graphics pipelines built from embedded SPIR-V. Resources are bound with push
// descriptors (one set, described by a list of binding types) and push constants; there are no
// descriptor pools. Graphics pipelines use dynamic rendering and pull vertices from buffers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/device/context.hpp"

namespace myriad::gpu {

// Binding i of set 0 has type bindings[i], visible to every stage of the pipeline.
struct PipelineLayoutDesc {
  std::vector<VkDescriptorType> bindings;
  std::uint32_t push_constant_bytes = 0;
};

class Pipeline {
 public:
  Pipeline() = default;
  ~Pipeline() { reset(); }
  Pipeline(Pipeline&& o) noexcept { *this = std::move(o); }
  Pipeline& operator=(Pipeline&& o) noexcept;
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  VkPipelineBindPoint bind_point() const { return bind_point_; }
  VkShaderStageFlags stages() const { return stages_; }
  explicit operator bool() const { return pipeline_ != VK_NULL_HANDLE; }
  void reset() noexcept;

 private:
  friend Pipeline make_compute_pipeline(const Context&, std::span<const std::uint32_t>,
                                        const PipelineLayoutDesc&);
  friend struct GraphicsPipelineBuilder;
  void create_layout(const Context& ctx, const PipelineLayoutDesc& desc, VkShaderStageFlags stages);

  VkDevice device_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineBindPoint bind_point_ = VK_PIPELINE_BIND_POINT_COMPUTE;
  VkShaderStageFlags stages_ = 0;
};

Pipeline make_compute_pipeline(const Context& ctx, std::span<const std::uint32_t> spirv,
                               const PipelineLayoutDesc& layout);

struct GraphicsPipelineBuilder {
  std::span<const std::uint32_t> vertex;
  std::span<const std::uint32_t> fragment;  // may be empty (depth-only passes)
  // The fragment shader's specialisation constants: value i for constant_id i (each 32 bits).
  std::vector<std::uint32_t> fragment_constants;
  PipelineLayoutDesc layout;
  std::vector<VkFormat> color_formats;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkCullModeFlags cull_mode = VK_CULL_MODE_BACK_BIT;
  // The cull mode is set while recording (vkCmdSetCullMode, core in Vulkan 1.3) instead of cull_mode:
  // one pipeline draws single- and double-sided materials.
  bool dynamic_cull_mode = false;
  VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool depth_test = true;
  bool depth_write = true;
  VkCompareOp depth_compare = VK_COMPARE_OP_GREATER_OR_EQUAL;  // reverse-Z
  // Straight-alpha "over" blending on every colour attachment (colour SRC_ALPHA /
  // ONE_MINUS_SRC_ALPHA, alpha ONE / ONE_MINUS_SRC_ALPHA) for decals such as blob shadows; off = opaque.
  bool alpha_blend = false;
  // Off: colour attachments keep their alpha (a pass that paints behind everything leaves the clear's
  // alpha, which marks pixels no geometry covered).
  bool write_alpha = true;
  // Constant and slope-scaled depth bias (depth-only shadow passes); both 0 = off.
  float depth_bias_constant = 0.0f;
  float depth_bias_slope = 0.0f;
  std::uint32_t clip_distances = 0;  // informative; shaders declare them

  Pipeline build(const Context& ctx) const;
};

// Binding helpers for push descriptors.
struct Binding {
  VkDescriptorType type;
  VkDescriptorBufferInfo buffer{};
  VkDescriptorImageInfo image{};
};
Binding storage_buffer(VkBuffer buffer, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE);
// The whole of `buffer`, with its guard bytes when the context has buffer guards: drivers that
// bounds-check storage accesses against the bound range (lavapipe does) would otherwise drop an
// out-of-bounds write silently instead of letting it land in the guard, where it is reported. So a
// shader's .length() may exceed size() in tests: shaders bound their indices by the capacities the CPU
// derives from the buffers it made (push constants, parameter blocks) and use .length() only as a
// second fence.
Binding storage_buffer(const Buffer& buffer);
Binding uniform_buffer(VkBuffer buffer, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE);
Binding sampled_image(VkSampler sampler, VkImageView view, VkImageLayout layout);
Binding storage_image(VkImageView view, VkImageLayout layout = VK_IMAGE_LAYOUT_GENERAL);

// Binds `pipeline` and pushes its descriptors (binding i = bindings[i]) and push constants.
void bind(const Context& ctx, VkCommandBuffer cmd, const Pipeline& pipeline,
          std::span<const Binding> bindings, const void* push_constants = nullptr,
          std::uint32_t push_bytes = 0);
// bind() in two halves, for passes that draw many batches with one pipeline: bind_pipeline() once,
// then bind_resources() only when the batch's buffers change. Pushed descriptors and push constants
// stay in effect for later draws until pushed again or a pipeline with another layout is bound.
void bind_pipeline(VkCommandBuffer cmd, const Pipeline& pipeline);
// Pushes descriptors (binding i = bindings[i]) and push constants through `pipeline`'s layout; bind
// `pipeline` (or one with the same layout) before drawing.
void bind_resources(const Context& ctx, VkCommandBuffer cmd, const Pipeline& pipeline,
                    std::span<const Binding> bindings, const void* push_constants = nullptr,
                    std::uint32_t push_bytes = 0);

}  // namespace myriad::gpu
