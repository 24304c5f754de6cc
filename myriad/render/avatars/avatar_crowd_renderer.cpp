#include "myriad/render/avatars/avatar_crowd_renderer.hpp"

#include <algorithm>
#include <array>

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"

namespace myriad::render {
namespace {

constexpr float kAvatarRadius = 0.4f;  // horizontal half-extent of a walking avatar (arms down)...
constexpr float kHumanHeight = 1.8f;
constexpr float kAvatarAmbient = 0.35f;  // the share of light that reaches surfaces facing away   // ... of
                                         // this height: blobs scale with the avatars' height

}  // namespace

AvatarCrowdRenderer::AvatarCrowdRenderer(gpu::Context& ctx, const batch::AvatarCrowdOptions& crowd,
                                         bool clothed, VkFormat color_format, VkFormat depth_format)
    : AvatarCrowdRenderer(ctx, std::make_shared<const anim::Avatar>(anim::make_avatar({.clothed = clothed})),
                          crowd, color_format, depth_format) {}

AvatarCrowdRenderer::AvatarCrowdRenderer(gpu::Context& ctx, std::shared_ptr<const anim::Avatar> kit,
                                         const batch::AvatarCrowdOptions& crowd, VkFormat color_format,
                                         VkFormat depth_format)
    : ctx_(ctx),
      kit_(std::move(kit)),
      color_format_(color_format),
      depth_format_(depth_format),
      shadow_receiver_(ctx) {
  if (!kit_ || kit_->parts.empty()) throw Error("the avatar kit has no parts", "AvatarCrowdRenderer");
  crowd_ = std::make_unique<batch::AvatarCrowd>(*kit_, crowd);
  // Part meshes with joints in renderer-skeleton indices (skeleton dedup), as skin.vert reads them.
  // Every part's LOD levels in the crowd's mesh-id order (part * levels + level).
  std::vector<anim::SkinnedMesh> meshes;
  std::vector<std::uint8_t> tintable;
  for (std::uint32_t id = 0; id < crowd_->mesh_count(); ++id) {
    const std::size_t p = id / crowd_->lod_levels();
    meshes.push_back(crowd_->mesh(id));
    anim::remap_joints(meshes.back().joints, crowd_->dedup().remap[p]);
    tintable.push_back(kit_->parts[p].tintable ? 1 : 0);
    if (meshes.back().material >= static_cast<int>(kit_->materials.size()))
      throw Error("part '" + meshes.back().name + "' names a material the kit does not have",
                  "AvatarCrowdRenderer");
  }
  materials_ = std::make_unique<SkinMaterials>(ctx, kit_->materials, kit_->textures);
  arena_ = std::make_unique<SkinMeshArena>(ctx, meshes, tintable);
  for (std::size_t p = 0; p < meshes.size(); ++p) {
    const SkinMeshRange& r = arena_->range(static_cast<std::uint32_t>(p));
    meshes_.push_back({r.index_count, r.first_index, static_cast<std::int32_t>(r.first_vertex)});
    cull_modes_.push_back(materials_->double_sided(static_cast<std::uint32_t>(meshes[p].material + 1))
                              ? VK_CULL_MODE_NONE
                              : VK_CULL_MODE_BACK_BIT);
  }
  palette_ = std::make_unique<SkinPalette>(ctx, crowd_->palettes().size());
  for (std::size_t t = 0; t < crowd_->scene().batch_count(); ++t)
    pattern_float_.push_back(
        skin_pattern_float(crowd_->scene().sets().get(static_cast<batch::BatchType>(t))));
  batches_ = std::make_unique<BatchGpuData>(ctx, crowd_->scene());
  occlusion_ = std::make_unique<BatchOcclusion>(ctx, crowd_->scene());
  pipeline_ = make_skin_pipeline(ctx, color_format, depth_format);
  const auto count = static_cast<std::uint32_t>(crowd.avatars);
  blobs_ = std::make_unique<AvatarBlobShadow>(ctx, color_format, depth_format, count);
  blobs_->set_blobs(blob_discs());
  stats_.avatars = count;
}

const std::vector<shader::AvatarBlob>& AvatarCrowdRenderer::blob_discs() {
  discs_.resize(crowd_->position_count());  // reused: walking avatars refresh them every frame
  for (std::size_t a = 0; a < discs_.size(); ++a)
    discs_[a] = avatar_blob(crowd_->position(a), kAvatarRadius * crowd_->standing_height() / kHumanHeight,
                            crowd_->position(a).y);
  return discs_;
}

void AvatarCrowdRenderer::update(const FrameView& view, float dt) {
  const Stopwatch clock;
  batch::CullCamera camera;
  camera.frustum = view.frustum;
  camera.position = view.eye;
  camera.lod_scale = view.lod_scale();
  const batch::CrowdFrameStats s = crowd_->frame(camera, dt);
  if (crowd_->walking()) blobs_->stage_blobs(blob_discs());  // they follow their avatars
  // Only the avatars posed this frame: the GPU still holds the others' last palettes.
  palette_ranges_.clear();
  updated_palette_ranges(crowd_->updated(), crowd_->animator().palette_size(), palette_ranges_);
  stats_.palette_bytes_uploaded = palette_->write(crowd_->palettes(), palette_ranges_);
  stats_.skeletons_updated = s.skeletons_updated;
  batches_->stage_changes(crowd_->scene());
  occlusion_->stage(crowd_->scene(), crowd_->cull_result(), crowd_->draw_list(), meshes_);
  stats_.draws = s.draws;
  stats_.draws_unbatched = s.draws_unbatched;
  stats_.matrices = s.matrices;
  stats_.pipeline_binds = stats_.descriptor_binds = 0;
  // generate_draws sorts by batch type first: each type is one run of the list.
  const std::vector<batch::DrawCommand>& draws = crowd_->draw_list().draws;
  stats_.batch_types = 0;
  for (std::size_t d = 0; d < draws.size(); ++d)
    stats_.batch_types += d == 0 || draws[d].type != draws[d - 1].type ? 1 : 0;
  // Avatars, not renderers: one fading between two levels draws both but counts once.
  stats_.frustum_passed = 0;
  for (const std::size_t n : s.avatars_per_lod) stats_.frustum_passed += n;
  incoming_body_instances_ = s.incoming_body_instances;
  std::copy(std::begin(s.avatars_per_lod), std::end(s.avatars_per_lod), stats_.avatars_per_lod.begin());
  stats_.vertices_listed = s.vertices;
  stats_.cpu_update_ms = clock.elapsed_ms();
}

void AvatarCrowdRenderer::upload(VkCommandBuffer cmd) {
  palette_->record_upload(cmd, palette_upload_);
  batches_->record_upload(cmd);
  blobs_->record_upload(cmd);
}

void AvatarCrowdRenderer::cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                               const DepthPyramid* pyramid) {
  occlusion_->record(cmd, phase, view.view_proj, pyramid);
}

