#include "myriad/gpu/pipeline/pipeline.hpp"

#include <array>
#include <optional>
#include <utility>

#include "myriad/gpu/pipeline/recorded_binds.hpp"

namespace myriad::gpu {
namespace {

struct ShaderModule {
  VkDevice device;
  VkShaderModule module = VK_NULL_HANDLE;
  ShaderModule(VkDevice d, std::span<const std::uint32_t> spirv) : device(d) {
    if (spirv.empty()) throw Error("empty SPIR-V module");
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = spirv.size_bytes();
    info.pCode = spirv.data();
    check(vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
  }
  ~ShaderModule() { vkDestroyShaderModule(device, module, nullptr); }
  ShaderModule(const ShaderModule&) = delete;
  ShaderModule& operator=(const ShaderModule&) = delete;
};

VkPipelineShaderStageCreateInfo stage_info(VkShaderStageFlagBits stage, VkShaderModule module) {
  VkPipelineShaderStageCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage = stage;
  info.module = module;
  info.pName = "main";
  return info;
}

}  // namespace

Pipeline& Pipeline::operator=(Pipeline&& o) noexcept {
  if (this != &o) {
    reset();
    device_ = std::exchange(o.device_, VK_NULL_HANDLE);
    pipeline_ = std::exchange(o.pipeline_, VK_NULL_HANDLE);
    layout_ = std::exchange(o.layout_, VK_NULL_HANDLE);
    set_layout_ = std::exchange(o.set_layout_, VK_NULL_HANDLE);
    bind_point_ = o.bind_point_;
    stages_ = o.stages_;
  }
  return *this;
}

void Pipeline::reset() noexcept {
  if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
}

void Pipeline::create_layout(const Context& ctx, const PipelineLayoutDesc& desc, VkShaderStageFlags stages) {
  device_ = ctx.device();
  stages_ = stages;
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (std::uint32_t i = 0; i < desc.bindings.size(); ++i) {
    bindings.push_back({i, desc.bindings[i], 1, stages, nullptr});
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  set_info.bindingCount = std::uint32_t(bindings.size());
  set_info.pBindings = bindings.data();
  check(vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout_),
        "vkCreateDescriptorSetLayout");

  VkPushConstantRange range{stages, 0, desc.push_constant_bytes};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout_;
  info.pushConstantRangeCount = desc.push_constant_bytes ? 1 : 0;
  info.pPushConstantRanges = &range;
  check(vkCreatePipelineLayout(device_, &info, nullptr, &layout_), "vkCreatePipelineLayout");
}

Pipeline make_compute_pipeline(const Context& ctx, std::span<const std::uint32_t> spirv,
                               const PipelineLayoutDesc& layout) {
  Pipeline p;
  p.bind_point_ = VK_PIPELINE_BIND_POINT_COMPUTE;
  p.create_layout(ctx, layout, VK_SHADER_STAGE_COMPUTE_BIT);
  ShaderModule module(ctx.device(), spirv);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = stage_info(VK_SHADER_STAGE_COMPUTE_BIT, module.module);
  info.layout = p.layout_;
  check(vkCreateComputePipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline_),
        "vkCreateComputePipelines");
  return p;
}

Pipeline GraphicsPipelineBuilder::build(const Context& ctx) const {
  Pipeline p;
  p.bind_point_ = VK_PIPELINE_BIND_POINT_GRAPHICS;
  const VkShaderStageFlags stages =
      VK_SHADER_STAGE_VERTEX_BIT | (fragment.empty() ? 0 : VK_SHADER_STAGE_FRAGMENT_BIT);
  p.create_layout(ctx, layout, stages);

  ShaderModule vs(ctx.device(), vertex);
  std::vector<VkPipelineShaderStageCreateInfo> stage_infos{stage_info(VK_SHADER_STAGE_VERTEX_BIT, vs.module)};
  std::optional<ShaderModule> fs;
  std::vector<VkSpecializationMapEntry> constant_entries(fragment_constants.size());
  for (std::size_t i = 0; i < constant_entries.size(); ++i)
    constant_entries[i] = {std::uint32_t(i), std::uint32_t(i * sizeof(std::uint32_t)), sizeof(std::uint32_t)};
  const VkSpecializationInfo constants{std::uint32_t(constant_entries.size()), constant_entries.data(),
                                       fragment_constants.size() * sizeof(std::uint32_t),
                                       fragment_constants.data()};
  if (!fragment.empty()) {
    fs.emplace(ctx.device(), fragment);
    stage_infos.push_back(stage_info(VK_SHADER_STAGE_FRAGMENT_BIT, fs->module));
    if (!fragment_constants.empty()) stage_infos.back().pSpecializationInfo = &constants;
  }

  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = topology;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = cull_mode;
  raster.frontFace = front_face;
  raster.lineWidth = 1.0f;
  if (depth_bias_constant != 0.0f || depth_bias_slope != 0.0f) {
    raster.depthBiasEnable = VK_TRUE;
    raster.depthBiasConstantFactor = depth_bias_constant;
    raster.depthBiasSlopeFactor = depth_bias_slope;
  }
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = depth_test ? VK_TRUE : VK_FALSE;
  depth.depthWriteEnable = depth_write ? VK_TRUE : VK_FALSE;
  depth.depthCompareOp = depth_compare;
  std::vector<VkPipelineColorBlendAttachmentState> blend_states(color_formats.size());
  for (auto& b : blend_states) {
    b.colorWriteMask =
        VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
        (write_alpha ? VkColorComponentFlags{VK_COLOR_COMPONENT_A_BIT} : VkColorComponentFlags{0});
    if (alpha_blend) {
      b.blendEnable = VK_TRUE;
      b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
      b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
      b.colorBlendOp = VK_BLEND_OP_ADD;
      b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
      b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
      b.alphaBlendOp = VK_BLEND_OP_ADD;
    }
  }
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = std::uint32_t(blend_states.size());
  blend.pAttachments = blend_states.data();
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                           VK_DYNAMIC_STATE_CULL_MODE};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = dynamic_cull_mode ? 3 : 2;
  dynamic.pDynamicStates = dynamic_states;

  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = std::uint32_t(color_formats.size());
  rendering.pColorAttachmentFormats = color_formats.data();
  rendering.depthAttachmentFormat = depth_format;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  info.stageCount = std::uint32_t(stage_infos.size());
  info.pStages = stage_infos.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = p.layout_;
  check(vkCreateGraphicsPipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline_),
        "vkCreateGraphicsPipelines");
  return p;
}

