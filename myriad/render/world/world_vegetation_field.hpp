// The default scene's vegetation field (SPEC G1-G7 in the frame loop): plants baked procedurally into
// tile files once (kept in a cache folder per seed and size), streamed around the camera, merged into
// runtime types, culled on the GPU with hashed LOD and two-phase Hi-Z against the frame's own depth,
// and drawn instanced; a flat ground grid under them. The render origin stays at the world origin: the
// field is a few kilometres across, where float positions are still sub-millimetre.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "myriad/render/vegetation/vegetation_frame.hpp"
#include "myriad/vegetation/baker.hpp"
#include "myriad/vegetation/streaming.hpp"

namespace myriad::render {

struct VegetationFieldOptions {
  std::uint64_t seed = 1;
  glm::dvec2 min{0.0}, max{4096.0};  // XZ extent in metres
  std::vector<vegetation::Clearing> clearings;
  std::filesystem::path cache_dir;
  float tile_size = 200.0f;
  float load_radius = 1000.0f;
  float hysteresis = 150.0f;
};

struct VegetationFieldStats {
  std::uint64_t planted = 0;   // instances in the whole field (every tile)
  std::uint64_t resident = 0;  // instances streamed in and on the GPU
  std::uint64_t tiles = 0, resident_tiles = 0;
  std::uint64_t refreshes = 0;  // GPU copies rebuilt after streaming changes
  VegetationFrameCounts drawn;  // of the last finished frame
};

// The flat ground grid under the field: drawn in phase 1 (an occluder), a shadow receiver, never a
// caster (it is flat).
class GroundPlane : public FrameSystem {
 public:
  GroundPlane(const VegetationRenderer& renderer, std::uint32_t mesh, const gpu::Buffer& instance)
      : renderer_(renderer), mesh_(mesh), instance_(instance) {}
  void cull(VkCommandBuffer, const FrameView&, FramePhase, const DepthPyramid*) override {}
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;

 private:
  const VegetationRenderer& renderer_;
  std::uint32_t mesh_;
  const gpu::Buffer& instance_;
};

class VegetationField : public FrameSystem {
 public:
  using FrameSystem::cull;
  using FrameSystem::draw;

  // Bakes the tiles into options.cache_dir unless a complete bake is there; `progress` gets messages.
  VegetationField(gpu::Context& ctx, const VegetationFieldOptions& options,
                  const std::function<void(const std::string&)>& progress = {});

  // CPU, before recording: one streaming step. When tiles arrived or left and either streaming went
  // idle or `max_stale_frames` frames passed since, a refresh of the GPU copies starts: from the next
  // frame on, update(view, dt) re-stages the plant types one after another through the staging ring
  // within the frame's upload budget (no wait); each type switches to its new copy in the frame that
  // uploads it, the others draw their previous (self-consistent) copies meanwhile.
  void update(glm::vec3 camera, std::uint32_t max_stale_frames = 30);
  // Streams until every tile within reach of `camera` is resident, then rebuilds the GPU copies
  // (setup path: waits).
  void settle(glm::vec3 camera);

  // In the scene frame (after the staging ring's frame began): the refresh's types for this frame.
  void update(const FrameView& view, float dt) override;
  // Whether a refresh is under way (types still to re-stage).
  bool refreshing() const { return refreshing_; }

  // The frame's phases (VegetationPasses): two-phase Hi-Z occlusion when the scene frame runs kEarly
  // and kLate, one pass for kSingle.
  bool occlusion_culled() const override { return true; }
  void upload(VkCommandBuffer cmd) override;
  void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
            const DepthPyramid* pyramid) override;
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap* shadow) override;
  // Outside rendering, before the shadow pass: every resident type culled against the shadow view with
  // the camera's LOD. Inside the shadow pass: their depth.
  void cull_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  std::uint32_t draw_shadow(VkCommandBuffer cmd, const FrameView& shadow_view) override;
  // After the frame's submission completed: what it drew (stats().drawn).
  void finish_frame();

  // The ground grid, a system of its own.
  GroundPlane& ground() { return *ground_plane_; }

  const VegetationFieldStats& stats() const { return stats_; }
  std::uint64_t gpu_bytes() const;
  const VegetationCull& cull() const { return *cull_; }
  const VegetationRenderer& renderer() const { return *renderer_; }
  std::span<const VegetationFrameType> frame_types() const { return frame_types_; }
  vegetation::TileStreamer& streamer() { return *streamer_; }

 private:
  void refresh_gpu();

  gpu::Context& ctx_;
  VegetationFieldOptions options_;
  std::unique_ptr<vegetation::TileStreamer> streamer_;
  std::unique_ptr<VegetationCull> cull_;
  std::unique_ptr<VegetationRenderer> renderer_;
  std::uint32_t ground_mesh_ = 0;
  gpu::Buffer ground_;
  void rebuild_frame_types();
  // Moves a type's copy to retired_ (kept until the next frame's update).
  void retire(std::size_t type);

  std::vector<std::optional<VegetationGpuType>> gpu_types_;  // per runtime type (none while empty)
  std::vector<VegetationFrameType> frame_types_;
  std::vector<StagedVegetationType> staged_;  // this frame's re-staged types, copied by upload()
  std::vector<VegetationGpuType> retired_;    // copies replaced this frame, alive until it completed
  bool refreshing_ = false;
  std::size_t refresh_cursor_ = 0;  // the next runtime type a refresh re-stages
  std::unique_ptr<GroundPlane> ground_plane_;
  std::unique_ptr<VegetationPasses> passes_;
  bool stale_ = false;
  std::uint32_t stale_frames_ = 0;
  bool recorded_ = false;
  VegetationFieldStats stats_;
};

}  // namespace myriad::render
