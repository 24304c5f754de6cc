// G7 that draws: the plant field culled on the CPU by the per-instance rule (the offline quadtrees,
// vegetation::cull_pool_cpu) and drawn in instanced batches gives exactly the instance-id image of GPU
// culling without Hi-Z — same instances, same LODs, same cross-fade thresholds — whatever the batch
// size; the quadtree really skips nodes and accepts whole ones. The per-leaf rule (the article's, the
// default) legitimately draws other LODs: its image is checked against its own lists, its draws against
// the 1023 limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/render/vegetation/vegetation_scene.hpp"
#include "myriad/vegetation/plant/plant_gltf_write.hpp"

namespace myriad::test {
namespace {

class VegetationSceneTest : public GpuTest {};

// A small field rendered as an instance-id image (what the culling comparisons read back).
render::VegetationSceneOptions id_image_scene(double size) {
  render::VegetationSceneOptions o;
  o.width = 256;
  o.height = 144;
  o.size = size;
  o.instance_ids = true;
  return o;
}

TEST_F(VegetationSceneTest, CpuCullingDrawsTheGpuIdImage) {
  render::VegetationSceneOptions o = id_image_scene(400.0);
  o.occlusion = false;
  const render::VegetationSceneResult gpu = render::render_vegetation_scene(ctx(), o);
  o.culling = render::VegetationCulling::kCpu;
  o.cpu_lod = render::VegetationCpuLod::kPerInstance;
  const render::VegetationSceneResult cpu = render::render_vegetation_scene(ctx(), o);
  o.batch = 97;  // many small batches draw the same image
  const render::VegetationSceneResult small = render::render_vegetation_scene(ctx(), o);
  ASSERT_EQ(ctx().validation_message_count(), 0u) << joined_messages();

  EXPECT_GT(gpu.drawn, 1000u);
  EXPECT_EQ(cpu.drawn, gpu.drawn);
  EXPECT_EQ(gpu.overflow, 0u);
  EXPECT_EQ(cpu.overflow, 0u);
  EXPECT_GT(small.draws, cpu.draws);
  EXPECT_GE(small.draws * 97, small.drawn);
  // The image: plants at several LODs, the ground (id 0xFFFFFE) and sky (0); cross-fading plants are
  // split between their two LODs by the dither threshold, so a q that differed would show.
  ASSERT_EQ(cpu.rgba.size(), gpu.rgba.size());
  std::size_t differ = 0, plant = 0, coarser = 0;
  for (std::size_t p = 0; p + 3 < gpu.rgba.size(); p += 4) {
    differ +=
        std::memcmp(&gpu.rgba[p], &cpu.rgba[p], 4) != 0 || std::memcmp(&gpu.rgba[p], &small.rgba[p], 4) != 0;
    const std::uint32_t id = gpu.rgba[p] | gpu.rgba[p + 1] << 8 | gpu.rgba[p + 2] << 16;
    plant += id != 0 && id != 0xFFFFFFu;
    coarser += id != 0 && id != 0xFFFFFFu && gpu.rgba[p + 3] > 0;  // LOD > 0 in alpha
  }
  EXPECT_EQ(differ, 0u) << "pixels where CPU and GPU culling drew different instances or LODs";
  EXPECT_GT(plant, 2000u);
  EXPECT_GT(coarser, 0u);
  EXPECT_GT(cpu.cpu_cull.nodes_skipped, 0u);
  EXPECT_GT(cpu.cpu_cull.instances_accepted, 0u);
  EXPECT_GT(cpu.cpu_cull.instances_tested, 0u);
}

// The per-leaf rule: every plant pixel of the instance-id image shows the LOD its entry was listed at
// (the lists are what the CPU walk produced), entries carry no cross-fade, every list is drawn in
// batches of at most 1023 (and some list needs several), and the rule really differs from the
// per-instance one somewhere.
TEST_F(VegetationSceneTest, PerLeafCpuCullingDrawsItsListsInBatchesOfAtMost1023) {
  render::VegetationSceneOptions o = id_image_scene(400.0);
  o.culling = render::VegetationCulling::kCpu;
  const render::VegetationSceneResult leaf = render::render_vegetation_scene(ctx(), o);
  o.cpu_lod = render::VegetationCpuLod::kPerInstance;
  const render::VegetationSceneResult instance = render::render_vegetation_scene(ctx(), o);
  o.cpu_lod = render::VegetationCpuLod::kPerLeaf;
  o.batch = 1024;
  EXPECT_THROW((void)render::render_vegetation_scene(ctx(), o), Error);
  ASSERT_EQ(ctx().validation_message_count(), 0u) << joined_messages();

  ASSERT_EQ(leaf.cpu_lists.size(), leaf.types);
  ASSERT_EQ(leaf.id_bases.size(), leaf.types);
  std::uint64_t batches = 0, listed = 0;
  std::size_t longest = 0, differ = 0;
  std::vector<std::map<std::uint32_t, std::uint32_t>> lod_of(leaf.types);  // per type: slot -> LOD
  for (std::size_t t = 0; t < leaf.types; ++t) {
    for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) {
      const std::vector<std::uint32_t>& list = leaf.cpu_lists[t][l];
      batches += (list.size() + vegetation::kCompatBatchLimit - 1) / vegetation::kCompatBatchLimit;
      listed += list.size();
      longest = std::max(longest, list.size());
      for (const std::uint32_t entry : list) {
        EXPECT_EQ(entry >> VEG_SLOT_BITS, 0u) << "a per-leaf entry with fade bits";
        lod_of[t][entry & VEG_SLOT_MASK] = l;
      }
    }
    std::map<std::uint32_t, std::uint32_t> instance_lod;
    for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l)
      for (const std::uint32_t entry : instance.cpu_lists[t][l]) instance_lod[entry & VEG_SLOT_MASK] = l;
    for (const auto& [slot, l] : lod_of[t]) {
      const auto it = instance_lod.find(slot);
      differ += it == instance_lod.end() || it->second != l;
    }
  }
  EXPECT_EQ(leaf.drawn, listed);
  EXPECT_EQ(leaf.overflow, 0u);
  EXPECT_GT(longest, std::size_t(vegetation::kCompatBatchLimit)) << "no list long enough to need two batches";
  EXPECT_EQ(leaf.draws, batches) << "draws are not the lists cut into batches of 1023";
  EXPECT_GT(differ, 0u) << "the per-leaf rule listed exactly what the per-instance rule does";

