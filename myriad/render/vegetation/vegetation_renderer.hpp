// Drawing of vegetation (G6): the generated plant meshes of every LOD in one shared vertex/index
// buffer, drawn instanced from the culling pass's output with one vkCmdDrawIndexedIndirect per LOD
// (instance_count and, for downward lists, first_instance written by the GPU). The vertex shader expands
// each listed pooled record into its 3x4 camera-relative matrix and tint exactly as culling does; the
// fragment shader applies the dithered cross-fade masks.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/passes/interaction_field.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/render/shaders/veg_plant_layout.h"
#include "myriad/vegetation/plant/plant_mesh.hpp"
#include "myriad/vegetation/plant/plant_model.hpp"

namespace myriad::render {

// How plants are drawn for a view (the view itself, light included, is the FrameView).
struct VegetationDrawOptions {
  // Colour = instance id + 1 in RGB (id_base + the instance's pool slot) and the LOD in A, unlit:
  // lets tests check exactly which instance and level covers each pixel.
  bool instance_ids = false;
  std::uint32_t id_base = 0;

  // Throws myriad::Error naming the first invalid field (every draw call checks its options).
  void validate() const;
};

class VegetationRenderer {
 public:
  static constexpr std::size_t kMaxDirectExtra = 2;

  // meshes[i] becomes mesh id i (vegetation::make_prefabs numbers them type * kPlantLodCount + lod;
  // vegetation::plant_art gives both lists); `textures` become the layers of one array texture (with
  // mips) that the meshes' surfaces index.
  VegetationRenderer(gpu::Context& ctx, std::span<const vegetation::PlantMesh> meshes, VkFormat color_format,
                     VkFormat depth_format, std::span<const vegetation::PlantTexture> textures = {});

  const MeshRange& mesh(std::uint32_t mesh_id) const { return meshes_.at(mesh_id); }
  std::size_t mesh_count() const { return meshes_.size(); }
  // The meshes of a prefab's LODs, in the form VegetationCull::upload takes.
  std::array<MeshRange, vegetation::kGpuMaxLods> lod_meshes(const vegetation::Prefab& prefab) const;
  // The bounds of a prefab's LOD meshes grown by as far as its plants sway and are trampled
  // (sway_bounds: culling's per-LOD spheres stay conservative; VegetationCull::upload takes them).
  std::vector<Aabb> lod_bounds(const vegetation::Prefab& prefab) const;

  // Where pooled plants read their wind and trampling: `field`'s buffer, or (null, the default) a
  // stand-in with the default wind and nothing trampling. Direct draws do not move.
  void set_motion(const InteractionField* field) { motion_.set_field(field); }

  // Inside dynamic rendering, after VegetationCull::record for `type`: one indexed indirect draw per
  // LOD whose bit is set in `lod_mask`. Returns the number of draws recorded. With `shadow` (fitted to
  // `view`) the sun term is darkened where the map says occluded.
  std::uint32_t draw(VkCommandBuffer cmd, const FrameView& view, const VegetationDrawOptions& settings,
                     const VegetationGpuType& type, std::uint32_t lod_mask = 0xFu,
                     const ShadowMap* shadow = nullptr) const;
  // Inside dynamic rendering, after VegetationCull::stage_cpu_lists (G7): instanced draws of at most
  // `batch` instances each (1 to the article's DrawMeshInstanced limit, vegetation::kCompatBatchLimit;
  // anything else throws) from the CPU lists, per LOD whose bit is set in `lod_mask`. Returns the number
  // of draws recorded.
  std::uint32_t draw_batches(VkCommandBuffer cmd, const FrameView& view,
                             const VegetationDrawOptions& settings, const VegetationGpuType& type,
                             const VegetationCpuLists& lists,
                             std::uint32_t batch = vegetation::kCompatBatchLimit,
                             std::uint32_t lod_mask = 0xFu, const ShadowMap* shadow = nullptr) const;
  // Inside the shadow map's pass, after VegetationCull::stage_cpu_lists with lists culled against the
  // shadow view (the camera's eye keeps the camera's LODs): draw_shadow's depth in draw_batches' batches.
  std::uint32_t draw_shadow_batches(VkCommandBuffer cmd, const FrameView& shadow_view,
                                    const VegetationGpuType& type, const VegetationCpuLists& lists,
                                    std::uint32_t batch = vegetation::kCompatBatchLimit,
                                    std::uint32_t lod_mask = 0xFu) const;
  // Inside dynamic rendering: `count` RuntimeInstances of `instances` with mesh `mesh_id`, not culled
  // (ground, occluders). `instances` needs storage usage.
  void draw_direct(VkCommandBuffer cmd, const FrameView& view, const VegetationDrawOptions& settings,
                   std::uint32_t mesh_id, const gpu::Buffer& instances, std::uint32_t count,
                   const ShadowMap* shadow = nullptr) const;
  // Inside the shadow map's pass, after VegetationCull::record(cmd, shadow_view.frustum,
  // shadow_view.eye, ...) (kSingle, no Hi-Z; the camera's eye keeps the LODs the camera's): the culled
  // instances' depth from the light, alpha-tested cards casting only their opaque texels (as drawn).
  // Returns the number of draws recorded.
  std::uint32_t draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view, const VegetationGpuType& type,
                            std::uint32_t lod_mask = 0xFu) const;
  // The direct pass (draw_direct's vertex stage and layout) with another fragment stage whose `extra`
  // bindings (at most kMaxDirectExtra) take the plant textures' place: the ground's material pass.
  ShadedPipeline direct_variant(std::span<const std::uint32_t> fragment,
                                std::span<const VkDescriptorType> extra) const;
  // draw_direct through a direct_variant() pipeline, `extra` bound in its bindings' place.
  void draw_direct_variant(VkCommandBuffer cmd, const FrameView& view, const VegetationDrawOptions& settings,
                           const ShadedPipeline& pipeline, std::span<const gpu::Binding> extra,
                           std::uint32_t mesh_id, const gpu::Buffer& instances, std::uint32_t count,
                           const ShadowMap* shadow) const;
  // Depth-only: `count` instances of mesh `mesh_id` (occluder boxes drawn with draw_direct), not culled;
  // alpha-tested like draw_shadow.
  void draw_direct_shadow(VkCommandBuffer cmd, const FrameView& shadow_view, std::uint32_t mesh_id,
                          const gpu::Buffer& instances, std::uint32_t count) const;

