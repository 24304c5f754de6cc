// Blob shadows for avatars (SPEC B9): one soft dark disc per avatar on the ground instead of shadow
// maps. Crowds are far too many casters for shadow maps at this budget, and a disc under the feet
// is enough to seat an avatar on the ground. All blobs are one instanced draw of a 4-vertex quad,
// recorded after opaque geometry inside the same rendering pass: depth test on (occluders hide the
// disc), depth write off (a decal must not occlude), alpha blended.
#pragma once

#include <cstdint>
#include <span>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/shaders/avatar_blob_layout.h"

namespace myriad::render {

// The blob under an avatar whose root is at `root` and whose horizontal half-extent is
// `avatar_radius`: centred at root XZ on the ground, a little wider than the avatar (kBlobScale) so
// the soft rim reaches past the feet.
inline constexpr float kBlobScale = 1.25f;
shader::AvatarBlob avatar_blob(glm::vec3 root, float avatar_radius, float ground_height,
                               float strength = 0.6f);

// The blob's alpha at normalised distance d = distance / radius from its centre (the shader's formula).
float avatar_blob_alpha(float d, float strength);

class AvatarBlobShadow {
 public:
  AvatarBlobShadow(gpu::Context& ctx, VkFormat color_format, VkFormat depth_format, std::uint32_t capacity);

  // Uploads the blobs now and waits (setup; no frame may be in flight).
  void set_blobs(std::span<const shader::AvatarBlob> blobs);
  // Per frame, for blobs that move with walking avatars: stages them in the upload queue ("avatars");
  // record_upload(), outside rendering in the same frame, records the queue.
  void stage_blobs(std::span<const shader::AvatarBlob> blobs);
  void record_upload(VkCommandBuffer cmd);
  // Inside dynamic rendering, after opaque geometry: one vkCmdDraw(4, count). `lift` raises the discs
  // above the ground plane so they pass the GREATER_OR_EQUAL test against the ground's own depth.
  void draw(VkCommandBuffer cmd, const glm::mat4& view_proj, float lift = 0.02f) const;

  std::uint32_t count() const { return count_; }

 private:
  gpu::Context& ctx_;
  gpu::OwnedUploadShare upload_share_;
  gpu::Pipeline pipeline_;
  gpu::Buffer blobs_;
  std::uint32_t capacity_;
  std::uint32_t count_ = 0;
};

}  // namespace myriad::render
