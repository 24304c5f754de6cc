// A crowd of skinned avatars on the GPU (SPEC B4-B9): an AvatarCrowd (batch renderer) animated and
// frustum-culled on the CPU, the palettes of the avatars it posed (all, or fewer when throttled) and
// changed batch data uploaded per frame into the global palette buffer and the batch buffers, its draw list
// tested against the depth pyramid on the GPU (BatchOcclusion, two-phase Hi-Z), skinned in skin.vert with one
// indirect instanced draw per (part mesh, property set) batch and phase, a blob shadow under each avatar, and
// an optional ID pass naming each pixel's avatar. The avatar scene and the default scene both draw avatars
// through it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "myriad/anim/kit/avatar.hpp"
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/render/avatars/avatar_blob_shadow.hpp"
#include "myriad/render/avatars/batch_occlusion.hpp"
#include "myriad/render/avatars/batch_gpu.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/avatars/skin_renderer.hpp"

namespace myriad::render {

// Avatar counts are renderer counts over the parts per avatar: every part of an avatar has the
// avatar's bounds, so the CPU and GPU tests keep or drop all its parts together.
struct AvatarDrawStats {
  std::uint64_t avatars = 0;
  std::uint64_t frustum_passed = 0;  // passed the CPU's frustum test (update())
  // Known after the frame completed (finish_frame()):
  std::uint64_t occluded = 0;                 // of those, hidden by the depth pyramid
  std::uint64_t visible = 0;                  // drawn (both phases)
  std::uint64_t vertices = 0, triangles = 0;  // the instanced draws' totals
  std::uint64_t draws = 0, draws_unbatched = 0;
  // vkCmdBindPipeline calls (one per pass that draws), descriptor pushes (one per batch type per
  // pass: the types' instance and property buffers differ) and the batch types (property sets) drawn.
  std::uint64_t pipeline_binds = 0, descriptor_binds = 0, batch_types = 0;
  std::uint64_t matrices = 0;  // palette matrices computed this frame
  // Avatars in the frustum at each LOD level (CPU LOD groups), and the vertices the CPU's draw list
  // would skin; `vertices` is what the GPU drew after occlusion.
  std::array<std::uint64_t, anim::kMaxPartLods> avatars_per_lod{};
  std::uint64_t vertices_listed = 0;
  // Avatars posed this frame (throttling skips far ones) and the palette bytes staged for them.
  std::uint64_t skeletons_updated = 0, palette_bytes_uploaded = 0;
  double cpu_update_ms = 0.0;  // update(): animation, palettes, culling, staging
};

class AvatarCrowdRenderer : public FrameSystem {
 public:
  using FrameSystem::cull;
  using FrameSystem::draw;

  // `crowd` places the avatars (count, grid spacing and origin, seed, throttling, outfit rules); each
  // avatar wears an outfit drawn from `kit` (anim/kit/outfit.hpp) and plays the kit's clips.
  AvatarCrowdRenderer(gpu::Context& ctx, std::shared_ptr<const anim::Avatar> kit,
                      const batch::AvatarCrowdOptions& crowd, VkFormat color_format, VkFormat depth_format);
  // The procedural humanoid kit (with its items when `clothed`).
  AvatarCrowdRenderer(gpu::Context& ctx, const batch::AvatarCrowdOptions& crowd, bool clothed,
                      VkFormat color_format, VkFormat depth_format);

  bool occlusion_culled() const override { return true; }
  // CPU: sample, pose, palettes, frustum culling and draw list for this camera, `dt` seconds later;
  // stages the palettes, changed batch data and the list for the GPU's occlusion passes.
  void update(const FrameView& view, float dt) override;
  // Outside rendering: the staged uploads and their barriers.
  void upload(VkCommandBuffer cmd) override;
  void set_palette_upload(PaletteUpload how) { palette_upload_ = how; }
  // Outside rendering: the phase's occlusion test and compaction of the draw list.
  void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
            const DepthPyramid* pyramid) override;
  // Inside rendering: the avatars the phase's cull kept; after the last phase their blob shadows
  // (they blend over what is drawn so far: draw avatars after the other opaque systems of the
  // phase), lit by the view's sun and shadowed by `shadow`. Avatars cast no map shadow (B9).
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;
  // Inside rendering, after the frame: the avatars the frame drew (both phases), their palette offsets
  // + 1 as RGB (ID pass), no blobs.
  void draw_ids(VkCommandBuffer cmd, const FrameView& view);
  // After the frame completed: reads what the GPU culled and drew into stats().
  void finish_frame();

  const AvatarDrawStats& stats() const { return stats_; }
  // finish_frame() first when drawn.
  SystemFrameStats read_frame_stats(bool drawn) override;
  const batch::AvatarCrowd& crowd() const { return *crowd_; }
  // E.g. to change avatars' property values (tint, pattern): update() uploads what changed.
  batch::AvatarCrowd& crowd() { return *crowd_; }
  const SkinPalette& palette() const { return *palette_; }
  std::uint64_t gpu_bytes() const;

 private:
  std::uint64_t avatars_of(std::uint64_t renderers) const;
  // One under each avatar, where it stands now (in discs_).
  const std::vector<shader::AvatarBlob>& blob_discs();
  std::vector<shader::AvatarBlob> discs_;
  // The list's draws of one command set, indirect, with `pipeline` (bound by the caller, once per
  // pass); descriptors pushed once per batch type.
  void draw_set(VkCommandBuffer cmd, const gpu::Pipeline& pipeline, const FrameView& view, std::uint32_t set,
                const ShadowMap* shadow);

  gpu::Context& ctx_;
  std::shared_ptr<const anim::Avatar> kit_;
  std::unique_ptr<batch::AvatarCrowd> crowd_;
  std::unique_ptr<SkinMaterials> materials_;
  std::unique_ptr<SkinMeshArena> arena_;
  std::vector<VkCullModeFlags> cull_modes_;  // per part mesh, from its material
  std::unique_ptr<SkinPalette> palette_;
  std::unique_ptr<BatchGpuData> batches_;
  std::vector<MeshRange> meshes_;             // per part mesh, for the indirect commands
  std::vector<std::uint32_t> pattern_float_;  // per batch type: SkinPush::pattern_float
  std::vector<PaletteRange> palette_ranges_;  // this frame's updated avatars (scratch)
  std::unique_ptr<BatchOcclusion> occlusion_;
  ShadedPipeline pipeline_;
  gpu::Pipeline id_pipeline_;
  VkFormat color_format_, depth_format_;
  ShadowReceiver shadow_receiver_;
  std::unique_ptr<AvatarBlobShadow> blobs_;
  AvatarDrawStats stats_;
  PaletteUpload palette_upload_ = PaletteUpload::kStagingCopy;
  std::uint64_t incoming_body_instances_ = 0;  // this frame's list: body parts of fading avatars' lower level
};

}  // namespace myriad::render
