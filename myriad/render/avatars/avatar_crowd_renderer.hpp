// A crowd of skinned avatars on the GPU (SPEC B4-B9): an AvatarCrowd (batch renderer) animated on the
// CPU, its palettes and draw list uploaded per frame into the global palette buffer and the batch
// buffers, skinned in skin.vert with one instanced draw per (part mesh, property set) batch, a blob
// shadow under each avatar, and an optional ID pass naming each pixel's avatar. The avatar scene and
// the default scene both draw avatars through it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "myriad/anim/avatar.hpp"
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/render/avatars/avatar_blob_shadow.hpp"
#include "myriad/render/avatars/batch_gpu.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/avatars/skin_renderer.hpp"

namespace myriad::render {

struct AvatarDrawStats {
  std::uint64_t avatars = 0, visible = 0;
  std::uint64_t draws = 0, draws_unbatched = 0, pipeline_binds = 0;
  std::uint64_t vertices = 0, triangles = 0;  // instanced draws' totals
  std::uint64_t matrices = 0;                 // palette matrices computed this frame
  double cpu_update_ms = 0.0;                 // update(): animation, palettes, culling, staging
};

class AvatarCrowdRenderer : public FrameSystem {
 public:
  using FrameSystem::cull;
  using FrameSystem::draw;

  // `crowd` places the avatars (count, grid spacing and origin, seed); `clothed` adds clothing parts.
  AvatarCrowdRenderer(gpu::Context& ctx, const batch::AvatarCrowdOptions& crowd, bool clothed,
                      VkFormat color_format, VkFormat depth_format);

  // CPU: sample, pose, palettes, culling and draw list for this camera, `dt` seconds later; stages the
  // palettes, changed batch data and the draw list's slots.
  // The batch renderer culls on the CPU, here: cull() records nothing.
  void update(const FrameView& view, float dt) override;
  // Outside rendering: the staged uploads and their barriers.
  void upload(VkCommandBuffer cmd) override;
  void set_palette_upload(PaletteUpload how) { palette_upload_ = how; }
  void cull(VkCommandBuffer, const FrameView&, FramePhase, const DepthPyramid*) override {}
  // Inside rendering, phase 1: the avatars, then their blob shadows (they blend over what is drawn so
  // far: draw avatars after the other opaque systems of the phase). Avatars cast no map shadow (B9).
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;
  // Inside rendering: their palette offsets + 1 as RGB (ID pass), no blobs.
  void draw_ids(VkCommandBuffer cmd, const FrameView& view);

  const AvatarDrawStats& stats() const { return stats_; }
  const batch::AvatarCrowd& crowd() const { return *crowd_; }
  std::uint64_t gpu_bytes() const;

 private:
  void draw_with(VkCommandBuffer cmd, const gpu::Pipeline& pipeline, const glm::mat4& view_proj);

  gpu::Context& ctx_;
  anim::Avatar avatar_;
  std::unique_ptr<batch::AvatarCrowd> crowd_;
  std::unique_ptr<SkinMeshArena> arena_;
  std::unique_ptr<SkinPalette> palette_;
  std::unique_ptr<BatchGpuData> batches_;
  gpu::Buffer slots_;
  std::optional<VkBufferCopy> slots_copy_;  // from the ring: the slots update() staged, until upload()
  gpu::Pipeline pipeline_, id_pipeline_;
  VkFormat color_format_, depth_format_;
  std::unique_ptr<AvatarBlobShadow> blobs_;
  AvatarDrawStats stats_;
  PaletteUpload palette_upload_ = PaletteUpload::kStagingCopy;
};

}  // namespace myriad::render
