// VAT crowd rendering (SPEC C1, C2, C8): every enemy type's LOD meshes in one vertex/index arena, all
// VATs and clip tables in shared storage buffers, the entities in one buffer. Per frame one culling
// pass (CrowdCull) picks visibility and LOD per entity, then one indexed indirect draw per (type, LOD)
// slot draws that slot's visible entities instanced, each vertex animated from its VAT column.
#pragma once

#include "myriad/crowd/crowd_file.hpp"
#include "myriad/crowd/entity_cull.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/gpu/memory/host_readback.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/crowd/crowd_cull.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/passes/shadow_map.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace myriad::render {

// What one frame drew, read back from the culling pass's draw commands (C2: vertices and triangles).
// An entity inside a cross-fade band is drawn (and counted) in both of its LODs.
struct CrowdFrameStats {
  std::array<std::uint64_t, crowd::kCrowdLodCount> entities{};  // draws per LOD
  std::array<std::uint64_t, crowd::kCrowdLodCount> vertices{};
  std::array<std::uint64_t, crowd::kCrowdLodCount> triangles{};
  std::uint64_t fading = 0;  // drawn entities inside a cross-fade band (each counted in two LODs above)
  // Entities drawn, each once.
  std::uint64_t total_entities() const { return entities[0] + entities[1] + entities[2] - fading; }
  std::uint64_t total_vertices() const { return vertices[0] + vertices[1] + vertices[2]; }
  std::uint64_t total_triangles() const { return triangles[0] + triangles[1] + triangles[2]; }
  CullCounts cull;  // the camera's cull: candidates, frustum passed, occluded, drawn
};

// How the crowd is drawn for a view (the view itself, light and clock included, is the FrameView).
struct CrowdDrawOptions {
  bool lod_colors = false;

  // Throws myriad::Error naming the first invalid field (CrowdRenderer::set_draw_options calls it).
  void validate() const;
};

class CrowdRenderer : public FrameSystem {
 public:
  using FrameSystem::cull;
  using FrameSystem::draw;

  // Every type needs exactly three LODs; entities name their type (CrowdEntity::type_clip).
  CrowdRenderer(gpu::Context& ctx, std::span<const crowd::CrowdFile> types,
                std::span<const crowd::CrowdEntity> entities, VkFormat color_format, VkFormat depth_format);

  // Replaces the entities' state (same count): a staging upload that waits (setup, tests, tools).
  void set_entities(std::span<const crowd::CrowdEntity> entities);
  // The per-frame path (moving crowds): keeps a copy of the entities (same count); upload() stages
  // them through the context's staging ring and copies them in the frame's own command buffer.
  void stage_entities(std::span<const crowd::CrowdEntity> entities);
  // Outside rendering, first in a frame: the staged entities' copy and its barrier (nothing when none
  // are staged).
  void upload(VkCommandBuffer cmd) override;