  std::size_t gpu_bytes() const { return vertices_.size() + indices_.size(); }
  const gpu::Image& textures() const { return textures_; }

 private:
  gpu::Context& ctx_;
  std::uint32_t draw_indirect_lods(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                                   shader::VegPlantPush push, const VegetationGpuType& type,
                                   std::uint32_t lod_mask) const;
  // The CPU lists' instanced draws with `pipeline` bound: at most `batch` instances each.
  std::uint32_t draw_list_batches(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                                  shader::VegPlantPush push, const VegetationGpuType& type,
                                  const VegetationCpuLists& lists, std::uint32_t batch,
                                  std::uint32_t lod_mask) const;
  // The pooled shadow pipeline with a pool's bindings.
  shader::VegPlantPush bind_shadow(VkCommandBuffer cmd, const FrameView& shadow_view,
                                   const VegetationGpuType& type) const;
  // The colour pipeline with a pool's bindings (lists, records, pages, decode table) and the shadow map's.
  void bind_pooled(VkCommandBuffer cmd, const gpu::Pipeline& pipeline, const VegetationGpuType& type,
                   const shader::VegPlantPush& push, const ShadowMap* shadow) const;
  void draw_instances(VkCommandBuffer cmd, const gpu::Pipeline& pipeline,
                      std::span<const gpu::Binding> bindings, const shader::VegPlantPush& push,
                      std::uint32_t mesh_id, std::uint32_t count) const;

  gpu::Binding texture_binding() const;
  // The motion terms of a draw of `type` at `view`'s clock.
  void set_motion_push(shader::VegPlantPush& push, const FrameView& view,
                       const VegetationGpuType& type) const;

  ShadedPipeline pipeline_;  // pooled plants from the culling lists
  gpu::Pipeline shadow_pipeline_;
  ShadedPipeline direct_pipeline_;               // RuntimeInstances as they are
  gpu::GraphicsPipelineBuilder direct_builder_;  // direct_pipeline_'s, without its fragment stage
  VkFormat color_format_ = VK_FORMAT_UNDEFINED, depth_format_ = VK_FORMAT_UNDEFINED;
  gpu::Pipeline direct_shadow_pipeline_;
  ShadowReceiver shadow_receiver_;
  PlantMotionReceiver motion_;
  gpu::Image textures_;  // the plant textures' array (one white layer without any)
  gpu::Sampler texture_sampler_;
  gpu::Buffer vertices_;
  gpu::Buffer indices_;
  std::vector<MeshRange> meshes_;
  std::vector<Aabb> mesh_bounds_;
};

// The three generated plant kinds' LODs in mesh-id order (kind * kPlantLodCount + lod), matching the
// prefabs of vegetation::default_plant_types(), and the textures they sample (give both to the renderer).
vegetation::PlantArt default_plant_art();

// A RuntimeInstance placing a unit mesh: scaled by `scale` per axis, translated to `position` (relative
// to the render origin), with an RGB tint. For ground and occluder boxes drawn with draw_direct.
vegetation::RuntimeInstance static_instance(glm::vec3 position, glm::vec3 scale, glm::u8vec3 tint);

}  // namespace myriad::render
