// The default scene's skinned avatars (SPEC B4-B9): an AvatarCrowd on the batch renderer animated every
// frame on the CPU, its palettes and draw list uploaded per frame, skinned in skin.vert with one
// instanced draw per (part mesh, property set) batch, and a blob shadow under each avatar.
#pragma once

#include <cstdint>
#include <memory>

#include "myriad/anim/avatar.hpp"
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/render/avatar_blob_shadow.hpp"
#include "myriad/render/batch_gpu.hpp"
#include "myriad/render/skin_renderer.hpp"

namespace myriad::render {

struct WorldAvatarStats {
  std::uint64_t avatars = 0, visible = 0;
  std::uint64_t draws = 0, draws_unbatched = 0, pipeline_binds = 0;
  std::uint64_t vertices = 0, triangles = 0;  // instanced draws' totals
  std::uint64_t matrices = 0;                 // palette matrices computed this frame
};

class WorldAvatars {
 public:
  // `count` avatars on a square grid starting at `origin` (rows along +X, then -Z), `spacing` apart.
  WorldAvatars(gpu::Context& ctx, std::uint32_t count, glm::vec3 origin, float spacing, VkFormat color_format,
               VkFormat depth_format);

  // CPU: sample, pose, palettes, culling and draw list for this camera; stages palettes and slots.
  void update(const batch::CullCamera& camera, float dt);
  // Outside rendering: palette and draw-list uploads with their barriers.
  void record_upload(VkCommandBuffer cmd);
  // Inside rendering: the avatars, then their blob shadows (after every opaque draw of the pass).
  void draw(VkCommandBuffer cmd, const glm::mat4& view_proj);
  void draw_blobs(VkCommandBuffer cmd, const glm::mat4& view_proj) const;

  const WorldAvatarStats& stats() const { return stats_; }
  std::uint64_t gpu_bytes() const;
  std::uint32_t count() const { return count_; }

 private:
  gpu::Context& ctx_;
  std::uint32_t count_;
  anim::Avatar avatar_;
  std::unique_ptr<batch::AvatarCrowd> crowd_;
  std::unique_ptr<SkinMeshArena> arena_;
  std::unique_ptr<SkinPalette> palette_;
  std::unique_ptr<BatchGpuData> batches_;
  gpu::Buffer slots_, slots_staging_;
  std::size_t slot_count_ = 0;
  gpu::Pipeline pipeline_;
  std::unique_ptr<AvatarBlobShadow> blobs_;
  WorldAvatarStats stats_;
};

}  // namespace myriad::render
