// GPU culling of vegetation (G6): per runtime type, a CPU test of each group segment's AABB (frustum
// and farthest draw distance) first, then one compute thread per instance of the surviving segments:
// hashed distance LOD, sphere frustum test, append to that LOD's instance list and indirect args, for
// instanced indirect draws (first_instance = lod * capacity, so gl_InstanceIndex indexes the lists).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/passes/mesh_range.hpp"
#include "myriad/core/frustum.hpp"
#include "myriad/gpu/buffer.hpp"
#include "myriad/gpu/pipeline.hpp"
#include "myriad/vegetation/cpu_cull.hpp"
#include "myriad/vegetation/runtime.hpp"

namespace myriad::render {

// GPU copies of one runtime type's culling inputs and the outputs the draws read. The segments are
// the CPU type's as they were at upload: the CPU type goes on changing as tiles stream in and out,
// but the GPU arrays only change at the next upload, so culling must dispatch the segments that
// describe *these* arrays (never the live ones, which may lie past `capacity`).
struct VegetationGpuType {
  gpu::Buffer spheres;     // vec4 per instance (relative to the render origin)
  gpu::Buffer hashes;      // float per instance
  gpu::Buffer instances;   // RuntimeInstance per instance (the vertex shader's matrices and tint)
  gpu::Buffer params;      // VegCullParams
  gpu::Buffer lists;       // u32 instance indices, kGpuMaxLods lists of `capacity`, then their fade words
  gpu::Buffer args;        // kGpuMaxLods DrawIndexedIndirectCommands, then the overflow word
  gpu::Buffer hiz;         // HizParams, rewritten by record() when Hi-Z is used
  gpu::Buffer visibility;  // u32 per instance: visible at the last late pass (two-phase occlusion)
  gpu::Buffer counters;    // CullCounters of the last camera cull (zeroed by single and early passes)
  std::uint32_t capacity = 0;
  std::vector<vegetation::RuntimeWorld::Segment> segments;  // as uploaded; bounds relative to `origin`
  glm::dvec3 origin{0.0};                                   // the render origin at upload
  vegetation::HashedLod lod;
  std::array<MeshRange, vegetation::kGpuMaxLods> meshes{};
};

// Hi-Z input: a MIN pyramid (render::DepthPyramid, or any R32F chain with the same rule) of a reverse-Z
// depth buffer, in VK_IMAGE_LAYOUT_GENERAL, and the view-projection it was rendered with (relative to
// the render origin).
struct VegetationHiz {
  VkImageView pyramid = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;
  std::uint32_t levels = 0;
  std::uint32_t source_width = 0;
  std::uint32_t source_height = 0;
  glm::mat4 view_proj{1.0f};
};

// Two-phase occlusion culling (niagara): kEarly culls (frustum + LOD) only what was visible last frame;
// draw it, build the depth pyramid, then kLate tests everything against it (with `hiz`), records
// visibility for the next frame and appends only the newly visible; draw those. kSingle: one pass.
using VegetationPass = FramePhase;  // the push constant carries its value

// A GPU copy made by VegetationCull::stage, and the transfers that fill it: copies from the staging
// ring and the cleared visibility words (by handle: `gpu` may move on before they are recorded).
struct StagedVegetationType {
  VegetationGpuType gpu;
  std::array<std::pair<VkBuffer, VkBufferCopy>, 4> copies{};  // spheres, hashes, instances, params
  VkBuffer cleared = VK_NULL_HANDLE;
  VkDeviceSize cleared_bytes = 0;
};

class VegetationCull {
 public:
  explicit VegetationCull(gpu::Context& ctx);

  // Uploads a runtime type (setup path: waits). `band` is the hashed LOD band (e.g. 0.2 = +-10 %),
  // `fade` the cross-fade band below each switch distance as a fraction of it (0 = hard switches).
  VegetationGpuType upload(const vegetation::RuntimeWorld::Type& type, std::span<const MeshRange> meshes,
                           float band, float fade = 0.0f) const;
  // The per-frame path to the same copy: its bytes staged through the context's staging ring within the
  // frame's budget, for record_staged() to copy in this frame's command buffer before anything reads
  // the copy; nothing (and no buffers made) when the frame's budget or the ring has no room left.
  std::optional<StagedVegetationType> stage(const vegetation::RuntimeWorld::Type& type,
                                            std::span<const MeshRange> meshes, float band,
                                            float fade = 0.0f) const;
  // Outside rendering: the staged copy's transfers (the caller adds one barrier after all of them:
  // transfer writes before compute and vertex-shader reads).
  void record_staged(VkCommandBuffer cmd, const StagedVegetationType& staged) const;

  // Records: reset the args, then one dispatch per uploaded segment that passes
  // vegetation::group_visible. `frustum` and `camera` are relative to the type's upload origin.
  // Returns the number of segments culled per instance. On return lists and args are visible to indirect
  // reads and vertex shaders. With `hiz`, instances whose bounds are hidden behind the pyramid's depths are
  // culled too. Instances of segments that fail the group test keep their visibility flag (the early pass
  // re-tests frustum and LOD, so a stale flag only skips one occlusion test). The pyramid is tested in the
  // late pass only (shaders/hiz.glsl); single and early passes ignore `hiz`.
  std::uint32_t record(VkCommandBuffer cmd, const Frustum& frustum, glm::vec3 camera,
                       const VegetationGpuType& gpu_type, const VegetationHiz* hiz = nullptr,
                       VegetationPass pass = VegetationPass::kSingle) const;

 private:
  // The buffers and metadata of a copy of `type`, unfilled.
  VegetationGpuType make_type(const vegetation::RuntimeWorld::Type& type, std::span<const MeshRange> meshes,
                              float band, float fade) const;

  gpu::Context& ctx_;
  gpu::Pipeline pipeline_;
  gpu::Pipeline hiz_pipeline_;
};

}  // namespace myriad::render
