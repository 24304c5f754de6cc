// GPU culling of vegetation (G6): per runtime type, a CPU test of each live group segment's AABB
// (frustum and farthest draw distance) first, then one compute thread per pooled slot of the surviving
// segments' pages (the compact record expanded on the spot):
// hashed distance LOD, sphere frustum test, append to that LOD's instance list and indirect args, for
// instanced indirect draws (first_instance = the list's start, so gl_InstanceIndex indexes the lists).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/passes/mesh_range.hpp"
#include "myriad/render/shaders/veg_cull_layout.h"
#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/motion/plant_motion.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/vegetation/cull/cpu_cull.hpp"
#include "myriad/vegetation/cull/pool_cull.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"

namespace myriad::render {

// The GPU pool of one runtime type (vegetation::RuntimeWorld::Type): its pages' records and table
// entries at the same slots as on the CPU, per-slot visibility words, and the culling outputs the draws
// read. `segments` are what culling dispatches: the live segments, those whose pages are all resident
// here (a tile still uploading is left out whole); their bounds are relative to the render origin the
// page table was written for.
struct VegetationGpuType {
  gpu::Buffer records;     // PlantRecord per slot
  gpu::Buffer pages;       // PlantPage per page
  gpu::Buffer params;      // VegCullParams
  gpu::Buffer lists;       // list entries: two regions of `capacity` words (veg_cull_layout.h)
  gpu::Buffer args;        // VegCullArgs: kGpuMaxLods DrawIndexedIndirectCommands, overflow, regions
  gpu::Buffer hiz;         // HizParams, rewritten by record() when Hi-Z is used
  gpu::Buffer visibility;  // u32 per slot: visible at the last late pass (two-phase occlusion)
  gpu::Buffer counters;    // CullCounters of the last camera cull (zeroed by single and early passes)
  const gpu::Buffer* decode = nullptr;  // the culling pass's decode table (shared by every pool)
  std::uint32_t page_capacity = 0;
  std::uint32_t capacity = 0;  // slots: page_capacity * kPageSlots
  std::vector<vegetation::RuntimeWorld::Segment> segments;
  vegetation::HashedLod lod;
  vegetation::PlantSphereShape shape;
  vegetation::PlantLodShapes lod_shapes;
  std::array<MeshRange, vegetation::kGpuMaxLods> meshes{};
  // How the type's plants sway and give way to feet (from its height at scale 1, the prefab's bounds).
  PlantMotionType motion;

  // Device bytes of the pool's buffers (the decode table not included: it is shared).
  std::uint64_t bytes() const;
};

// Where CPU-culled lists (vegetation::cull_pool_cpu) landed in a pool's list regions: per LOD the first
// entry and the count (the draws' first_instance and instance range), and the entries a full region
// dropped.
struct VegetationCpuLists {
  std::array<std::uint32_t, vegetation::kGpuMaxLods> first{};
  std::array<std::uint32_t, vegetation::kGpuMaxLods> count{};
  std::uint32_t overflow = 0;
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

// The buffers of a pool whose size follows its capacity: made ahead of a growth on a worker thread
// (VegetationCull::make_pool_buffers) or by make_pool itself.
struct VegetationPoolBuffers {
  std::uint32_t page_capacity = 0;
  gpu::Buffer records, pages, lists, visibility;
};

class VegetationCull {
 public:
  explicit VegetationCull(gpu::Context& ctx);

  // A pool for `type` with room for `page_capacity` pages (at least the type's), unfilled (the caller
  // clears the visibility words and writes params()). `band` is the hashed LOD band (e.g. 0.2 = +-10 %),
  // `fade` the cross-fade band below each switch distance as a fraction of it (0 = hard switches),
  // `lod_bounds` each LOD mesh's bounds (VegetationRenderer::lod_bounds; empty: the prefab's for all).
  // `grown_from`, when given, is the pool this one replaces: its buffers whose size does not follow the
  // capacity (params, args, hiz, counters) move into the new pool instead of being made again, so a
  // pool that grows mid-flight creates (and later frees) only the four it must. Its other buffers stay
  // for the growth copy. `made`, when given, holds those four made ahead for its page capacity (at least
  // `page_capacity` and the type's): the pool takes them and creates none of them.
  VegetationGpuType make_pool(const vegetation::RuntimeWorld::Type& type, std::span<const MeshRange> meshes,
                              float band, float fade, std::uint32_t page_capacity,
                              std::span<const Aabb> lod_bounds = {}, VegetationGpuType* grown_from = nullptr,
                              VegetationPoolBuffers* made = nullptr) const;
  // The four buffers of a pool of `page_capacity` pages, unfilled. Creates buffers only, so any thread may
  // call it (a worker making a growing pool's next buffers ahead of need).
  VegetationPoolBuffers make_pool_buffers(std::uint32_t page_capacity) const;
  // Setup path (waits): a pool holding every page of `type` as it is, all its segments live.
  VegetationGpuType upload(const vegetation::RuntimeWorld::Type& type, std::span<const MeshRange> meshes,
                           float band, float fade = 0.0f, std::span<const Aabb> lod_bounds = {}) const;
  // The parameter block of a pool (LOD distances, capacity, sphere shape).
  shader::VegCullParams params(const VegetationGpuType& pool) const;
  const gpu::Buffer& decode_table() const { return decode_; }
  // Outside rendering (G7, CPU culling): copies `lists` into the pool's list regions through the staging
  // ring, laid out as the GPU pass lays its lists (even LODs up from their region's start, odd ones down
  // from its end), visible to the vertex shader on return.
  VegetationCpuLists stage_cpu_lists(VkCommandBuffer cmd, const VegetationGpuType& pool,
                                     const vegetation::PoolLists& lists) const;
  // Outside rendering: every slot of `pool` expanded on the GPU into `out` (storage, 80 bytes per slot:
  // the RuntimeInstance, then the bounding sphere), as culling and drawing expand it; zeros for free
  // slots. Tests compare it with vegetation::expand_type bit for bit.
  void record_expand(VkCommandBuffer cmd, const VegetationGpuType& pool, const gpu::Buffer& out) const;

  // Records: reset the args, then the pages of every live segment that passes vegetation::group_visible
  // (listed in the staging ring) culled per instance in one dispatch. `frustum` and `camera` are
  // relative to the render origin. Returns the number of segments culled per instance. On return lists and
  // args are visible to indirect reads and vertex shaders. With `hiz`, instances whose bounds are hidden
  // behind the pyramid's depths are culled too. Instances of segments that fail the group test keep their
  // visibility flag (the early pass re-tests frustum and LOD, so a stale flag only skips one occlusion test).
  // The pyramid is tested in the late pass only (shaders/hiz.glsl); single and early passes ignore `hiz`.
  std::uint32_t record(VkCommandBuffer cmd, const Frustum& frustum, glm::vec3 camera,
                       const VegetationGpuType& gpu_type, const VegetationHiz* hiz = nullptr,
                       VegetationPass pass = VegetationPass::kSingle) const;

 private:
  gpu::Context& ctx_;
  gpu::OwnedUploadShare upload_share_;  // page lists read in place, CPU-culled lists
  gpu::Buffer decode_;
  gpu::Pipeline pipeline_;
  gpu::Pipeline hiz_pipeline_;
  gpu::Pipeline expand_pipeline_;
  mutable std::vector<std::uint32_t> live_;  // record()'s page list before it is staged
};

}  // namespace myriad::render
