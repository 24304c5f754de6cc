#include "myriad/render/passes/shadow_map.hpp"

#include <algorithm>
#include <cmath>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/pipeline/rendering.hpp"
#include "myriad/gpu/sync/sync.hpp"

namespace myriad::render {
namespace {

constexpr VkImageLayout kReadLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;

gpu::Buffer make_params_buffer(gpu::Context& ctx) {
  return gpu::Buffer(ctx, sizeof(shader::LightParamsGpu),
                     VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     gpu::MemoryKind::kDeviceLocal);
}

// The radius of the smallest sphere centred on the view axis that holds the frustum slice [n, f] of a
// camera with tan(half fov) = tx, ty. It depends on the lenses and distances only, never on where the
// camera looks, so the shadow box keeps its size (and texel size) while the camera turns.
float slice_radius(float n, float f, float tx, float ty, float& centre_distance) {
  const float k2 = tx * tx + ty * ty;
  // Equal distance to the near and far corners, clamped into the slice.
  const float t = std::min(0.5f * (f + n) * (1.0f + k2), f);
  centre_distance = t;
  const float near_sq = (t - n) * (t - n) + n * n * k2;
  const float far_sq = (f - t) * (f - t) + f * f * k2;
  return std::sqrt(std::max(near_sq, far_sq));
}

}  // namespace

gpu::Sampler make_shadow_sampler(const gpu::Context& ctx) {
  VkFormatProperties props{};
  vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), ShadowMap::kDepthFormat, &props);
  const bool linear = (props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) != 0;
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  info.minFilter = info.magFilter;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.compareEnable = VK_TRUE;
  info.compareOp = VK_COMPARE_OP_GREATER_OR_EQUAL;  // reverse-Z: nothing nearer the light = lit
  info.maxLod = 0.0f;
  return gpu::Sampler(ctx, info);
}

gpu::Pipeline build_shadow_caster(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder b) {
  return build_alpha_tested_caster(ctx, std::move(b), {}, {});
}

gpu::Pipeline build_alpha_tested_caster(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder b,
                                        std::span<const std::uint32_t> fragment,
                                        std::span<const VkDescriptorType> extra) {
  b.fragment = fragment;
  b.fragment_constants.clear();
  b.layout.bindings.insert(b.layout.bindings.end(), extra.begin(), extra.end());
  b.color_formats.clear();
  b.depth_format = ShadowMap::kDepthFormat;
  b.cull_mode = VK_CULL_MODE_NONE;  // thin casters (leaves, the world's open edges) cast from both sides
  b.depth_bias_constant = kShadowBiasConstant;
  b.depth_bias_slope = kShadowBiasSlope;
  return b.build(ctx);
}

ShadowMap::ShadowMap(gpu::Context& ctx, std::uint32_t size)
    : ctx_(ctx),
      size_(size),
      image_(ctx, {kDepthFormat, size, size, 1,
                   VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT}),
      sampler_(make_shadow_sampler(ctx)),
      params_buffer_(make_params_buffer(ctx)) {
  if (size < 16)
    throw Error("shadow map of " + std::to_string(size) + " texels", "ShadowMap", "use 16 or more");
  // Readable before the first pass (a receiver drawn before any begin/end sees "far" = lit).
  const std::vector<float> far(std::size_t(size) * size, 0.0f);
  gpu::upload_image(ctx, image_, std::as_bytes(std::span(far)), kReadLayout);
  gpu::upload(ctx, params_buffer_, std::span<const shader::LightParamsGpu>(&params_, 1));
}

void ShadowMap::fit(const FrameView& camera, float distance, float caster_reach) {
  const glm::vec3 to_light = camera.to_light;
  if (!(glm::length(to_light) > 0.0f)) throw Error("ShadowMap::fit: zero light direction");
  const float n = camera.near_plane;
  const float f = std::max(distance, n * 1.001f);
  const float ty = std::tan(0.5f * camera.fov_y), tx = ty * camera.aspect;
  float centre_distance = 0.0f;
  float radius = slice_radius(n, f, tx, ty, centre_distance);
  radius = std::ceil(radius * 16.0f) / 16.0f;  // rounding noise must not change the texel size
  const glm::vec3 centre = camera.eye + camera.forward * centre_distance;

  // Light frame fixed in the world (depends on the light only): x right, y up, z towards the light.
  const glm::vec3 back = glm::normalize(to_light);
  const glm::vec3 hint = std::abs(back.y) > 0.99f ? glm::vec3(0.0f, 0.0f, 1.0f) : kWorldUp;
  const glm::vec3 right = glm::normalize(glm::cross(hint, back));
  const glm::vec3 up = glm::cross(back, right);

  // Half extent one texel wider than the sphere, so snapping the centre down to whole texels never
  // pushes the slice out of the box: texel = 2 * half / size with half = radius + texel.
  const float texel = 2.0f * radius / float(size_ - 2);
  const float half = radius + texel;
  const float cx = std::floor(glm::dot(right, centre) / texel) * texel;
  const float cy = std::floor(glm::dot(up, centre) / texel) * texel;
  const float cz = glm::dot(back, centre);
  // Depth range: the sphere, plus the reach towards the light; ends snapped like the centre.
  const float z_far = std::floor((cz - radius) / texel) * texel;
  const float z_near = std::ceil((cz + radius + std::max(caster_reach, 0.0f)) / texel) * texel;

  // clip.x = (x - cx) / half, clip.y = (y - cy) / half, clip.z = (z - z_far) / (z_near - z_far).
  const float depth_scale = 1.0f / (z_near - z_far);
  glm::mat4 m(0.0f);
  for (int c = 0; c < 3; ++c) {
    m[c][0] = right[c] / half;
    m[c][1] = up[c] / half;
    m[c][2] = back[c] * depth_scale;
  }
  m[3][0] = -cx / half;
  m[3][1] = -cy / half;
  m[3][2] = -z_far * depth_scale;
  m[3][3] = 1.0f;
  view_ = camera.light_view(m);
  params_.light_view_proj = m;
  params_.to_light = glm::vec4(view_.to_light, 1.0f);
  params_.texel = glm::vec4(texel, depth_scale, 1.0f / float(size_), 0.0f);
  fill_lighting(params_, camera);
}

