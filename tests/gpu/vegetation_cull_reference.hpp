// The CPU reference of the vegetation culling pass and the read-back of its GPU result, shared by the
// vegetation GPU tests: per LOD list, the (instance, fading in) pairs the pass must append.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "myriad/core/frustum.hpp"
#include "myriad/gpu/buffer.hpp"
#include "myriad/render/shaders/veg_cull_layout.h"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/vegetation/cpu_cull.hpp"

namespace myriad::test {

using VegetationLists = std::array<std::vector<std::pair<std::uint32_t, bool>>, vegetation::kGpuMaxLods>;

// What the pass appends for `type` (the arrays and segments as uploaded): group AABB test, then
// pick_lod_hashed + Frustum::intersects per instance, fading instances in two lists. Sorted.
inline VegetationLists expected_vegetation_lists(const vegetation::RuntimeWorld::Type& type,
                                                 const vegetation::HashedLod& lod, const Frustum& frustum,
                                                 glm::vec3 cam) {
  VegetationLists expected;
  for (const auto& seg : type.segments) {
    if (!vegetation::group_visible(frustum, seg.bounds, cam, lod)) continue;
    for (std::uint32_t i = seg.first; i < seg.first + seg.count; ++i) {
      const glm::vec3 c(type.spheres.x[i], type.spheres.y[i], type.spheres.z[i]);
      const vegetation::LodPick pick = vegetation::pick_lod_hashed(c - cam, type.instances[i].spare.y, lod);
      if (pick.lod >= lod.count || !frustum.intersects(Sphere{c, type.spheres.r[i]})) continue;
      expected[pick.lod].push_back({i, false});
      if (pick.fading && pick.lod + 1 < lod.count) expected[pick.lod + 1].push_back({i, true});
    }
  }
  for (auto& list : expected) std::sort(list.begin(), list.end());
  return expected;
}

// The pass's output read back from the device, sorted like the reference; checks on the way that the
// args keep the meshes' ranges and list offsets and that both entries of a fading instance carry one
// threshold. `overflow` receives the args' overflow word.
inline VegetationLists read_vegetation_lists(gpu::Context& ctx, const render::VegetationGpuType& g,
                                             std::uint32_t* overflow = nullptr) {
  const auto args = gpu::read_buffer_as<render::shader::VegCullArgs>(ctx, g.args, 1)[0];
  const auto lists =
      gpu::read_buffer_as<std::uint32_t>(ctx, g.lists, std::size_t(g.capacity) * vegetation::kGpuMaxLods * 2);
  if (overflow) *overflow = args.overflow;
  const std::size_t fades = std::size_t(g.capacity) * vegetation::kGpuMaxLods;
  VegetationLists got;
  std::map<std::uint32_t, std::uint32_t> out_q, in_q;
  for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) {
    const render::shader::DrawIndexedCommand& a = args.args[l];
    EXPECT_EQ(a.index_count, g.meshes[l].index_count);
    EXPECT_EQ(a.first_index, g.meshes[l].first_index);
    EXPECT_EQ(a.vertex_offset, g.meshes[l].vertex_offset);
    EXPECT_EQ(a.first_instance, l * g.capacity);
    EXPECT_LE(a.instance_count, g.capacity);
    for (std::uint32_t k = 0; k < std::min(a.instance_count, g.capacity); ++k) {
      const std::size_t slot = std::size_t(l) * g.capacity + k;
      const std::uint32_t word = lists[fades + slot];
      const bool fade_in = (word & VEG_FADE_IN) != 0;
      got[l].push_back({lists[slot], fade_in});
      (fade_in ? in_q : out_q)[lists[slot]] = word & VEG_FADE_Q_MASK;
    }
    std::sort(got[l].begin(), got[l].end());
  }
  for (const auto& [id, q] : in_q) {
    const auto it = out_q.find(id);
    EXPECT_TRUE(it != out_q.end() && it->second == q)
        << "both LODs of fading instance " << id << " share one threshold";
  }
  return got;
}

}  // namespace myriad::test
