// The default scene's plant field on the CPU path (G7 inside the scene frame): per instance it draws
// exactly what GPU culling without Hi-Z draws (same counts per LOD, the same image, shadows included);
// per leaf it draws every listed plant in batches of at most 1023, its shadow casters too, with the
// frame's staging through the upload queue and validation clean.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "gpu_fixture.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/vegetation/vegetation_field.hpp"

namespace myriad::render {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kWidth = 256, kHeight = 144;
constexpr glm::vec4 kClear{0.0f, 0.0f, 0.0f, 1.0f};

class VegetationFieldCpuTest : public test::GpuTest {
 protected:
  fs::path cache() const {
    return fs::temp_directory_path() / ("myriad_field_cpu_" + std::to_string(::getpid()));
  }
  VegetationFieldOptions options(CullPath path, VegetationCpuLod lod) const {
    VegetationFieldOptions o;
    o.seed = 3;
    o.min = {0.0, 0.0};
    o.max = {600.0, 600.0};
    o.cache_dir = cache();
    o.terrain.amplitude = 20.0f;
    o.culling = path;
    o.cpu_lod = lod;
    return o;
  }
  void TearDown() override {
    fs::remove_all(cache());
    test::GpuTest::TearDown();
  }
};

struct Frame {
  std::vector<std::uint8_t> rgba;
  VegetationFrameCounts drawn;
  std::uint64_t shadow_draws = 0;
};

// One frame of the field alone (no sky: plants over the clear colour), with a shadow map, no occlusion.
Frame render(gpu::Context& ctx, VegetationField& field, const vegetation::Heightfield& terrain) {
  const glm::vec3 eye(300.0f, terrain.height(300.0, 560.0) + 6.0f, 560.0f);
  const SceneCamera camera = SceneCamera::look_at(eye, {330.0f, terrain.height(330.0, 300.0), 300.0f});
  field.settle(camera.eye);
  OffscreenTarget target(ctx, kWidth, kHeight);
  SceneFrame frame(ctx);
  frame.set_occlusion(false);
  frame.set_sky(false);
  ShadowMap shadow(ctx, 512);
  const FrameView view =
      FrameView::of_camera(camera, kWidth, kHeight, glm::normalize(glm::vec3(0.5f, 0.75f, -0.45f)), 1.0f);
  shadow.fit(view, 150.0f, 200.0f);
  FrameSystem* const systems[] = {&field};
  ctx.submit_and_wait(
      [&](VkCommandBuffer cmd) { frame.record(cmd, view, systems, target, kClear, &shadow, 0.0f, nullptr); });
  field.finish_frame();
  return {target.read_color(), field.stats().drawn, frame.shadow_draws()};
}

std::uint64_t batches_of(const VegetationCpuCull& cull, std::size_t types, std::uint64_t* listed) {
  std::uint64_t batches = 0;
  for (std::size_t t = 0; t < types; ++t)
    for (const std::uint32_t n : cull.placed(t).count) {
      batches += (n + vegetation::kCompatBatchLimit - 1) / vegetation::kCompatBatchLimit;
      if (listed) *listed += n;
    }
  return batches;
}

TEST_F(VegetationFieldCpuTest, PerInstanceDrawsWhatGpuCullingDraws) {
  VegetationField gpu(ctx(), options(CullPath::kGpu, VegetationCpuLod::kPerLeaf));
  const Frame g = render(ctx(), gpu, options(CullPath::kGpu, VegetationCpuLod::kPerLeaf).terrain);
  VegetationField cpu(ctx(), options(CullPath::kCpu, VegetationCpuLod::kPerInstance));
  EXPECT_FALSE(cpu.occlusion_culled());
  const Frame c = render(ctx(), cpu, options(CullPath::kCpu, VegetationCpuLod::kPerInstance).terrain);
  ASSERT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
  EXPECT_GT(g.drawn.total(), 3000u);
  for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l)
    EXPECT_EQ(c.drawn.early[l], g.drawn.early[l]) << l;
  EXPECT_EQ(c.drawn.triangles, g.drawn.triangles);
  EXPECT_EQ(c.drawn.overflow, 0u);
  EXPECT_GT(c.shadow_draws, 0u);
  ASSERT_EQ(c.rgba.size(), g.rgba.size());
  std::size_t differ = 0;
  for (std::size_t p = 0; p + 3 < g.rgba.size(); p += 4)
    differ += std::memcmp(&g.rgba[p], &c.rgba[p], 4) != 0;
  EXPECT_EQ(differ, 0u) << "pixels where the CPU path drew other plants or shadows than the GPU's";
}

TEST_F(VegetationFieldCpuTest, PerLeafDrawsEveryListedPlantAndCasterInBatchesOf1023) {
  VegetationField field(ctx(), options(CullPath::kCpu, VegetationCpuLod::kPerLeaf));
  const Frame f = render(ctx(), field, options(CullPath::kCpu, VegetationCpuLod::kPerLeaf).terrain);
  ASSERT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
  const std::size_t types = field.frame_types().size();
  ASSERT_GT(types, 0u);
  std::uint64_t listed = 0, shadow_listed = 0;
  const std::uint64_t batches = batches_of(field.cpu_cull(), types, &listed);
  const std::uint64_t shadow_batches = batches_of(field.cpu_shadow_cull(), types, &shadow_listed);
  EXPECT_GT(listed, std::uint64_t(vegetation::kCompatBatchLimit));
  EXPECT_EQ(f.drawn.total(), listed);
  EXPECT_EQ(f.drawn.draws, batches) << "camera draws are not the lists cut into batches of 1023";
  EXPECT_GT(shadow_listed, 0u);
  EXPECT_EQ(f.shadow_draws, shadow_batches) << "shadow draws are not the casters' lists in batches";
  EXPECT_GT(field.cpu_cull().stats().nodes_tested, 0u);
  const SystemFrameStats s = field.read_frame_stats(true);
  EXPECT_EQ(s.visible, listed);
  EXPECT_EQ(s.occlusion_culled, 0u);
  std::size_t drawn_pixels = 0;
  for (std::size_t p = 0; p + 3 < f.rgba.size(); p += 4)
    drawn_pixels += f.rgba[p] != 0 || f.rgba[p + 1] != 0 || f.rgba[p + 2] != 0;
  EXPECT_GT(drawn_pixels, std::size_t(kWidth * kHeight / 10));
}

}  // namespace
}  // namespace myriad::render
