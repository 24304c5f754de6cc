// (a) GPU frustum culling of 64k random spheres with compaction and a draw count equals the CPU
// reference exactly, for several cameras (finite and infinite reverse-Z, classic 0..1 depth).
#include <algorithm>
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/cull/frustum.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/render/shaders/cull_layout.h"
#include "myriad/render/passes/sphere_cull.hpp"

namespace myriad::test {
namespace {

using render::shader::DrawIndexedCommand;

struct Camera {
  glm::mat4 view_proj;
  DepthConvention depth;
};

std::vector<Camera> cameras() {
  const glm::mat4 view_a = glm::lookAt(glm::vec3(0, 20, 0), glm::vec3(50, 0, 30), kWorldUp);
  const glm::mat4 view_b = glm::lookAt(glm::vec3(-80, 5, -80), glm::vec3(0, 0, 0), kWorldUp);
  const glm::mat4 view_c = glm::lookAt(glm::vec3(10, 120, 10), glm::vec3(0, 0, 0), glm::vec3(0, 0, 1));
  return {
      {perspective_infinite_reverse_z(glm::radians(60.0f), 16.0f / 9.0f, 0.1f) * view_a,
       DepthConvention::kReverseZ},
      {perspective(glm::radians(40.0f), 1.0f, 1.0f, 150.0f, true) * view_b, DepthConvention::kReverseZ},
      {perspective(glm::radians(50.0f), 1.3f, 0.5f, 240.0f, false) * view_c, DepthConvention::kZeroToOne},
  };
}

class SphereCullTest : public GpuTest {};

TEST_F(SphereCullTest, MatchesCpuReferenceFor64kSpheres) {
  constexpr std::uint32_t kCount = 65536;
  constexpr std::uint32_t kIndexCount = 36;
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> pos(-100.0f, 100.0f);
  std::uniform_real_distribution<float> radius(0.05f, 4.0f);
  std::vector<glm::vec4> spheres(kCount);
  for (auto& s : spheres) s = {pos(rng), pos(rng) * 0.3f, pos(rng), radius(rng)};

  gpu::Buffer sphere_buf(ctx(), kCount * sizeof(glm::vec4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer commands(ctx(), kCount * sizeof(DrawIndexedCommand),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                       gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer count(ctx(), sizeof(std::uint32_t),
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                    gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), sphere_buf, std::span<const glm::vec4>(spheres));
  render::SphereCull cull(ctx());

  for (const Camera& cam : cameras()) {
    const Frustum frustum = Frustum::from_view_proj(cam.view_proj, cam.depth);
    std::vector<std::uint32_t> expected;
    for (std::uint32_t i = 0; i < kCount; ++i) {
      if (frustum.intersects(Sphere{glm::vec3(spheres[i]), spheres[i].w})) expected.push_back(i);
    }
    // Every camera sees some but not all spheres, so both outcomes are exercised.
    ASSERT_GT(expected.size(), 100u);
    ASSERT_LT(expected.size(), kCount - 100u);

    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      cull.record(cmd, frustum, sphere_buf, kCount, commands, count, kIndexCount, 6);
    });
    const std::uint32_t gpu_count = gpu::read_buffer_as<std::uint32_t>(ctx(), count, 1)[0];
    ASSERT_EQ(gpu_count, expected.size());
    const auto cmds = gpu::read_buffer_as<DrawIndexedCommand>(ctx(), commands, gpu_count);
    std::vector<std::uint32_t> got;
    for (const DrawIndexedCommand& c : cmds) {
      EXPECT_EQ(c.index_count, kIndexCount);
      EXPECT_EQ(c.instance_count, 1u);
      EXPECT_EQ(c.first_index, 6u);
      EXPECT_EQ(c.vertex_offset, 0);
      got.push_back(c.first_instance);
    }
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, expected);
  }
}

TEST_F(SphereCullTest, SpheresOnPlaneBoundariesAgreeWithCpu) {
  // Spheres placed exactly tangent to frustum planes stress the comparison's rounding: the GPU must
  // evaluate the same expression as the CPU (no fused multiply-add) to agree on every one.
  const glm::mat4 vp = perspective(glm::radians(50.0f), 1.0f, 1.0f, 50.0f, true) *
                       glm::lookAt(glm::vec3(0, 0, 10), glm::vec3(0, 0, 0), kWorldUp);
  const Frustum frustum = Frustum::from_view_proj(vp, DepthConvention::kReverseZ);
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> u(-30.0f, 30.0f);
  std::uniform_real_distribution<float> r(0.1f, 3.0f);
  std::vector<glm::vec4> spheres;
  for (int i = 0; i < 8192; ++i) {
    const Plane& p = frustum.planes[std::size_t(i % 4)];
    glm::vec3 c(u(rng), u(rng), u(rng) * 0.5f - 10.0f);
    const float rad = r(rng);
    c -= p.normal * (p.distance(c) + rad);  // tangent from outside, up to rounding
    spheres.emplace_back(c, rad);
  }
  const auto n = std::uint32_t(spheres.size());
  gpu::Buffer sphere_buf(ctx(), n * sizeof(glm::vec4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer commands(ctx(), n * sizeof(DrawIndexedCommand), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                       gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer count(ctx(), 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), sphere_buf, std::span<const glm::vec4>(spheres));
  render::SphereCull cull(ctx());
  ctx().submit_and_wait(
      [&](VkCommandBuffer cmd) { cull.record(cmd, frustum, sphere_buf, n, commands, count, 3); });
  std::vector<std::uint32_t> expected;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (frustum.intersects(Sphere{glm::vec3(spheres[i]), spheres[i].w})) expected.push_back(i);
  }
  const std::uint32_t gpu_count = gpu::read_buffer_as<std::uint32_t>(ctx(), count, 1)[0];
  ASSERT_EQ(gpu_count, expected.size());
  std::vector<std::uint32_t> got;
  for (const auto& c : gpu::read_buffer_as<DrawIndexedCommand>(ctx(), commands, gpu_count))
    got.push_back(c.first_instance);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
}

}  // namespace
}  // namespace myriad::test