void AvatarCrowdRenderer::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                               const ShadowMap* shadow) {
  if (!crowd_->draw_list().draws.empty()) {
    const gpu::Pipeline& pipeline = pipeline_.of(view);
    gpu::bind_pipeline(cmd, pipeline);
    ++stats_.pipeline_binds;
    draw_set(cmd, pipeline, view, BatchOcclusion::command_set(phase), shadow);
  }
  // The blobs darken what every phase drew under them: after the last phase.
  if (phase != FramePhase::kEarly) blobs_->draw(cmd, view.view_proj);
}

void AvatarCrowdRenderer::draw_ids(VkCommandBuffer cmd, const FrameView& view) {
  if (!id_pipeline_) id_pipeline_ = make_skin_id_pipeline(ctx_, color_format_, depth_format_);
  if (crowd_->draw_list().draws.empty()) return;
  gpu::bind_pipeline(cmd, id_pipeline_);
  ++stats_.pipeline_binds;
  draw_set(cmd, id_pipeline_, view, 0, nullptr);
  if (occlusion_->two_phase()) draw_set(cmd, id_pipeline_, view, 1, nullptr);
}

void AvatarCrowdRenderer::finish_frame() {
  const shader::CullCounters c = occlusion_->counters();
  stats_.occluded = avatars_of(c.occluded);
  const BatchDrawnCounts drawn = occlusion_->drawn();
  const std::vector<batch::DrawCommand>& draws = crowd_->draw_list().draws;
  stats_.vertices = stats_.triangles = 0;
  std::uint64_t body_renderers = 0;
  for (std::size_t d = 0; d < std::min(draws.size(), drawn.instances.size()); ++d) {
    const SkinMeshRange& r = arena_->range(draws[d].mesh);
    stats_.vertices += std::uint64_t(r.vertex_count) * drawn.instances[d];
    stats_.triangles += std::uint64_t(r.index_count / 3) * drawn.instances[d];
    if (draws[d].type == crowd_->body_type()) body_renderers += drawn.instances[d];
  }
  // Every avatar wears every body part (outfits differ only in items), and all parts of an avatar
  // share its bounds: drawn body parts / body parts = avatars drawn.
  // A fading avatar's incoming level is not counted again (exact unless the GPU occluded a fading one).
  body_renderers -= std::min(body_renderers, incoming_body_instances_);
  stats_.visible = crowd_->body_parts() ? body_renderers / crowd_->body_parts() : 0;
}

