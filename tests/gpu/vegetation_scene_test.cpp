// G7 that draws: the plant field culled on the CPU (the offline quadtrees, vegetation::cull_pool_cpu)
// and drawn in instanced batches gives exactly the instance-id image of GPU culling without Hi-Z — same
// instances, same LODs, same cross-fade thresholds — whatever the batch size; the quadtree really skips
// nodes and accepts whole ones.
#include <gtest/gtest.h>

#include <cstring>

#include "gpu_fixture.hpp"
#include "myriad/render/vegetation/vegetation_scene.hpp"

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

}  // namespace
}  // namespace myriad::test