Binding storage_buffer(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
  Binding b{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  b.buffer = {buffer, offset, range};
  return b;
}

Binding storage_buffer(const Buffer& buffer) { return storage_buffer(buffer.handle(), 0, VK_WHOLE_SIZE); }

Binding uniform_buffer(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
  Binding b{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
  b.buffer = {buffer, offset, range};
  return b;
}

Binding sampled_image(VkSampler sampler, VkImageView view, VkImageLayout layout) {
  Binding b{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
  b.image = {sampler, view, layout};
  return b;
}

Binding storage_image(VkImageView view, VkImageLayout layout) {
  Binding b{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
  b.image = {VK_NULL_HANDLE, view, layout};
  return b;
}

void bind(const Context& ctx, VkCommandBuffer cmd, const Pipeline& pipeline,
          std::span<const Binding> bindings, const void* push_constants, std::uint32_t push_bytes) {
  bind_pipeline(cmd, pipeline);
  bind_resources(ctx, cmd, pipeline, bindings, push_constants, push_bytes);
}

void bind_pipeline(VkCommandBuffer cmd, const Pipeline& pipeline) {
  vkCmdBindPipeline(cmd, pipeline.bind_point(), pipeline.handle());
  RecordedBinds::count(pipeline.bind_point());
}

namespace {
thread_local RecordedBinds* current_binds = nullptr;
}  // namespace

RecordedBinds::RecordedBinds() : outer_(current_binds) { current_binds = this; }

RecordedBinds::~RecordedBinds() {
  current_binds = outer_;
  if (outer_) {
    outer_->graphics_ += graphics_;
    outer_->compute_ += compute_;
  }
}

void RecordedBinds::count(VkPipelineBindPoint point) {
  if (!current_binds) return;
  if (point == VK_PIPELINE_BIND_POINT_COMPUTE)
    ++current_binds->compute_;
  else
    ++current_binds->graphics_;
}

void bind_resources(const Context& ctx, VkCommandBuffer cmd, const Pipeline& pipeline,
                    std::span<const Binding> bindings, const void* push_constants, std::uint32_t push_bytes) {
  if (!bindings.empty()) {
    // Fixed-size scratch: bind() runs per pass per frame and must not allocate.
    std::array<VkWriteDescriptorSet, 16> writes{};
    if (bindings.size() > writes.size()) throw Error("more than 16 bindings in one pipeline");
    for (std::uint32_t i = 0; i < bindings.size(); ++i) {
      VkWriteDescriptorSet& w = writes[i];
      w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w.dstBinding = i;
      w.descriptorCount = 1;
      w.descriptorType = bindings[i].type;
      const bool is_image = bindings[i].type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
                            bindings[i].type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
                            bindings[i].type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
      if (is_image) {
        w.pImageInfo = &bindings[i].image;
      } else {
        w.pBufferInfo = &bindings[i].buffer;
      }
    }
    ctx.cmd_push_descriptor_set(cmd, pipeline.bind_point(), pipeline.layout(), 0,
                                std::uint32_t(bindings.size()), writes.data());
  }
  if (push_bytes)
    vkCmdPushConstants(cmd, pipeline.layout(), pipeline.stages(), 0, push_bytes, push_constants);
}

}  // namespace myriad::gpu