std::uint64_t AvatarCrowdRenderer::avatars_of(std::uint64_t renderers) const {
  // All parts of an avatar are kept or dropped together; outfits differ in part counts, so this is the
  // count at the crowd's mean parts per avatar.
  const std::size_t parts = crowd_->worn_parts();
  return parts ? (renderers * stats_.avatars + parts / 2) / parts : 0;
}

void AvatarCrowdRenderer::draw_set(VkCommandBuffer cmd, const gpu::Pipeline& pipeline, const FrameView& view,
                                   std::uint32_t set, const ShadowMap* shadow) {
  const std::vector<batch::DrawCommand>& draws = crowd_->draw_list().draws;
  vkCmdBindIndexBuffer(cmd, arena_->indices().handle(), 0, VK_INDEX_TYPE_UINT32);
  const std::array<gpu::Binding, 4> fragment = skin_fragment_bindings(*materials_, shadow_receiver_, shadow);
  VkCullModeFlags cull = VK_CULL_MODE_FLAG_BITS_MAX_ENUM;  // none set yet
  for (std::uint32_t d = 0; d < draws.size(); ++d) {
    const batch::BatchType type = draws[d].type;
    // Double-sided materials draw their back faces: the pipelines take the cull mode per draw.
    if (cull_modes_[draws[d].mesh] != cull) {
      cull = cull_modes_[draws[d].mesh];
      vkCmdSetCullMode(cmd, cull);
    }
    // The draws come sorted by type (generate_draws): a type's buffers are pushed once, at its first
    // draw; the pipeline, vertices, palettes and slots stay.
    if (d == 0 || type != draws[d - 1].type) {
      const shader::SkinPush push{
          view.view_proj, 0, 0, 0, 0, pattern_float_[type], glm::vec4(view.to_light, kAvatarAmbient),
          view.sun_color};
      const std::array bindings{gpu::storage_buffer(arena_->vertices()),
                                gpu::storage_buffer(palette_->buffer()),
                                gpu::storage_buffer(batches_->instances(type)),
                                gpu::storage_buffer(occlusion_->slots(set)),
                                gpu::storage_buffer(batches_->properties(type)),
                                fragment[0],
                                fragment[1],
                                fragment[2],
                                fragment[3]};
      gpu::bind_resources(ctx_, cmd, pipeline, bindings, &push, sizeof push);
      ++stats_.descriptor_binds;
    }
    vkCmdDrawIndexedIndirect(cmd, occlusion_->commands(set).handle(), BatchOcclusion::command_offset(d), 1,
                             BatchOcclusion::kCommandStride);
  }
}

std::uint64_t AvatarCrowdRenderer::gpu_bytes() const {
  std::uint64_t bytes = arena_->vertices().size() + arena_->indices().size() + palette_->buffer().size() +
                        occlusion_->gpu_bytes() + materials_->gpu_bytes();
  for (std::size_t t = 0; t < crowd_->scene().batch_count(); ++t) {
    bytes += batches_->instances(static_cast<batch::BatchType>(t)).size() +
             batches_->properties(static_cast<batch::BatchType>(t)).size();
  }
  return bytes;
}

SystemFrameStats AvatarCrowdRenderer::read_frame_stats(bool drawn) {
  SystemFrameStats s;
  if (drawn) finish_frame();
  s.objects = stats_.avatars;
  s.gpu_bytes = gpu_bytes();
  if (!drawn) return s;
  s.visible = stats_.visible;
  s.frustum_culled = stats_.avatars - std::min<std::uint64_t>(stats_.frustum_passed, stats_.avatars);
  s.occlusion_culled = stats_.occluded;
  s.draws = stats_.draws + 1;  // + the blob shadows' one instanced draw
  s.pipeline_binds = stats_.pipeline_binds + 1;
  s.vertices = stats_.vertices;
  s.triangles = stats_.triangles;
  return s;
}

}  // namespace myriad::render
