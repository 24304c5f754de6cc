// The default scene's vegetation field (SPEC G1-G7 in the frame loop): plants baked procedurally into
// tile files once (kept in a cache folder per seed and size), streamed around the camera, merged into
// runtime types whose GPU pools follow streaming page by page within an upload budget per frame,
// culled on the GPU with hashed LOD and two-phase Hi-Z against the frame's own depth, and drawn
// instanced — or (culling = CullPath::kCpu, G7) culled on the CPU with the offline quadtrees (LOD per
// visible leaf, or per instance), the lists staged through the upload queue and drawn in instanced
// batches of at most 1023, shadow casters too, without occlusion; the ground under them drawn as
// heightfield tiles with distance LOD. The render origin stays at
// the world origin: the field is a few kilometres across, where float positions are still sub-millimetre.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "myriad/render/frame/culling_choice.hpp"
#include "myriad/render/vegetation/ground_material_pass.hpp"
#include "myriad/render/vegetation/vegetation_cpu_cull.hpp"
#include "myriad/render/vegetation/vegetation_frame.hpp"
#include "myriad/render/vegetation/vegetation_pools.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/runtime/streaming.hpp"

namespace myriad::render {

inline vegetation::Heightfield flat_terrain() {
  vegetation::Heightfield t;
  t.amplitude = 0.0f;
  return t;
}

struct VegetationFieldOptions {
  std::uint64_t seed = 1;
  glm::dvec2 min{0.0}, max{4096.0};  // XZ extent in metres
  std::vector<vegetation::Clearing> clearings;
  std::filesystem::path cache_dir;
  // The ground: plants are scattered on it and it is drawn in tiles (flat unless amplitude or pads say).
  vegetation::Heightfield terrain = flat_terrain();
  vegetation::GroundTileOptions ground;
  float tile_size = 200.0f;
  float load_radius = 1000.0f;
  float hysteresis = 150.0f;
  // The GPU pools: hashed LOD and fade bands, and the bytes staged per frame (their upload share).
  VegetationPoolsOptions pools;
  double rebase_distance = 0.0;  // metres; 0 = the render origin stays at the world origin
  // Where the plants are culled: the GPU (compute, two-phase Hi-Z) or the CPU (quadtrees, batched draws;
  // no occlusion), and the CPU path's LOD rule.
  CullPath culling = CullPath::kGpu;
  VegetationCpuLod cpu_lod = VegetationCpuLod::kPerLeaf;

  // Throws myriad::Error naming the first invalid field, the ground's and the pools' included (the
  // field's constructor calls it before anything is baked).
  void validate() const;
};

struct VegetationFieldStats {
  std::uint64_t planted = 0;   // instances in the whole field (every tile)
  std::uint64_t resident = 0;  // instances streamed in and on the GPU
  std::uint64_t tiles = 0, resident_tiles = 0;
  VegetationPoolsFrame pools;      // what the last frame staged and held back
  std::uint64_t pages_staged = 0;  // pool pages uploaded since the field began
  VegetationFrameCounts drawn;     // of the last finished frame
};

// The field's ground: the heightfield as square tiles, each drawn at the level its distance asks for
// (vegetation::pick_ground_lods) when its bounds meet the view; drawn in phase 1 (an occluder) and a
// shadow receiver, not a caster, in its terrain material (vegetation::GroundMaterial, ground.frag).
class GroundTiles : public FrameSystem {
 public:
  GroundTiles(gpu::Context& ctx, const VegetationRenderer& renderer,
              std::vector<vegetation::GroundTile> tiles, std::uint32_t first_mesh,
              const vegetation::GroundTileOptions& options, const gpu::Buffer& instance);
  void cull(VkCommandBuffer, const FrameView&, FramePhase, const DepthPyramid*) override {}
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;

  std::size_t tile_count() const { return bounds_.size(); }
  SystemFrameStats read_frame_stats(bool drawn) override;
  // Of the last draw: tiles drawn, and triangles.
  std::uint32_t drawn() const { return drawn_; }
  std::uint64_t triangles() const { return triangles_; }

