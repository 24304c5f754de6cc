#include "myriad/render/crowd/crowd_renderer.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/image/mip_chain.hpp"
#include "myriad/crowd/entity_lod.hpp"
#include "myriad/crowd/vat_sampling.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/shaders/crowd_layout.h"
#include "myriad_render_shaders.hpp"

#include <cstddef>
#include <cstring>
#include <string>

namespace myriad::render {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr std::uint32_t kVertexBindings = 6;  // entities, visible, types, clips, texels, vertices

template <class T>
gpu::Buffer make_filled(gpu::Context& ctx, std::span<const T> data, VkBufferUsageFlags usage) {
  gpu::Buffer buffer(ctx, std::max<VkDeviceSize>(data.size_bytes(), 16), usage,
                     gpu::MemoryKind::kDeviceLocal);
  if (!data.empty()) gpu::upload(ctx, buffer, data);
  return buffer;
}

gpu::GraphicsPipelineBuilder vat_builder() {
  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::crowd_vat_vert();
  b.layout = {std::vector<VkDescriptorType>(kVertexBindings, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
              sizeof(shader::CrowdDrawPush)};
  return b;
}

ShadedPipeline make_pipeline(const gpu::Context& ctx, VkFormat color, VkFormat depth, VkCullModeFlags cull) {
  gpu::GraphicsPipelineBuilder b = vat_builder();
  b.cull_mode = cull;
  const std::array<VkDescriptorType, 1> texture{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
  return build_shadow_receiver(ctx, b, spirv::crowd_vat_frag(), texture, color, depth);
}

void check_type(const crowd::CrowdFile& f, std::size_t t) {
  const std::string what = "crowd type " + std::to_string(t) + " (" + f.name + ")";
  if (f.lods.size() != crowd::kCrowdLodCount) {
    throw Error(what + ": has " + std::to_string(f.lods.size()) + " LODs, the renderer needs " +
                std::to_string(crowd::kCrowdLodCount));
  }
  if (f.clips.empty() || f.columns == 0 || f.texels.size() != std::size_t(f.rows) * f.columns) {
    throw Error(what + ": VAT has no clips or its texel count does not match rows x columns");
  }
  for (const crowd::CrowdLod& lod : f.lods) {
    if (lod.texture >= f.textures.size()) throw Error(what + ": an LOD names a missing texture");
    for (std::uint32_t c : lod.columns) {
      if (c >= f.columns) throw Error(what + ": an LOD vertex names VAT column " + std::to_string(c));
    }
  }
}

}  // namespace

void CrowdDrawOptions::validate() const {}

CrowdRenderer::CrowdRenderer(gpu::Context& ctx, std::span<const crowd::CrowdFile> types,
                             std::span<const crowd::CrowdEntity> entities, VkFormat color_format,
                             VkFormat depth_format)
    : ctx_(ctx),
      upload_share_(ctx.uploads(), "crowd"),
      entity_count_(std::uint32_t(entities.size())),
      shadow_receiver_(ctx) {
  if (types.empty()) throw Error("crowd renderer: no enemy types");
  std::vector<shader::CrowdTypeDrawGpu> type_draw;
  std::vector<crowd::VatClipRuntime> clips;
  std::vector<std::uint32_t> texels;
  std::vector<shader::CrowdVertexGpu> vertices;
  std::vector<std::uint32_t> indices;
  std::vector<MeshRange> ranges;
  for (std::size_t t = 0; t < types.size(); ++t) {
    const crowd::CrowdFile& f = types[t];
    check_type(f, t);
    Aabb bounds{f.animated_min, f.animated_max};
    bounds.expand(Aabb{f.bind_min, f.bind_max});
    bounds_.push_back(crowd::type_bounds(bounds));
    bool double_sided = false;
    for (const crowd::CrowdMaterial& m : f.materials) double_sided = double_sided || m.double_sided;
    type_double_sided_.push_back(double_sided);
    type_draw.push_back({std::uint32_t(texels.size() / 2), f.columns, std::uint32_t(clips.size()),
                         std::uint32_t(f.clips.size())});
    for (const crowd::VatClip& c : f.clips) clips.push_back(crowd::runtime_clip(c, f.fps));
    const std::vector<std::uint32_t> packed = crowd::pack_vat_texels(f.texels);
    texels.insert(texels.end(), packed.begin(), packed.end());
    for (const crowd::CrowdLod& lod : f.lods) {
      const MeshRange range{std::uint32_t(lod.indices.size()), std::uint32_t(indices.size()),
                            std::int32_t(vertices.size())};
      ranges.push_back(range);
      lods_.push_back(
          {range, std::uint32_t(lod.vertex_count()), std::uint32_t(textures_.size() + lod.texture)});
      for (std::size_t v = 0; v < lod.vertex_count(); ++v) {
        vertices.push_back({lod.columns[v], lod.uvs.empty() ? glm::vec2(0.0f) : lod.uvs[v]});
      }
      indices.insert(indices.end(), lod.indices.begin(), lod.indices.end());
    }
    // Every atlas with its full mip chain (its gutters are filled at bake time, so levels do not bleed
    // background into the charts): far enemies sample a level near their size instead of aliasing.
    for (const anim::Texture& tex : f.textures) {
      const std::vector<std::vector<std::uint8_t>> levels =
          mip_chain_srgb_rgba8(tex.width, tex.height, tex.rgba8);
      gpu::Image image(ctx, {VK_FORMAT_R8G8B8A8_UNORM, tex.width, tex.height,
                             static_cast<std::uint32_t>(levels.size()), VK_IMAGE_USAGE_SAMPLED_BIT});
      for (std::uint32_t l = 0; l < levels.size(); ++l)
        gpu::upload_image(ctx, image, std::as_bytes(std::span(levels[l])),
                          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, l);
      textures_.push_back(std::move(image));
    }
  }
  std::vector<std::uint32_t> type_counts(types.size(), 0u);
  for (std::size_t i = 0; i < entities.size(); ++i) {
    const std::uint32_t type = crowd::entity_type(entities[i]);
    if (type >= types.size()) {
      throw Error("crowd entity " + std::to_string(i) + " names type " + std::to_string(type) + " of " +
                  std::to_string(types.size()));
    }
    ++type_counts[type];
  }
  cull_ = std::make_unique<CrowdCull>(ctx, bounds_, ranges, type_counts);
  counts_ = gpu::HostReadback(ctx, 2 * cull_->commands(0).size());
  make_shadow_templates();
  if (!bounds_.empty()) lod_reference_diameter_ = bounds_[0].diameter;
  entities_ = make_filled(ctx, entities, kStorage);
  types_ = make_filled(ctx, std::span<const shader::CrowdTypeDrawGpu>(type_draw), kStorage);
  clips_ = make_filled(ctx, std::span<const crowd::VatClipRuntime>(clips), kStorage);
  texels_ = make_filled(ctx, std::span<const std::uint32_t>(texels), kStorage);
  vertices_ = make_filled(ctx, std::span<const shader::CrowdVertexGpu>(vertices), kStorage);
  indices_ = make_filled(ctx, std::span<const std::uint32_t>(indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  sampler_ = gpu::make_linear_sampler(ctx, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
  pipeline_culled_ = make_pipeline(ctx, color_format, depth_format, VK_CULL_MODE_BACK_BIT);
  pipeline_double_sided_ = make_pipeline(ctx, color_format, depth_format, VK_CULL_MODE_NONE);
  pipeline_shadow_ = build_shadow_caster(ctx, vat_builder());  // depth-only: the shadow map
}

namespace {

void check_entity_count(std::size_t got, std::uint32_t expected) {
  if (got != expected) {
    throw Error("crowd renderer: got " + std::to_string(got) + " entities, expected " +
                std::to_string(expected));
  }
}

}  // namespace

void CrowdRenderer::set_entities(std::span<const crowd::CrowdEntity> entities) {
  check_entity_count(entities.size(), entity_count_);
  gpu::upload(ctx_, entities_, entities);
}

void CrowdRenderer::stage_entities(std::span<const crowd::CrowdEntity> entities) {
  check_entity_count(entities.size(), entity_count_);
  staged_entities_.assign(entities.begin(), entities.end());  // capacity kept: no allocation per frame
  entities_staged_ = true;
}

void CrowdRenderer::upload(VkCommandBuffer cmd) {
  if (!entities_staged_) return;
  entities_staged_ = false;
  // Through the upload queue, every frame (the crowd moves); culling and drawing read the entities
  // after the queue's closing barrier.
  gpu::UploadQueue& uploads = ctx_.uploads();
  const std::span<const std::byte> bytes = std::as_bytes(std::span(staged_entities_));
  const gpu::StagingRing::Span staged = uploads.reserve(upload_share_, bytes.size());
  std::memcpy(staged.data, bytes.data(), bytes.size());
  uploads.copy_from(staged, 0, entities_.handle(), 0, bytes.size());
  uploads.record(cmd);
}

crowd::CrowdCullParams CrowdRenderer::cull_params(const FrameView& view) const {
  crowd::LodCurveParams lod;
  lod.screen_height = float(view.height);
  lod.fov_y_radians = view.fov_y;
  lod.reference_diameter = lod_reference_diameter_;
  lod.fade_band = fade_band_;
  crowd::CrowdCullParams params;
  params.frustum = view.frustum;
  params.view_proj = view.view_proj;
  params.camera = view.eye;
  params.curve = crowd::LodCurve::solve(lod);
  params.forced_level = forced_level_;
  return params;
}

void CrowdRenderer::cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                         const DepthPyramid* pyramid) {
  late_culled_ = phase == FramePhase::kLate;
  cull_->record(cmd, entities_, entity_count_, cull_params(view), phase, pyramid);
  if (phase == FramePhase::kEarly) return;
  // The frame's draw counts for read_stats(), copied in the frame (no read-back submission).
  const VkDeviceSize set_bytes = cull_->commands(0).size();
  for (std::uint32_t set = 0; set < (late_culled_ ? 2u : 1u); ++set)
    counts_.record_copy(cmd, cull_->commands(set), 0, set_bytes, set * set_bytes);
  counts_.record_host_barrier(cmd);
}

void CrowdRenderer::draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
                         const ShadowMap* shadow) {
  const std::uint32_t set = CrowdCull::command_set(phase);
  const CrowdDrawOptions& options = options_;
  vkCmdBindIndexBuffer(cmd, indices_.handle(), 0, VK_INDEX_TYPE_UINT32);
  shader::CrowdDrawPush push{};
  push.view_proj = view.view_proj;
  push.to_light = glm::vec4(view.to_light, 0.0f);
  push.sun_color = view.sun_color;
  push.time = view.time;
  push.lod_colors = options.lod_colors ? 1u : 0u;
  const std::array<gpu::Binding, 2> shadow_bindings = shadow_receiver_.bindings(shadow);
  for (std::uint32_t slot = 0; slot < cull_->slot_count(); ++slot) {
    const LodInfo& lod = lods_[slot];
    if (lod.range.index_count == 0) continue;
    push.type = slot / crowd::kCrowdLodCount;
    push.lod = slot % crowd::kCrowdLodCount;
    const gpu::Pipeline& pipeline =
        (type_double_sided_[push.type] ? pipeline_double_sided_ : pipeline_culled_).of(view);
    const std::array bindings{gpu::storage_buffer(entities_),
                              gpu::storage_buffer(cull_->visible(set)),
                              gpu::storage_buffer(types_),
                              gpu::storage_buffer(clips_),
                              gpu::storage_buffer(texels_),
                              gpu::storage_buffer(vertices_),
                              gpu::sampled_image(sampler_.handle(), textures_[lod.texture].view(),
                                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
                              shadow_bindings[0],
                              shadow_bindings[1]};
    gpu::bind(ctx_, cmd, pipeline, bindings, &push, sizeof(push));
    // One command per slot; an empty slot draws zero instances.
    vkCmdDrawIndexedIndirect(cmd, cull_->commands(set).handle(), slot * sizeof(shader::DrawIndexedCommand), 1,
                             sizeof(shader::DrawIndexedCommand));
  }
}

void CrowdRenderer::make_shadow_templates() {
  const std::uint32_t slots = cull_->slot_count();
  std::vector<shader::DrawIndexedCommand> templates(2 * std::size_t(slots));
  shadow_vertex_counts_.assign(2 * std::size_t(slots), 0u);
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    const std::uint32_t type = slot / crowd::kCrowdLodCount;
    std::uint32_t coarser = slot;  // the next coarser level with a mesh, else the slot's own
    for (std::uint32_t level = slot % crowd::kCrowdLodCount + 1; level < crowd::kCrowdLodCount; ++level) {
      if (lods_[type * crowd::kCrowdLodCount + level].range.index_count > 0) {
        coarser = type * crowd::kCrowdLodCount + level;
        break;
      }
    }
    for (std::uint32_t half = 0; half < 2; ++half) {
      const LodInfo& lod = lods_[half == 0 ? slot : coarser];
      templates[half * slots + slot] = {lod.range.index_count, 0u, lod.range.first_index,
                                        lod.range.vertex_offset, 0u};
      shadow_vertex_counts_[half * slots + slot] = lod.vertex_count;
    }
  }
  shadow_templates_ = make_filled(ctx_, std::span<const shader::DrawIndexedCommand>(templates), 0);
  const VkDeviceSize bytes = VkDeviceSize(slots) * sizeof(shader::DrawIndexedCommand);
  shadow_commands_ =
      gpu::Buffer(ctx_, bytes, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  shadow_counts_ = gpu::HostReadback(ctx_, bytes);
}

void CrowdRenderer::cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  cull_->record(cmd, entities_, entity_count_, cull_params(shadow_view));
  // Last frame's shadow draws and read-back copy finished reading the commands before they are rewritten.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE);
  // Mesh fields (index count; first index and vertex offset) from the template half, instance fields
  // (instance count; first instance) from the cull: disjoint bytes, so the two copies need no barrier.
  shadow_coarse_from_ = forced_level_ < 0 ? coarse_from_level_ : kNoCoarseShadows;
  const std::uint32_t slots = cull_->slot_count();
  std::vector<VkBufferCopy>& mesh_fields = shadow_copies_[0];
  std::vector<VkBufferCopy>& instance_fields = shadow_copies_[1];
  mesh_fields.clear();
  instance_fields.clear();
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    const VkDeviceSize at = VkDeviceSize(slot) * sizeof(shader::DrawIndexedCommand);
    const VkDeviceSize half =
        shadow_coarser(slot) ? VkDeviceSize(slots) * sizeof(shader::DrawIndexedCommand) : 0;
    using Command = shader::DrawIndexedCommand;
    mesh_fields.push_back(
        {half + at + offsetof(Command, index_count), at + offsetof(Command, index_count), 4});
    mesh_fields.push_back(
        {half + at + offsetof(Command, first_index), at + offsetof(Command, first_index), 8});
    instance_fields.push_back(
        {at + offsetof(Command, instance_count), at + offsetof(Command, instance_count), 4});
    instance_fields.push_back(
        {at + offsetof(Command, first_instance), at + offsetof(Command, first_instance), 4});
  }
  vkCmdCopyBuffer(cmd, shadow_templates_.handle(), shadow_commands_.handle(),
                  std::uint32_t(mesh_fields.size()), mesh_fields.data());
  vkCmdCopyBuffer(cmd, cull_->commands().handle(), shadow_commands_.handle(),
                  std::uint32_t(instance_fields.size()), instance_fields.data());
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  shadow_counts_.record_copy(cmd, shadow_commands_, 0, shadow_commands_.size(), 0);
  shadow_counts_.record_host_barrier(cmd);
}

std::uint32_t CrowdRenderer::draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) {
  vkCmdBindIndexBuffer(cmd, indices_.handle(), 0, VK_INDEX_TYPE_UINT32);
  shader::CrowdDrawPush push{};
  push.view_proj = shadow_view.view_proj;
  push.time = shadow_view.time;
  push.shadow = 1u;  // a band's other LOD casts nothing
  const std::array bindings{gpu::storage_buffer(entities_), gpu::storage_buffer(cull_->visible()),
                            gpu::storage_buffer(types_),    gpu::storage_buffer(clips_),
                            gpu::storage_buffer(texels_),   gpu::storage_buffer(vertices_)};
  gpu::bind(ctx_, cmd, pipeline_shadow_, bindings, &push, sizeof(push));
  std::uint32_t draws = 0;
  for (std::uint32_t slot = 0; slot < cull_->slot_count(); ++slot) {
    if (lods_[slot].range.index_count == 0) continue;
    push.type = slot / crowd::kCrowdLodCount;
    push.lod = slot % crowd::kCrowdLodCount;
    vkCmdPushConstants(cmd, pipeline_shadow_.layout(), pipeline_shadow_.stages(), 0, sizeof(push), &push);
    vkCmdDrawIndexedIndirect(cmd, shadow_commands_.handle(), slot * sizeof(shader::DrawIndexedCommand), 1,
                             sizeof(shader::DrawIndexedCommand));
    ++draws;
  }
  return draws;
}

CrowdFrameStats CrowdRenderer::read_stats() const {
  CrowdFrameStats stats;
  // Both phases' draws when the last camera cull was two-phase.
  for (std::uint32_t set = 0; set < (late_culled_ ? 2u : 1u); ++set) {
    const auto commands =
        counts_.read<shader::DrawIndexedCommand>(set * cull_->commands(0).size(), cull_->slot_count());
    for (std::uint32_t slot = 0; slot < commands.size(); ++slot) {
      const std::uint32_t level = slot % crowd::kCrowdLodCount;
      const std::uint64_t n = commands[slot].instance_count;
      stats.entities[level] += n;
      stats.vertices[level] += n * lods_[slot].vertex_count;
      stats.triangles[level] += n * (commands[slot].index_count / 3);
    }
  }
  const shader::CullCounters counters = cull_->counters();
  stats.cull.candidates = entity_count_;
  stats.cull.frustum_passed = counters.frustum_passed;
  stats.cull.occluded = counters.occluded;
  stats.fading = cull_->fading();
  stats.cull.drawn = stats.total_entities();
  return stats;
}

CrowdFrameStats CrowdRenderer::read_shadow_stats() const {
  CrowdFrameStats stats;
  const std::uint32_t slots = cull_->slot_count();
  const auto commands = shadow_counts_.read<shader::DrawIndexedCommand>(0, slots);
  for (std::uint32_t slot = 0; slot < commands.size(); ++slot) {
    const std::uint32_t level = slot % crowd::kCrowdLodCount;
    const std::uint64_t n = commands[slot].instance_count;
    stats.entities[level] += n;
    stats.vertices[level] += n * shadow_vertex_counts_[(shadow_coarser(slot) ? slots : 0) + slot];
    stats.triangles[level] += n * (commands[slot].index_count / 3);
  }
  return stats;
}

std::uint64_t CrowdRenderer::gpu_bytes() const {
  std::uint64_t bytes = entities_.size() + types_.size() + clips_.size() + texels_.size() + vertices_.size() +
                        indices_.size() + cull_->gpu_bytes() + shadow_templates_.size() +
                        shadow_commands_.size();
  for (const gpu::Image& image : textures_) {
    for (std::uint32_t l = 0; l < image.desc().mip_levels; ++l)
      bytes += std::uint64_t(image.width(l)) * image.height(l) * 4;
  }
  return bytes;
}

SystemFrameStats CrowdRenderer::read_frame_stats(bool drawn) {
  SystemFrameStats s;
  s.objects = entity_count_;
  s.gpu_bytes = gpu_bytes();
  s.overflow = cull_->overflow();
  if (!drawn) return s;
  const CrowdFrameStats c = read_stats();
  s.visible = c.total_entities();
  s.frustum_culled = c.cull.frustum_culled();
  s.occlusion_culled = c.cull.occluded;
  s.vertices = c.total_vertices();
  s.triangles = c.total_triangles();
  s.draws = cull_->slot_count();
  s.pipeline_binds = cull_->slot_count();
  return s;
}

}  // namespace myriad::render
