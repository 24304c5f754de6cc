// The plant pools culled on the CPU (G7, where compute culling is unavailable or not chosen), shared by
// the vegetation scene and the default scene's field: every type's live segments walked on the CPU by
// the chosen LOD rule (types in parallel, each with its own lists and scratch), the lists copied into
// the pools' list regions through the frame's upload queue, then drawn with instanced draws of at most
// vegetation::kCompatBatchLimit (1023) instances (VegetationRenderer::draw_batches, draw_shadow_batches).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "myriad/render/vegetation/vegetation_cull.hpp"

namespace myriad::render {

// The CPU path's LOD rule: per visible quadtree leaf from its centre (the article's rule, block by
// block: vegetation::cull_pool_cpu_per_leaf), or per instance with the GPU pass's hashed distances and
// cross-fades (vegetation::cull_pool_cpu: the GPU path's verdicts exactly).
enum class VegetationCpuLod : std::uint8_t { kPerLeaf, kPerInstance };
const char* vegetation_cpu_lod_name(VegetationCpuLod lod);  // "leaf", "instance"
// "leaf" or "instance"; throws myriad::Error naming `field` for anything else.
VegetationCpuLod parse_vegetation_cpu_lod(std::string_view name, const char* field);

class VegetationCpuCull {
 public:
  // Clears and fills every type's lists: pools[t] is world type t's pool (null: not drawn). `frustum`
  // and `camera` are relative to the render origin. No allocation once the lists have grown.
  void cull(const vegetation::RuntimeWorld& world, std::span<const VegetationGpuType* const> pools,
            const Frustum& frustum, glm::vec3 camera, VegetationCpuLod rule);
  // Outside rendering, after cull(): each type's lists into its pool (VegetationCull::stage_cpu_lists),
  // visible to the vertex shader on return.
  void stage(VkCommandBuffer cmd, const VegetationCull& cull,
             std::span<const VegetationGpuType* const> pools);

  // Of the last stage(): where type t's lists landed (empty for a type without a pool).
  const VegetationCpuLists& placed(std::size_t type) const { return placed_.at(type); }
  // Of the last cull(): type t's entries per LOD, and the walk's figures summed over types.
  const vegetation::PoolLists& lists(std::size_t type) const { return lists_.at(type); }
  const vegetation::PoolCullStats& stats() const { return stats_; }

 private:
  std::vector<vegetation::PoolLists> lists_;
  std::vector<std::vector<std::uint32_t>> stacks_;
  std::vector<vegetation::PoolCullStats> type_stats_;
  std::vector<VegetationCpuLists> placed_;
  vegetation::PoolCullStats stats_;
};

}  // namespace myriad::render
