#include "myriad/render/avatars/avatar_blob_shadow.hpp"

#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/gpu/sync/sync.hpp"

#include <array>
#include <cstring>

#include "myriad/core/io/error.hpp"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

shader::AvatarBlob avatar_blob(glm::vec3 root, float avatar_radius, float ground_height, float strength) {
  return {glm::vec3(root.x, ground_height, root.z), avatar_radius * kBlobScale, strength};
}

float avatar_blob_alpha(float d, float strength) {
  if (d >= 1.0f) return 0.0f;
  const float falloff = 1.0f - d * d;
  return strength * falloff * falloff;
}

AvatarBlobShadow::AvatarBlobShadow(gpu::Context& ctx, VkFormat color_format, VkFormat depth_format,
                                   std::uint32_t capacity)
    : ctx_(ctx), upload_share_(ctx.uploads(), "avatars"), capacity_(capacity) {
  if (capacity == 0) throw Error("avatar blob shadow: capacity must be positive");
  blobs_ = gpu::Buffer(ctx, VkDeviceSize(capacity) * sizeof(shader::AvatarBlob),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::GraphicsPipelineBuilder builder;
  builder.vertex = spirv::avatar_blob_vert();
  builder.fragment = spirv::avatar_blob_frag();
  builder.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, sizeof(shader::AvatarBlobPush)};
  builder.color_formats = {color_format};
  builder.depth_format = depth_format;
  builder.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  builder.cull_mode = VK_CULL_MODE_NONE;  // the quad's winding flips with the view; both sides count
  builder.depth_write = false;
  builder.alpha_blend = true;
  pipeline_ = builder.build(ctx);
}

void AvatarBlobShadow::set_blobs(std::span<const shader::AvatarBlob> blobs) {
  if (blobs.size() > capacity_) throw Error("avatar blob shadow: more blobs than capacity");
  if (!blobs.empty()) gpu::upload(ctx_, blobs_, blobs);
  count_ = std::uint32_t(blobs.size());
}

void AvatarBlobShadow::stage_blobs(std::span<const shader::AvatarBlob> blobs) {
  if (blobs.size() > capacity_) throw Error("avatar blob shadow: more blobs than capacity");
  count_ = std::uint32_t(blobs.size());
  if (blobs.empty()) return;
  gpu::UploadQueue& uploads = ctx_.uploads();
  const gpu::StagingRing::Span staged = uploads.reserve(upload_share_, blobs.size_bytes(), 16);
  std::memcpy(staged.data, blobs.data(), blobs.size_bytes());
  uploads.copy_from(staged, 0, blobs_.handle(), 0, blobs.size_bytes());
}

void AvatarBlobShadow::record_upload(VkCommandBuffer cmd) { ctx_.uploads().record(cmd); }

void AvatarBlobShadow::draw(VkCommandBuffer cmd, const glm::mat4& view_proj, float lift) const {
  if (count_ == 0) return;
  const shader::AvatarBlobPush push{view_proj, glm::vec4(lift, 0.0f, 0.0f, 0.0f)};
  const std::array bindings{gpu::storage_buffer(blobs_)};
  gpu::bind(ctx_, cmd, pipeline_, bindings, &push, sizeof(push));
  vkCmdDraw(cmd, 4, count_, 0, 0);
}

}  // namespace myriad::render
