// Builds the shared mesh buffers and records the per-LOD indirect draws.
#include "myriad/render/vegetation/vegetation_renderer.hpp"

#include <bit>

#include <glm/gtc/packing.hpp>

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/plant/plant_textures.hpp"
#include "myriad/render/shaders/veg_cull_layout.h"
#include "myriad/render/shaders/veg_plant_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

namespace {

// A vertex's surface packed for VegPlantVertex (untextured white when the mesh has no surfaces).
void pack_surface(const vegetation::PlantMesh& m, std::size_t i,
                  std::span<const vegetation::PlantTexture> textures, shader::VegPlantVertex& v) {
  const auto layers = static_cast<std::uint32_t>(textures.size());
  if (m.surfaces.empty()) {
    v.uv = 0;
    v.color = pack_rgba8_bytes(255, 255, 255, 0);
    v.layer = VEG_NO_TEXTURE;
    return;
  }
  const vegetation::PlantSurface& s = m.surfaces[i];
  if (s.texture != vegetation::kNoPlantTexture && s.texture >= layers)
    throw Error("a plant mesh names texture " + std::to_string(s.texture) + " of " + std::to_string(layers),
                "VegetationRenderer");
  v.uv = m.uvs.empty() ? 0u : glm::packHalf2x16(m.uvs[i]);
  v.color = pack_rgba8_bytes(s.color.r, s.color.g, s.color.b, s.alpha_cutoff);
  v.layer = s.texture == vegetation::kNoPlantTexture ? VEG_NO_TEXTURE
                                                     : s.texture | textures[s.texture].wrap.packed() << 16;
}

}  // namespace

