// The CPU reference of the vegetation culling pass and the read-back of its GPU result, shared by the
// vegetation GPU tests: per LOD list, the (instance, fading in) pairs the pass must append.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/render/shaders/veg_cull_layout.h"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/vegetation/cull/cpu_cull.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"

namespace myriad::test {

using VegetationLists = std::array<std::vector<std::pair<std::uint32_t, bool>>, vegetation::kGpuMaxLods>;

// What the pass appends for `type` culling the pool `g`'s live segments: group AABB test, then per
// slot expand_plant + pick_lod_hashed (from the type's sphere) + Frustum::intersects with the picked
// LOD's own sphere, fading instances in two lists. Sorted.
inline VegetationLists expected_vegetation_lists(const vegetation::RuntimeWorld::Type& type,
                                                 const render::VegetationGpuType& g, const Frustum& frustum,
                                                 glm::vec3 cam) {
  VegetationLists expected;
  const vegetation::HashedLod& lod = g.lod;
  for (const auto& seg : g.segments) {
    if (!vegetation::group_visible(frustum, seg.bounds, cam, lod)) continue;
    vegetation::for_each_slot(type, seg, [&](std::uint32_t i) {
      const vegetation::ExpandedPlant p = type.expand(i);
      const vegetation::LodPick pick =
          vegetation::pick_lod_hashed(p.sphere.center - cam, p.instance.spare.y, lod);
      if (pick.lod >= lod.count) return;
      const bool into_next = pick.fading && pick.lod + 1 < lod.count;
      const std::uint32_t page = i / vegetation::kPageSlots;
      const Sphere cull =
          vegetation::plant_sphere(type.page_records(page)[i % vegetation::kPageSlots], type.pages[page],
                                   vegetation::cull_shape_at(g.lod_shapes, pick.lod, into_next));
      if (!frustum.intersects(cull)) return;
      expected[pick.lod].push_back({i, false});
      if (into_next) expected[pick.lod + 1].push_back({i, true});
    });
  }
  for (auto& list : expected) std::sort(list.begin(), list.end());
  return expected;
}

// The list entries of LOD `l` as the draw reads them (first_instance .. + instance_count), checking that
// the args keep the meshes' ranges and that each list stays in its half of its pair's region.
inline std::vector<std::uint32_t> vegetation_list_entries(const render::shader::VegCullArgs& args,
                                                          const std::vector<std::uint32_t>& lists,
                                                          const render::VegetationGpuType& g,
                                                          std::uint32_t l) {
  const render::shader::DrawIndexedCommand& a = args.args[l];
  EXPECT_EQ(a.index_count, g.meshes[l].index_count);
  EXPECT_EQ(a.first_index, g.meshes[l].first_index);
  EXPECT_EQ(a.vertex_offset, g.meshes[l].vertex_offset);
  const std::uint32_t region = (l / 2) * g.capacity;
  EXPECT_EQ(a.first_instance, (l & 1u) == 0 ? region : region + g.capacity - a.instance_count);
  EXPECT_LE(args.args[l & ~1u].instance_count + args.args[l | 1u].instance_count, g.capacity);
  std::vector<std::uint32_t> out;
  for (std::uint32_t k = 0; k < a.instance_count && a.first_instance + k < lists.size(); ++k)
    out.push_back(lists[a.first_instance + k]);
  return out;
}

// The pass's output read back from the device, sorted like the reference; checks on the way that the
// args keep the meshes' ranges and list places and that both entries of a fading instance carry one
// threshold. `overflow` receives the args' overflow word.
inline VegetationLists read_vegetation_lists(gpu::Context& ctx, const render::VegetationGpuType& g,
                                             std::uint32_t* overflow = nullptr) {
  const auto args = gpu::read_buffer_as<render::shader::VegCullArgs>(ctx, g.args, 1)[0];
  const auto lists = gpu::read_buffer_as<std::uint32_t>(ctx, g.lists, std::size_t(g.capacity) * 2);
  if (overflow) *overflow = args.overflow;
  VegetationLists got;
  std::map<std::uint32_t, std::uint32_t> out_q, in_q;
  for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) {
    for (const std::uint32_t word : vegetation_list_entries(args, lists, g, l)) {
      const std::uint32_t slot = word & VEG_SLOT_MASK;
      const bool fade_in = (word & VEG_FADE_IN) != 0;
      got[l].push_back({slot, fade_in});
      (fade_in ? in_q : out_q)[slot] = word >> VEG_FADE_Q_SHIFT;
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
