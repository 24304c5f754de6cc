// A procedural plant field on its heightfield, rendered headless in one frame (`myriad render --scene
// vegetation`, `myriad veg render`, tests): baked in memory, pooled, culled either on the GPU (two-phase
// Hi-Z, or one pass) or on the CPU with the offline quadtrees (G7, VegetationCpuCull: LOD per visible
// leaf from its centre, or per instance with the GPU's rule and verdicts), then instanced draws of at
// most 1023.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "myriad/gpu/device/context.hpp"
#include "myriad/render/frame/scene_image.hpp"
#include "myriad/render/frame/culling_choice.hpp"
#include "myriad/render/vegetation/vegetation_cpu_cull.hpp"
#include "myriad/render/vegetation/vegetation_frame.hpp"
#include "myriad/vegetation/plant/plant_model.hpp"

namespace myriad::render {

using VegetationCulling = CullPath;

inline constexpr double kMinVegetationSceneSize = 100.0, kMaxVegetationSceneSize = 4000.0;

struct VegetationSceneOptions {
  std::uint32_t width = 1280, height = 720;  // check_scene_image_size
  std::uint64_t seed = 1;
  double size = 600.0;  // metres, square field, [kMinVegetationSceneSize, kMaxVegetationSceneSize]
  VegetationCulling culling = VegetationCulling::kGpu;
  bool occlusion = true;      // GPU culling only: two-phase Hi-Z against the frame's depth
  bool instance_ids = false;  // colour = instance id + 1, LOD in alpha, unlit (VegetationDrawOptions)
  VegetationCpuLod cpu_lod = VegetationCpuLod::kPerLeaf;  // CPU culling: the LOD rule
  std::uint32_t batch = vegetation::kCompatBatchLimit;    // CPU culling: instances per draw, 1 to 1023
  // Imported plants: each (type name, model) goes through vegetation::set_plant_model before the bake.
  std::vector<std::pair<std::string, std::shared_ptr<const vegetation::PlantModel>>> prefabs;

  // Throws myriad::Error naming the first invalid field (render_vegetation_scene calls it).
  void validate() const;
};

struct VegetationSceneResult {
  std::vector<std::uint8_t> rgba;
  std::size_t instances = 0, types = 0;
  std::uint64_t drawn = 0;  // list entries drawn (a cross-fading plant counts twice)
  std::uint32_t draws = 0;
  std::uint64_t overflow = 0;  // list entries dropped for want of room (0 unless something is wrong)
  double bake_ms = 0.0, frame_ms = 0.0;
  vegetation::PoolCullStats cpu_cull;  // CPU culling's quadtree statistics, summed over types
  // CPU culling: each type's list entries per LOD as drawn, and the type's first instance id
  // (VegetationDrawOptions::id_base) in the instance-id image: id - id_base is the entry's slot.
  std::vector<vegetation::PoolLists> cpu_lists;
  std::vector<std::uint32_t> id_bases;
};

VegetationSceneResult render_vegetation_scene(gpu::Context& ctx, const VegetationSceneOptions& options);

}  // namespace myriad::render