  // Each plant pixel: its id names a listed slot, and its alpha the LOD that slot was listed at.
  std::size_t plant = 0, wrong = 0, coarser = 0;
  for (std::size_t p = 0; p + 3 < leaf.rgba.size(); p += 4) {
    const std::uint32_t id = leaf.rgba[p] | leaf.rgba[p + 1] << 8 | leaf.rgba[p + 2] << 16;
    if (id == 0 || id == 0xFFFFFFu) continue;  // sky, ground
    ++plant;
    std::size_t t = 0;  // the type whose ids hold this one (id_bases ascend from 0)
    while (t + 1 < leaf.types && leaf.id_bases[t + 1] <= id - 1) ++t;
    const auto it = lod_of[t].find(id - 1 - leaf.id_bases[t]);
    wrong += it == lod_of[t].end() || it->second != leaf.rgba[p + 3];
    coarser += leaf.rgba[p + 3] > 0;
  }
  EXPECT_GT(plant, 2000u);
  EXPECT_GT(coarser, 0u);
  EXPECT_EQ(wrong, 0u) << "pixels whose instance or LOD the CPU lists do not hold";
}

// Plant pixels (neither sky nor ground) of an instance-id image.
std::size_t plant_pixels(const std::vector<std::uint8_t>& rgba) {
  std::size_t n = 0;
  for (std::size_t p = 0; p + 3 < rgba.size(); p += 4) {
    const std::uint32_t id = rgba[p] | rgba[p + 1] << 8 | rgba[p + 2] << 16;
    n += id != 0 && id != 0xFFFFFFu;
  }
  return n;
}

// An imported, textured, alpha-tested plant: CPU and GPU culling still draw the same image (the alpha
// test is part of both), and the test really drops texels: the same model drawn opaque covers more.
TEST_F(VegetationSceneTest, TexturedGltfPlantsAreAlphaTestedOnBothPaths) {
  auto fern = std::make_shared<vegetation::PlantModel>(vegetation::make_sample_fern());
  render::VegetationSceneOptions o = id_image_scene(200.0);
  o.occlusion = false;
  o.prefabs = {{"tree", fern}, {"bush", fern}};
  const render::VegetationSceneResult gpu = render::render_vegetation_scene(ctx(), o);
  o.culling = render::VegetationCulling::kCpu;
  o.cpu_lod = render::VegetationCpuLod::kPerInstance;
  const render::VegetationSceneResult cpu = render::render_vegetation_scene(ctx(), o);
  auto opaque = std::make_shared<vegetation::PlantModel>(*fern);
  for (vegetation::PlantMesh& m : opaque->lods)
    for (vegetation::PlantSurface& s : m.surfaces) s.alpha_cutoff = 0;
  o.prefabs = {{"tree", opaque}, {"bush", opaque}};
  const render::VegetationSceneResult cards = render::render_vegetation_scene(ctx(), o);
  o.instance_ids = false;
  o.prefabs = {{"tree", fern}};
  const render::VegetationSceneResult shaded = render::render_vegetation_scene(ctx(), o);
  ASSERT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
  EXPECT_EQ(cpu.drawn, gpu.drawn);
  EXPECT_EQ(cpu.rgba, gpu.rgba) << "CPU and GPU culling drew different textured plants";
  EXPECT_EQ(cards.drawn, cpu.drawn);
  const std::size_t leaves = plant_pixels(cpu.rgba), solid = plant_pixels(cards.rgba);
  EXPECT_GT(leaves, 500u);
  EXPECT_LT(double(leaves), 0.95 * double(solid)) << "the alpha test dropped nothing";
  // Shaded: textured fronds have green texels (the frond texture's colour, not the type's tint).
  std::size_t green = 0;
  for (std::size_t p = 0; p + 3 < shaded.rgba.size(); p += 4)
    green += shaded.rgba[p + 1] > shaded.rgba[p] + 20 && shaded.rgba[p + 1] > shaded.rgba[p + 2] + 20;
  EXPECT_GT(green, 200u);
}

}  // namespace
}  // namespace myriad::test