  // The CPU culling inputs for a view: its frustum and eye, and the LOD curve of its image height and
  // field of view, with switch distances tuned for an entity of the LOD reference diameter (by default
  // the first type's, as the article tunes them for its enemies). What cull() runs on the GPU and
  // crowd::cull_entities on the CPU.
  crowd::CrowdCullParams cull_params(const FrameView& view) const;
  void set_lod_reference_diameter(float metres) { lod_reference_diameter_ = metres; }
  // Width of each LOD switch's cross-fade band as a fraction of its switch distance (0: none; the
  // entity_lod.hpp rules; LodCurve::solve rejects bands that overlap).
  void set_fade_band(float fraction) { fade_band_ = fraction; }
  // -1: per-entity LOD; 0..2: every entity at that LOD (diagnostics, C2 counts).
  void set_forced_level(int level) { forced_level_ = level; }
  void set_draw_options(const CrowdDrawOptions& options) {
    options.validate();
    options_ = options;
  }
  // Two-phase Hi-Z: phase 1 draws the entities drawn last frame, phase 2 those the pyramid newly shows.
  bool occlusion_culled() const override { return true; }
  // Outside rendering: culling and LOD choice for the view, per phase.
  void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
            const DepthPyramid* pyramid) override;
  // Inside dynamic rendering (colour + depth of the formats given at construction), per phase. With
  // `shadow`, the sun term is darkened where the map says occluded.
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;
  // Outside rendering: culling against the shadow view (its eye is the camera's, so the LOD stays the
  // camera's), then the shadow pass's draw commands: each slot's visible list with its own level's mesh,
  // or with coarse shadows (set_coarse_shadows) the next coarser level's (LOD2 stays LOD2). The camera's
  // cull() afterwards reuses the same lists (ShadowMap::end orders it).
  void cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  // Inside the shadow map's pass (between ShadowMap::begin and end), after cull_shadow: every culled
  // entity's depth from the light.
  std::uint32_t draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  // Coarse shadows: with per-entity LOD, casters the camera draws at level `from_level` or coarser cast
  // with the next coarser level's mesh (a shadow on the ground shows a silhouette, not the detail the
  // coarser mesh drops); 0: every caster, 1: LOD1 casters cast LOD2 and nearer ones keep LOD0,
  // kNoCoarseShadows: casters at the camera's levels. Forced levels (set_forced_level) cast at the
  // forced level. Off by default: in the article's two views LOD1 -> LOD2 casters change 0.4 % of the
  // shadowed pixels (every caster coarser: 1.2 %), but seen from a strategy camera 113 m away 13 %: the
  // remeshed LOD2 shell casts a blob where LOD1's thin limbs cast limbs (`myriad bench crowd-article`,
  // docs/BENCHMARKS.md). An opt-in for content whose coarse levels keep their silhouette.
  static constexpr int kNoCoarseShadows = crowd::kCrowdLodCount;
  static constexpr int kCoarseShadowsFromLevel = kNoCoarseShadows;
  void set_coarse_shadows(int from_level) {
    coarse_from_level_ = std::clamp(from_level, 0, kNoCoarseShadows);
  }
  int coarse_shadows() const { return coarse_from_level_; }

  // After the frame's submission completed.
  CrowdFrameStats read_stats() const;
  // After the frame's submission completed: what the last shadow pass drew, per list level (its
  // entities, and the vertices and triangles of the meshes it drew them with).
  CrowdFrameStats read_shadow_stats() const;
  SystemFrameStats read_frame_stats(bool drawn) override;

  const CrowdCull& cull() const { return *cull_; }
  std::span<const crowd::CrowdTypeBounds> type_bounds() const { return bounds_; }
  std::uint32_t entity_count() const { return entity_count_; }
  std::uint64_t gpu_bytes() const;

 private:
  void make_shadow_templates();
  // Whether the last cull_shadow drew `slot`'s list with the coarser mesh.
  bool shadow_coarser(std::uint32_t slot) const {
    return int(slot % crowd::kCrowdLodCount) >= shadow_coarse_from_;
  }

  struct LodInfo {
    MeshRange range;
    std::uint32_t vertex_count = 0;
    std::uint32_t texture = 0;  // into textures_
  };

  gpu::Context& ctx_;
  gpu::OwnedUploadShare upload_share_;  // the entities, every frame
  std::uint32_t entity_count_ = 0;
  std::vector<crowd::CrowdTypeBounds> bounds_;
  float lod_reference_diameter_ = 1.0f;  // the first type's diameter unless set
  float fade_band_ = crowd::LodCurveParams{}.fade_band;
  int forced_level_ = -1;
  bool late_culled_ = false;  // the last cull was phase 2: stats add both command sets
  int coarse_from_level_ = kCoarseShadowsFromLevel;
  int shadow_coarse_from_ = kNoCoarseShadows;  // what the last cull_shadow used (forced levels: none)
  CrowdDrawOptions options_;
  std::vector<LodInfo> lods_;            // type·3 + level
  std::vector<bool> type_double_sided_;  // any material without back-face culling
  std::unique_ptr<CrowdCull> cull_;
  gpu::HostReadback counts_;  // both command sets after the last single or late cull, for read_stats()
  // The shadow pass's commands: each slot's mesh fields from a template (own level, then coarser level:
  // 2 x slot_count commands), its instance fields copied from the shadow cull's commands.
  gpu::Buffer shadow_templates_, shadow_commands_;
  gpu::HostReadback shadow_counts_;                         // shadow_commands_ after the last cull_shadow
  std::vector<std::uint32_t> shadow_vertex_counts_;         // per slot: own level's, then coarser level's
  std::array<std::vector<VkBufferCopy>, 2> shadow_copies_;  // cull_shadow's regions (capacity kept)
  std::vector<crowd::CrowdEntity> staged_entities_;         // stage_entities() until the next upload()
  bool entities_staged_ = false;
  gpu::Buffer entities_, types_, clips_, texels_, vertices_, indices_;
  std::vector<gpu::Image> textures_;
  gpu::Sampler sampler_;
  ShadedPipeline pipeline_culled_, pipeline_double_sided_;
  gpu::Pipeline pipeline_shadow_;
  ShadowReceiver shadow_receiver_;
};

}  // namespace myriad::render