void ShadowMap::record_params(VkCommandBuffer cmd) {
  // Last frame's receivers finished reading the block (and the map) before they are rewritten.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_NONE);
  vkCmdUpdateBuffer(cmd, params_buffer_.handle(), 0, sizeof(params_), &params_);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_UNIFORM_READ_BIT);
}

void ShadowMap::record_light_only(VkCommandBuffer cmd, const FrameView& camera) {
  params_.to_light.w = 0.0f;  // shadow_visibility() returns 1
  fill_lighting(params_, camera);
  record_params(cmd);
}

void ShadowMap::begin(VkCommandBuffer cmd) {
  record_params(cmd);
  gpu::image_barrier(
      cmd, {image_.handle(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_NONE,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
            VK_IMAGE_ASPECT_DEPTH_BIT});
  const VkRenderingAttachmentInfo depth = gpu::depth_attachment(image_.view(), true);
  gpu::begin_rendering(cmd, size_, size_, nullptr, &depth);
}

void ShadowMap::end(VkCommandBuffer cmd) {
  vkCmdEndRendering(cmd);
  gpu::image_barrier(
      cmd, {image_.handle(), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, kReadLayout,
            VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
            VK_IMAGE_ASPECT_DEPTH_BIT});
  // The shadow draws' indirect and vertex reads finish before the camera view's culling rewrites the
  // same args and lists (execution only: those reads wrote nothing).
  gpu::memory_barrier(cmd,
                      VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_NONE,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_NONE);
}

std::uint64_t ShadowMap::gpu_bytes() const {
  return std::uint64_t(size_) * size_ * sizeof(float) + params_buffer_.size();
}

ShadowReceiver::ShadowReceiver(gpu::Context& ctx)
    : lit_map_(ctx, {ShadowMap::kDepthFormat, 1, 1, 1, VK_IMAGE_USAGE_SAMPLED_BIT}),
      sampler_(make_shadow_sampler(ctx)),
      lit_params_(make_params_buffer(ctx)) {
  const float far = 0.0f;
  gpu::upload_image(ctx, lit_map_, std::as_bytes(std::span(&far, 1)), kReadLayout);
  shader::LightParamsGpu off{};  // to_light.w = 0: shadow_visibility() returns 1
  const FrameView view;
  fill_lighting(off, view);
  gpu::upload(ctx, lit_params_, std::span<const shader::LightParamsGpu>(&off, 1));
}

ShadedPipeline::ShadedPipeline(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder builder)
    : ctx_(&ctx), builder_(std::move(builder)) {
  get(Shading::kFull);  // the default mode's pipeline now: its errors surface where the renderer is built
}

const gpu::Pipeline& ShadedPipeline::get(Shading shading) const {
  gpu::Pipeline& p = variants_[std::size_t(shading)];
  if (p.handle() == VK_NULL_HANDLE) {
    gpu::GraphicsPipelineBuilder b = builder_;
    b.fragment_constants = {std::uint32_t(shading)};
    p = b.build(*ctx_);
  }
  return p;
}

ShadedPipeline build_shadow_receiver(const gpu::Context& ctx, gpu::GraphicsPipelineBuilder b,
                                     std::span<const std::uint32_t> fragment,
                                     std::span<const VkDescriptorType> extra, VkFormat color,
                                     VkFormat depth) {
  b.fragment = fragment;
  b.layout.bindings.insert(b.layout.bindings.end(), extra.begin(), extra.end());
  ShadowReceiver::add_bindings(b.layout);
  b.color_formats = {color};
  b.depth_format = depth;
  return ShadedPipeline(ctx, std::move(b));
}

void ShadowReceiver::add_bindings(gpu::PipelineLayoutDesc& layout) {
  layout.bindings.insert(layout.bindings.end(), kBindingTypes.begin(), kBindingTypes.end());
}

std::array<gpu::Binding, 2> ShadowReceiver::bindings(const ShadowMap* shadow) const {
  if (shadow == nullptr)
    return {gpu::uniform_buffer(lit_params_.handle()),
            gpu::sampled_image(sampler_.handle(), lit_map_.view(), kReadLayout)};
  return {gpu::uniform_buffer(shadow->params_buffer().handle()),
          gpu::sampled_image(shadow->sampler(), shadow->image().view(), kReadLayout)};
}

}  // namespace myriad::render