VegetationRenderer::VegetationRenderer(gpu::Context& ctx, std::span<const vegetation::PlantMesh> meshes,
                                       VkFormat color_format, VkFormat depth_format,
                                       std::span<const vegetation::PlantTexture> textures)
    : ctx_(ctx),
      shadow_receiver_(ctx),
      motion_(ctx),
      textures_(gpu::make_texture_array_image(ctx, vegetation::make_texture_array(textures))),
      texture_sampler_(gpu::make_linear_sampler(ctx)) {
  if (meshes.empty()) throw Error("VegetationRenderer: no meshes");
  std::vector<shader::VegPlantVertex> vertices;
  std::vector<std::uint32_t> indices;
  for (const vegetation::PlantMesh& m : meshes) {
    mesh_bounds_.push_back(m.bounds());
    meshes_.push_back({static_cast<std::uint32_t>(m.indices.size()),
                       static_cast<std::uint32_t>(indices.size()),
                       static_cast<std::int32_t>(vertices.size())});
    if ((!m.surfaces.empty() && m.surfaces.size() != m.positions.size()) ||
        (!m.uvs.empty() && m.uvs.size() != m.positions.size()))
      throw Error("a plant mesh's surfaces or uvs do not match its vertices", "VegetationRenderer");
    for (std::size_t i = 0; i < m.positions.size(); ++i) {
      shader::VegPlantVertex v{};
      v.position = m.positions[i];
      v.normal = m.normals[i];
      pack_surface(m, i, textures, v);
      vertices.push_back(v);
    }
    indices.insert(indices.end(), m.indices.begin(), m.indices.end());
  }
  vertices_ = gpu::make_filled_buffer(ctx, std::span<const shader::VegPlantVertex>(vertices),
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  indices_ =
      gpu::make_filled_buffer(ctx, std::span<const std::uint32_t>(indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);

  // One layout for both vertex shaders (vertices, instances or lists, records, pages, decode table).
  gpu::GraphicsPipelineBuilder builder;
  builder.vertex = spirv::veg_plant_vert();
  const VkDescriptorType storage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  builder.layout = {{storage, storage, storage, storage, storage}, sizeof(shader::VegPlantPush)};
  const std::array<VkDescriptorType, 1> texture_binding{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
  // The casters alpha-test the cards as the colour pass does (the textures at binding 5 there too).
  shadow_pipeline_ = build_alpha_tested_caster(ctx, builder, spirv::veg_plant_shadow_frag(), texture_binding);
  pipeline_ = build_shadow_receiver(ctx, builder, spirv::veg_plant_frag(), texture_binding, color_format,
                                    depth_format);
  builder.vertex = spirv::veg_plant_direct_vert();
  direct_builder_ = builder;
  color_format_ = color_format;
  depth_format_ = depth_format;
  direct_shadow_pipeline_ =
      build_alpha_tested_caster(ctx, builder, spirv::veg_plant_shadow_frag(), texture_binding);
  direct_pipeline_ = build_shadow_receiver(ctx, builder, spirv::veg_plant_frag(), texture_binding,
                                           color_format, depth_format);
}

std::array<MeshRange, vegetation::kGpuMaxLods> VegetationRenderer::lod_meshes(
    const vegetation::Prefab& prefab) const {
  std::array<MeshRange, vegetation::kGpuMaxLods> out{};
  for (std::size_t l = 0; l < prefab.lods.size() && l < out.size(); ++l) {
    if (prefab.lods[l].mesh_id >= meshes_.size())
      throw Error("vegetation prefab " + std::to_string(prefab.type_id) + " names mesh " +
                  std::to_string(prefab.lods[l].mesh_id) + " of " + std::to_string(meshes_.size()));
    out[l] = meshes_[prefab.lods[l].mesh_id];
  }
  return out;
}

std::vector<Aabb> VegetationRenderer::lod_bounds(const vegetation::Prefab& prefab) const {
  (void)lod_meshes(prefab);  // checks the mesh ids
  const PlantMotionType motion = plant_motion_type(prefab.bounds.valid() ? prefab.bounds.max.y : 0.0f);
  std::vector<Aabb> out;
  for (std::size_t l = 0; l < prefab.lods.size() && l < vegetation::kGpuMaxLods; ++l)
    out.push_back(sway_bounds(mesh_bounds_[prefab.lods[l].mesh_id], motion));
  return out;
}

void VegetationDrawOptions::validate() const {}

namespace {
// The push constants of a draw with `s`: every colour draw starts here, so it checks `s` once.
shader::VegPlantPush make_push(const FrameView& view, const VegetationDrawOptions& s) {
  s.validate();
  shader::VegPlantPush push{};
  push.view_proj = view.view_proj;
  push.light = glm::vec4(view.to_light, 0.0f);
  push.flags = s.instance_ids ? VEG_DRAW_IDS : 0u;
  push.id_base = s.id_base;
  return push;
}

shader::VegPlantPush shadow_push(const FrameView& shadow_view) {
  shader::VegPlantPush push{};
  push.view_proj = shadow_view.view_proj;
  push.flags = VEG_DRAW_SHADOW;
  return push;
}
}  // namespace

void VegetationRenderer::set_motion_push(shader::VegPlantPush& push, const FrameView& view,
                                         const VegetationGpuType& type) const {
  push.plant_height = type.motion.height;
  push.motion = motion_.address_words();
  push.time = view.time;
  push.sway = type.motion.sway;
  push.trample = type.motion.trample;
}

std::uint32_t VegetationRenderer::draw_indirect_lods(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                                                     shader::VegPlantPush push, const VegetationGpuType& type,
                                                     std::uint32_t lod_mask) const {
  vkCmdBindIndexBuffer(cmd, indices_.handle(), 0, VK_INDEX_TYPE_UINT32);
  std::uint32_t draws = 0;
  for (std::uint32_t l = 0; l < type.lod.count; ++l) {
    if ((lod_mask >> l & 1u) == 0 || type.meshes[l].index_count == 0) continue;
    push.lod = l;
    vkCmdPushConstants(cmd, pipeline.layout(), pipeline.stages(), 0, sizeof(push), &push);
    vkCmdDrawIndexedIndirect(cmd, type.args.handle(), VkDeviceSize(l) * sizeof(shader::DrawIndexedCommand), 1,
                             sizeof(shader::DrawIndexedCommand));
    ++draws;
  }
  return draws;
}

void VegetationRenderer::bind_pooled(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                                     const VegetationGpuType& type, const shader::VegPlantPush& push,
                                     const ShadowMap* shadow) const {
  const std::array<gpu::Binding, 2> sb = shadow_receiver_.bindings(shadow);
  const std::array bindings{gpu::storage_buffer(vertices_),
                            gpu::storage_buffer(type.lists),
                            gpu::storage_buffer(type.records),
                            gpu::storage_buffer(type.pages),
                            gpu::storage_buffer(*type.decode),
                            texture_binding(),
                            sb[0],
                            sb[1]};
  gpu::bind(ctx_, cmd, pipeline, bindings, &push, sizeof(push));
}

std::uint32_t VegetationRenderer::draw(VkCommandBuffer cmd, const FrameView& view,
                                       const VegetationDrawOptions& settings, const VegetationGpuType& type,
                                       std::uint32_t lod_mask, const ShadowMap* shadow) const {
  shader::VegPlantPush push = make_push(view, settings);
  set_motion_push(push, view, type);
  const gpu::Pipeline& pipeline = pipeline_.of(view);
  bind_pooled(cmd, pipeline, type, push, shadow);
  return draw_indirect_lods(cmd, pipeline, push, type, lod_mask);
}

namespace {

// The article's limit is a promise of the CPU path (G7), so a larger batch is refused, not clamped.
void check_batch(std::uint32_t batch) {
  if (batch == 0 || batch > vegetation::kCompatBatchLimit)
    throw Error("a CPU draw batch must hold 1 to " + std::to_string(vegetation::kCompatBatchLimit) +
                    " instances, not " + std::to_string(batch),
                "VegetationRenderer::draw_batches");
}

}  // namespace

std::uint32_t VegetationRenderer::draw_batches(VkCommandBuffer cmd, const FrameView& view,
                                               const VegetationDrawOptions& settings,
                                               const VegetationGpuType& type, const VegetationCpuLists& lists,
                                               std::uint32_t batch, std::uint32_t lod_mask,
                                               const ShadowMap* shadow) const {
  check_batch(batch);
  shader::VegPlantPush push = make_push(view, settings);
  set_motion_push(push, view, type);
  const gpu::Pipeline& pipeline = pipeline_.of(view);
  bind_pooled(cmd, pipeline, type, push, shadow);
  return draw_list_batches(cmd, pipeline, push, type, lists, batch, lod_mask);
}

std::uint32_t VegetationRenderer::draw_list_batches(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                                                    shader::VegPlantPush push, const VegetationGpuType& type,
                                                    const VegetationCpuLists& lists, std::uint32_t batch,
                                                    std::uint32_t lod_mask) const {
  vkCmdBindIndexBuffer(cmd, indices_.handle(), 0, VK_INDEX_TYPE_UINT32);
  std::uint32_t draws = 0;
  for (std::uint32_t l = 0; l < type.lod.count; ++l) {
    const MeshRange& mesh = type.meshes[l];
    if ((lod_mask >> l & 1u) == 0 || mesh.index_count == 0 || lists.count[l] == 0) continue;
    push.lod = l;
    vkCmdPushConstants(cmd, pipeline.layout(), pipeline.stages(), 0, sizeof(push), &push);
    for (std::uint32_t done = 0; done < lists.count[l]; done += batch) {
      vkCmdDrawIndexed(cmd, mesh.index_count, std::min(batch, lists.count[l] - done), mesh.first_index,
                       mesh.vertex_offset, lists.first[l] + done);
      ++draws;
    }
  }
  return draws;
}

shader::VegPlantPush VegetationRenderer::bind_shadow(VkCommandBuffer cmd, const FrameView& shadow_view,
                                                     const VegetationGpuType& type) const {
  shader::VegPlantPush push = shadow_push(shadow_view);
  set_motion_push(push, shadow_view, type);  // the casters sway exactly as the camera's plants
  const std::array bindings{gpu::storage_buffer(vertices_),    gpu::storage_buffer(type.lists),
                            gpu::storage_buffer(type.records), gpu::storage_buffer(type.pages),
                            gpu::storage_buffer(*type.decode), texture_binding()};
  gpu::bind(ctx_, cmd, shadow_pipeline_, bindings, &push, sizeof(push));
  return push;
}

std::uint32_t VegetationRenderer::draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view,
                                              const VegetationGpuType& type, std::uint32_t lod_mask) const {
  return draw_indirect_lods(cmd, shadow_pipeline_, bind_shadow(cmd, shadow_view, type), type, lod_mask);
}

std::uint32_t VegetationRenderer::draw_shadow_batches(VkCommandBuffer cmd, const FrameView& shadow_view,
                                                      const VegetationGpuType& type,
                                                      const VegetationCpuLists& lists, std::uint32_t batch,
                                                      std::uint32_t lod_mask) const {
  check_batch(batch);
  return draw_list_batches(cmd, shadow_pipeline_, bind_shadow(cmd, shadow_view, type), type, lists, batch,
                           lod_mask);
}

void VegetationRenderer::draw_direct(VkCommandBuffer cmd, const FrameView& view,
                                     const VegetationDrawOptions& settings, std::uint32_t mesh_id,
                                     const gpu::Buffer& instances, std::uint32_t count,
                                     const ShadowMap* shadow) const {
  const std::array textures{texture_binding()};
  draw_direct_variant(cmd, view, settings, direct_pipeline_, textures, mesh_id, instances, count, shadow);
}

ShadedPipeline VegetationRenderer::direct_variant(std::span<const std::uint32_t> fragment,
                                                  std::span<const VkDescriptorType> extra) const {
  return build_shadow_receiver(ctx_, direct_builder_, fragment, extra, color_format_, depth_format_);
}

void VegetationRenderer::draw_direct_variant(VkCommandBuffer cmd, const FrameView& view,
                                             const VegetationDrawOptions& settings,
                                             const ShadedPipeline& pipeline,
                                             std::span<const gpu::Binding> extra, std::uint32_t mesh_id,
                                             const gpu::Buffer& instances, std::uint32_t count,
                                             const ShadowMap* shadow) const {
  if (count == 0) return;
  const shader::VegPlantPush push = make_push(view, settings);
  const std::array<gpu::Binding, 2> sb = shadow_receiver_.bindings(shadow);
  // Bindings 2-4 are the pooled shader's; the direct one reads none of them. No allocation: at most
  // kMaxDirectExtra bindings follow them.
  if (extra.size() > kMaxDirectExtra)
    throw Error("a direct pass with more than 2 bindings of its own",
                "VegetationRenderer::draw_direct_variant");
  const gpu::Binding unused = gpu::storage_buffer(instances);
  std::array<gpu::Binding, 5 + kMaxDirectExtra + 2> bindings{
      gpu::storage_buffer(vertices_), gpu::storage_buffer(instances), unused, unused, unused};
  std::copy(extra.begin(), extra.end(), bindings.begin() + 5);
  std::copy(sb.begin(), sb.end(), bindings.begin() + 5 + std::ptrdiff_t(extra.size()));
  draw_instances(cmd, pipeline.of(view), std::span(bindings.data(), 5 + extra.size() + 2), push, mesh_id,
                 count);
}

void VegetationRenderer::draw_direct_shadow(VkCommandBuffer cmd, const FrameView& shadow_view,
                                            std::uint32_t mesh_id, const gpu::Buffer& instances,
                                            std::uint32_t count) const {
  if (count == 0) return;
  const shader::VegPlantPush push = shadow_push(shadow_view);
  const gpu::Binding unused = gpu::storage_buffer(instances);
  const std::array bindings{gpu::storage_buffer(vertices_),
                            gpu::storage_buffer(instances),
                            unused,
                            unused,
                            unused,
                            texture_binding()};
  draw_instances(cmd, direct_shadow_pipeline_, bindings, push, mesh_id, count);
}

void VegetationRenderer::draw_instances(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                                        std::span<const gpu::Binding> bindings,
                                        const shader::VegPlantPush& push, std::uint32_t mesh_id,
                                        std::uint32_t count) const {
  gpu::bind(ctx_, cmd, pipeline, bindings, &push, sizeof(push));
  vkCmdBindIndexBuffer(cmd, indices_.handle(), 0, VK_INDEX_TYPE_UINT32);
  const MeshRange& m = mesh(mesh_id);
  vkCmdDrawIndexed(cmd, m.index_count, count, m.first_index, m.vertex_offset, 0);
}

gpu::Binding VegetationRenderer::texture_binding() const {
  return gpu::sampled_image(texture_sampler_.handle(), textures_.view(),
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

vegetation::PlantArt default_plant_art() { return vegetation::plant_art(vegetation::default_plant_types()); }

vegetation::RuntimeInstance static_instance(glm::vec3 position, glm::vec3 scale, glm::u8vec3 tint) {
  vegetation::RuntimeInstance r;
  r.row0 = {scale.x, 0.0f, 0.0f, position.x};
  r.row1 = {0.0f, scale.y, 0.0f, position.y};
  r.row2 = {0.0f, 0.0f, scale.z, position.z};
  r.spare = {std::bit_cast<float>(pack_rgba8_bytes(tint.r, tint.g, tint.b, 0)), 0.0f, 0.0f, 1.0f};
  return r;
}

}  // namespace myriad::render
