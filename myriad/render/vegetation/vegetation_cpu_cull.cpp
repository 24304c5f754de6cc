#include "myriad/render/vegetation/vegetation_cpu_cull.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/vegetation/cull/pool_leaf_cull.hpp"

namespace myriad::render {

const char* vegetation_cpu_lod_name(VegetationCpuLod lod) {
  return lod == VegetationCpuLod::kPerInstance ? "instance" : "leaf";
}

VegetationCpuLod parse_vegetation_cpu_lod(std::string_view name, const char* field) {
  if (name == "leaf") return VegetationCpuLod::kPerLeaf;
  if (name == "instance") return VegetationCpuLod::kPerInstance;
  throw Error("unknown CPU LOD rule '" + std::string(name) + "'", field, "use leaf or instance");
}

void VegetationCpuCull::cull(const vegetation::RuntimeWorld& world,
                             std::span<const VegetationGpuType* const> pools, const Frustum& frustum,
                             glm::vec3 camera, VegetationCpuLod rule) {
  const std::size_t n = pools.size();
  if (lists_.size() < n) {
    lists_.resize(n);
    stacks_.resize(n);
    type_stats_.resize(n);
    placed_.resize(n);
  }
  // One type per task: each writes only its own lists, scratch and figures (same result on any
  // thread count; summed in type order below).
  parallel_for(0, n, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t t = begin; t < end; ++t) {
      for (std::vector<std::uint32_t>& list : lists_[t]) list.clear();
      type_stats_[t] = {};
      const VegetationGpuType* pool = pools[t];
      if (!pool || t >= world.types().size()) continue;
      const vegetation::RuntimeWorld::Type& type = world.types()[t];
      type_stats_[t] =
          rule == VegetationCpuLod::kPerLeaf
              ? vegetation::cull_pool_cpu_per_leaf(world, type, pool->segments, pool->lod, pool->lod_shapes,
                                                   frustum, camera, lists_[t], stacks_[t])
              : vegetation::cull_pool_cpu(world, type, pool->segments, pool->lod, pool->lod_shapes, frustum,
                                          camera, lists_[t], stacks_[t]);
    }
  });
  stats_ = {};
  for (std::size_t t = 0; t < n; ++t) {
    stats_.nodes_tested += type_stats_[t].nodes_tested;
    stats_.nodes_skipped += type_stats_[t].nodes_skipped;
    stats_.instances_tested += type_stats_[t].instances_tested;
    stats_.instances_accepted += type_stats_[t].instances_accepted;
  }
}

void VegetationCpuCull::stage(VkCommandBuffer cmd, const VegetationCull& cull,
                              std::span<const VegetationGpuType* const> pools) {
  if (placed_.size() < pools.size()) throw Error("VegetationCpuCull::stage: more pools than cull() saw");
  for (std::size_t t = 0; t < pools.size(); ++t)
    placed_[t] = pools[t] ? cull.stage_cpu_lists(cmd, *pools[t], lists_[t]) : VegetationCpuLists{};
}

}  // namespace myriad::render
