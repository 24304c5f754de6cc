// (b) Culling writes indexed indirect commands and a count; vkCmdDrawIndexedIndirectCount draws them
// into an offscreen target; the read-back image equals the CPU-predicted image pixel for pixel.
#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/passes/sphere_cull.hpp"
#include "myriad_test_shaders.hpp"
#include "rects_layout.h"

namespace myriad::test {
namespace {

using render::shader::DrawIndexedCommand;
using render::shader::TestRect;
using render::shader::TestRectPush;

constexpr std::uint32_t kSize = 256;
constexpr std::uint32_t kClear = pack_rgba8_bytes(10, 20, 30, 255);

class IndirectDrawTest : public GpuTest {};

TEST_F(IndirectDrawTest, DrawIndexedIndirectCountMatchesCpuPrediction) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> coord(-20, int(kSize) + 20);
  std::uniform_int_distribution<int> extent(1, 60);
  std::uniform_int_distribution<std::uint32_t> byte(0, 255);
  constexpr std::uint32_t kRects = 400;
  std::vector<std::uint32_t> depth_rank(kRects);
  std::iota(depth_rank.begin(), depth_rank.end(), 1u);
  std::shuffle(depth_rank.begin(), depth_rank.end(), rng);
  std::vector<TestRect> rects(kRects);
  std::vector<glm::vec4> spheres(kRects);
  for (std::uint32_t i = 0; i < kRects; ++i) {
    const float x0 = float(coord(rng)), y0 = float(coord(rng));
    const glm::vec2 mn(x0, y0), mx(x0 + float(extent(rng)), y0 + float(extent(rng)));
    rects[i] = {
        mn, mx, float(depth_rank[i]) / 1024.0f,
        pack_rgba8_bytes(std::uint8_t(byte(rng)), std::uint8_t(byte(rng)), std::uint8_t(byte(rng)), 255)};
    const glm::vec2 c = (mn + mx) * 0.5f;
    spheres[i] = {c, 0.0f, glm::length(mx - mn) * 0.5f};
  }
  // Cull against a window over part of the target (pixel space, orthographic).
  const glm::mat4 window = glm::ortho(30.0f, 220.0f, 15.0f, 240.0f, -1.0f, 1.0f);
  const Frustum frustum = Frustum::from_view_proj(window, DepthConvention::kZeroToOne);

  gpu::Buffer rect_buf(ctx(), sizeof(TestRect) * kRects, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                       gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer sphere_buf(ctx(), sizeof(glm::vec4) * kRects, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer commands(ctx(), sizeof(DrawIndexedCommand) * kRects,
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                       gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer count(ctx(), 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                    gpu::MemoryKind::kDeviceLocal);
  const std::array<std::uint32_t, 6> quad{0, 1, 2, 2, 1, 3};
  gpu::Buffer index_buf(ctx(), sizeof(quad), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), rect_buf, std::span<const TestRect>(rects));
  gpu::upload(ctx(), sphere_buf, std::span<const glm::vec4>(spheres));
  gpu::upload(ctx(), index_buf, std::span<const std::uint32_t>(quad));

  render::OffscreenTarget target(ctx(), kSize, kSize);
  render::SphereCull cull(ctx());
  gpu::GraphicsPipelineBuilder builder;
  builder.vertex = spirv::rects_vert();
  builder.fragment = spirv::rects_frag();
  builder.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, sizeof(TestRectPush)};
  builder.color_formats = {render::OffscreenTarget::kColorFormat};
  builder.depth_format = render::OffscreenTarget::kDepthFormat;
  builder.cull_mode = VK_CULL_MODE_NONE;
  const gpu::Pipeline pipeline = builder.build(ctx());

  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    cull.record(cmd, frustum, sphere_buf, kRects, commands, count, 6);
    target.begin(cmd, unpack_rgba8(kClear));
    const TestRectPush push{glm::vec2(float(kSize))};
    const std::array bindings{gpu::storage_buffer(rect_buf)};
    gpu::bind(ctx(), cmd, pipeline, bindings, &push, sizeof(push));
    vkCmdBindIndexBuffer(cmd, index_buf.handle(), 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexedIndirectCount(cmd, commands.handle(), 0, count.handle(), 0, kRects,
                                  sizeof(DrawIndexedCommand));
    target.end(cmd);
  });
  const std::vector<std::uint8_t> bytes = target.read_color();

  // CPU prediction: among the rectangles the CPU frustum keeps, the nearest covering each pixel centre.
  std::vector<std::uint32_t> expected(kSize * kSize, kClear);
  std::vector<float> nearest(kSize * kSize, 0.0f);
  std::uint32_t kept = 0;
  for (std::uint32_t i = 0; i < kRects; ++i) {
    if (!frustum.intersects(Sphere{glm::vec3(spheres[i]), spheres[i].w})) continue;
    ++kept;
    for (std::uint32_t y = 0; y < kSize; ++y) {
      for (std::uint32_t x = 0; x < kSize; ++x) {
        const float cx = float(x) + 0.5f, cy = float(y) + 0.5f;
        const TestRect& r = rects[i];
        if (cx > r.min.x && cx < r.max.x && cy > r.min.y && cy < r.max.y &&
            r.depth > nearest[y * kSize + x]) {
          nearest[y * kSize + x] = r.depth;
          expected[y * kSize + x] = r.color;
        }
      }
    }
  }
  ASSERT_GT(kept, 20u);
  ASSERT_LT(kept, kRects - 20u);
  EXPECT_EQ(gpu::read_buffer_as<std::uint32_t>(ctx(), count, 1)[0], kept);

  std::vector<std::uint32_t> got(kSize * kSize);
  std::memcpy(got.data(), bytes.data(), bytes.size());
  std::uint32_t mismatches = 0;
  for (std::size_t i = 0; i < got.size(); ++i) mismatches += got[i] != expected[i];
  EXPECT_EQ(mismatches, 0u) << "pixels differing from the CPU prediction";
}

}  // namespace
}  // namespace myriad::test
