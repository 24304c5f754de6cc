// G7 that draws: the plant field culled on the CPU (the offline quadtrees, vegetation::cull_pool_cpu)
// and drawn in instanced batches gives exactly the instance-id image of GPU culling without Hi-Z — same
// instances, same LODs, same cross-fade thresholds — whatever the batch size; the quadtree really skips
// nodes and accepts whole ones.
#include <gtest/gtest.h>

#include <cstring>

#include "gpu_fixture.hpp"
#include "myriad/render/vegetation/vegetation_scene.hpp"
#include "myriad/vegetation/plant/plant_gltf_write.hpp"

namespace myriad::test {
namespace {

class VegetationSceneTest : public GpuTest {};

TEST_F(VegetationSceneTest, CpuCullingDrawsTheGpuIdImage) {
  render::VegetationSceneOptions o;
  o.width = 256;
  o.height = 144;
  o.size = 400.0;
  o.instance_ids = true;
  o.occlusion = false;
  const render::VegetationSceneResult gpu = render::render_vegetation_scene(ctx(), o);
  o.culling = render::VegetationCulling::kCpu;
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
  render::VegetationSceneOptions o;
  o.width = 256;
  o.height = 144;
  o.size = 200.0;
  o.instance_ids = true;
  o.occlusion = false;
  o.prefabs = {{"tree", fern}, {"bush", fern}};
  const render::VegetationSceneResult gpu = render::render_vegetation_scene(ctx(), o);
  o.culling = render::VegetationCulling::kCpu;
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
