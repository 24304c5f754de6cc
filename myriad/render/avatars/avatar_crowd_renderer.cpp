#include "myriad/render/avatars/avatar_crowd_renderer.hpp"

#include <array>
#include <cstring>
#include <span>

#include "myriad/core/stopwatch.hpp"
#include "myriad/gpu/staging_ring.hpp"
#include "myriad/gpu/sync.hpp"

namespace myriad::render {
namespace {

constexpr float kAvatarRadius = 0.4f;  // horizontal half-extent of a walking avatar (arms down)

}  // namespace

AvatarCrowdRenderer::AvatarCrowdRenderer(gpu::Context& ctx, const batch::AvatarCrowdOptions& crowd,
                                         bool clothed, VkFormat color_format, VkFormat depth_format)
    : ctx_(ctx),
      avatar_(anim::make_avatar({.clothed = clothed})),
      color_format_(color_format),
      depth_format_(depth_format) {
  crowd_ = std::make_unique<batch::AvatarCrowd>(avatar_, crowd);
  // Part meshes with joints in renderer-skeleton indices (skeleton dedup), as skin.vert reads them.
  std::vector<anim::SkinnedMesh> meshes;
  for (std::size_t p = 0; p < avatar_.parts.size(); ++p) {
    meshes.push_back(avatar_.parts[p].mesh);
    anim::remap_joints(meshes.back().joints, crowd_->dedup().remap[p]);
  }
  arena_ = std::make_unique<SkinMeshArena>(ctx, meshes);
  palette_ = std::make_unique<SkinPalette>(ctx, crowd_->palettes().size());
  batches_ = std::make_unique<BatchGpuData>(ctx, crowd_->scene());
  // Every renderer can be visible at once: one slot each at most.
  std::size_t renderers = 0;
  for (std::size_t t = 0; t < crowd_->scene().batch_count(); ++t)
    renderers += crowd_->scene().batch(static_cast<batch::BatchType>(t)).size();
  const VkDeviceSize slot_bytes = std::max<std::size_t>(renderers, 1) * sizeof(std::uint32_t);
  slots_ = gpu::Buffer(ctx, slot_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  pipeline_ = make_skin_pipeline(ctx, color_format, depth_format);
  const auto count = static_cast<std::uint32_t>(crowd.avatars);
  blobs_ = std::make_unique<AvatarBlobShadow>(ctx, color_format, depth_format, count);
  std::vector<shader::AvatarBlob> discs;
  for (std::size_t a = 0; a < count; ++a)
    discs.push_back(avatar_blob(crowd_->position(a), kAvatarRadius, 0.0f));
  blobs_->set_blobs(discs);
  stats_.avatars = count;
}

void AvatarCrowdRenderer::update(const FrameView& view, float dt) {
  const Stopwatch clock;
  batch::CullCamera camera;
  camera.frustum = view.frustum;
  camera.position = view.eye;
  camera.lod_scale = view.lod_scale();
  const batch::CrowdFrameStats s = crowd_->frame(camera, dt);
  palette_->write(crowd_->palettes(), 0, crowd_->palettes().size());
  batches_->stage_changes(crowd_->scene());
  const batch::DrawList& list = crowd_->draw_list();
  slots_copy_.reset();
  if (!list.instances.empty()) {
    // The draw list's slots go every frame: through the staging ring, outside its budget.
    const gpu::StagingRing::Span staged = ctx_.staging_ring().stage(std::as_bytes(std::span(list.instances)));
    slots_copy_ = VkBufferCopy{staged.offset, 0, staged.size};
  }
  stats_.draws = s.draws;
  stats_.draws_unbatched = s.draws_unbatched;
  stats_.matrices = s.matrices;
  stats_.vertices = stats_.triangles = 0;
  for (const batch::DrawCommand& d : list.draws) {
    const SkinMeshRange& r = arena_->range(d.mesh);
    stats_.vertices += std::uint64_t(r.vertex_count) * d.instance_count;
    stats_.triangles += std::uint64_t(r.index_count / 3) * d.instance_count;
  }
  // An avatar is visible when any of its parts is (parts share the avatar's bounds).
  stats_.visible = avatar_.parts.empty() ? 0 : s.visible_renderers / avatar_.parts.size();
  stats_.cpu_update_ms = clock.elapsed_ms();
}

void AvatarCrowdRenderer::upload(VkCommandBuffer cmd) {
  palette_->record_upload(cmd, palette_upload_);
  batches_->record_upload(cmd);
  if (!slots_copy_) return;
  const gpu::StagingRing& ring = ctx_.staging_ring();
  ring.flush();
  vkCmdCopyBuffer(cmd, ring.buffer().handle(), slots_.handle(), 1, &*slots_copy_);
  slots_copy_.reset();
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

void AvatarCrowdRenderer::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                               const ShadowMap*) {
  if (!first_phase(phase)) return;
  draw_with(cmd, pipeline_, view.view_proj);
  blobs_->draw(cmd, view.view_proj);
}

void AvatarCrowdRenderer::draw_ids(VkCommandBuffer cmd, const FrameView& view) {
  if (!id_pipeline_) id_pipeline_ = make_skin_id_pipeline(ctx_, color_format_, depth_format_);
  draw_with(cmd, id_pipeline_, view.view_proj);
}

void AvatarCrowdRenderer::draw_with(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                                    const glm::mat4& view_proj) {
  stats_.pipeline_binds = 0;
  const shader::SkinPush push{view_proj, 0, 0, 0, 0};
  for (const batch::DrawCommand& d : crowd_->draw_list().draws) {
    const std::array bindings{gpu::storage_buffer(arena_->vertices()),
                              gpu::storage_buffer(palette_->buffer()),
                              gpu::storage_buffer(batches_->instances(d.type)), gpu::storage_buffer(slots_),
                              gpu::storage_buffer(batches_->properties(d.type))};
    gpu::bind(ctx_, cmd, pipeline, bindings, &push, sizeof push);
    ++stats_.pipeline_binds;
    vkCmdBindIndexBuffer(cmd, arena_->indices().handle(), 0, VK_INDEX_TYPE_UINT32);
    const SkinMeshRange& r = arena_->range(d.mesh);
    vkCmdDrawIndexed(cmd, r.index_count, d.instance_count, r.first_index,
                     static_cast<std::int32_t>(r.first_vertex), d.first_instance);
  }
}

std::uint64_t AvatarCrowdRenderer::gpu_bytes() const {
  std::uint64_t bytes =
      arena_->vertices().size() + arena_->indices().size() + palette_->buffer().size() + slots_.size();
  for (std::size_t t = 0; t < crowd_->scene().batch_count(); ++t) {
    bytes += batches_->instances(static_cast<batch::BatchType>(t)).size() +
             batches_->properties(static_cast<batch::BatchType>(t)).size();
  }
  return bytes;
}

}  // namespace myriad::render