 private:
  const VegetationRenderer& renderer_;
  std::vector<vegetation::GroundTile> bounds_;  // bounds only (meshes moved to the renderer)
  std::uint32_t first_mesh_;
  vegetation::GroundTileOptions options_;
  const gpu::Buffer& instance_;
  GroundMaterialPass material_;
  std::vector<int> levels_;
  std::uint32_t drawn_ = 0;
  std::uint64_t triangles_ = 0;
};

class VegetationField : public FrameSystem {
 public:
  using FrameSystem::cull;
  using FrameSystem::draw;

  // Bakes the tiles into options.cache_dir unless a complete bake is there; `progress` gets messages.
  VegetationField(gpu::Context& ctx, const VegetationFieldOptions& options,
                  const std::function<void(const std::string&)>& progress = {});

  // CPU, before recording: one streaming step (tiles read, copied into the CPU pools, unloaded).
  vegetation::StreamingFrame update(glm::dvec3 camera);
  // Streams until every tile within reach of `camera` is resident and on the GPU (setup path: waits).
  void settle(glm::vec3 camera);

  // In the scene frame (after the upload queue's frame began): the pages streaming changed, staged
  // within the field's upload share; tiles whose pages all landed are drawn from this frame on.
  void update(const FrameView& view, float dt) override;
  // Pages still waiting for the budget.
  bool uploading() const { return !pools_->settled(); }

  // The frame's phases (VegetationPasses): two-phase Hi-Z occlusion when the scene frame runs kEarly
  // and kLate, one pass for kSingle. The CPU path culls and draws in phase 1 only (no occlusion).
  bool occlusion_culled() const override { return options_.culling == CullPath::kGpu; }
  void upload(VkCommandBuffer cmd) override;
  void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
            const DepthPyramid* pyramid) override;
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;
  // Outside rendering, before the shadow pass: every resident type culled against the shadow view with
  // the camera's LOD (on the CPU path: walked on the CPU and staged). Inside the shadow pass: their depth.
  void cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  std::uint32_t draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  // After the frame's submission completed: what it drew (stats().drawn).
  void finish_frame();
  // finish_frame(), then the figures.
  SystemFrameStats read_frame_stats(bool drawn) override;

  // The ground tiles, a system of their own.
  GroundTiles& ground() { return *ground_tiles_; }
  // Where the plants read their wind and trampling (VegetationRenderer::set_motion; null: the renderer's
  // stand-in, the default wind).
  void set_motion(const InteractionField* field) { renderer_->set_motion(field); }

  const VegetationFieldStats& stats() const { return stats_; }
  std::uint64_t gpu_bytes() const;
  // Device bytes of the pools per resident instance (records, page tables, visibility words, lists).
  double gpu_bytes_per_instance() const;
  const VegetationCull& cull() const { return *cull_; }
  const VegetationRenderer& renderer() const { return *renderer_; }
  std::span<const VegetationFrameType> frame_types() const { return pools_->frame_types(); }
  const VegetationPools& pools() const { return *pools_; }
  CullPath culling() const { return options_.culling; }
  // The CPU path's last camera and shadow culls (lists, where they landed, quadtree figures).
  const VegetationCpuCull& cpu_cull() const { return cpu_; }
  const VegetationCpuCull& cpu_shadow_cull() const { return cpu_shadow_; }
  vegetation::TileStreamer& streamer() { return *streamer_; }

 private:
  gpu::Context& ctx_;
  VegetationFieldOptions options_;
  std::unique_ptr<vegetation::TileStreamer> streamer_;
  std::unique_ptr<VegetationCull> cull_;
  std::unique_ptr<VegetationRenderer> renderer_;
  gpu::Buffer ground_;
  std::unique_ptr<VegetationPools> pools_;
  std::unique_ptr<GroundTiles> ground_tiles_;
  std::unique_ptr<VegetationPasses> passes_;
  // The CPU path: the pools by world type (refreshed each cull), the camera's and the shadow view's
  // culls, and the counts of what the frame recorded.
  void cull_on_cpu(VegetationCpuCull& into, VkCommandBuffer cmd, const FrameView& view);
  std::vector<const VegetationGpuType*> pool_of_;
  VegetationCpuCull cpu_, cpu_shadow_;
  VegetationFrameCounts cpu_counts_;
  bool recorded_ = false;
  VegetationFieldStats stats_;
};

}  // namespace myriad::render
