// Avatar blob shadows (SPEC B9): one instanced draw puts a soft disc under each avatar; the read-back
// image matches the CPU falloff formula, leaves everything outside the discs untouched, darkens less
// towards the rim, and honours depth (an occluder in front hides the disc, one behind is darkened).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/render/avatars/avatar_blob_shadow.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad_test_shaders.hpp"
#include "rects_layout.h"

namespace myriad::test {
namespace {

class AvatarBlobTest : public GpuTest {};

constexpr std::uint32_t kSize = 256;
constexpr float kLift = 0.02f;
// A known, exactly representable background (what the lit ground would be).
constexpr std::array<int, 3> kBackground{200, 180, 160};
// Unorm8 blending rounds once; interpolation of the disc coordinate adds float noise: 2 of 255.
constexpr int kTolerance = 2;

glm::mat4 camera() {
  const glm::mat4 proj = perspective_infinite_reverse_z(glm::radians(50.0f), 1.0f, 0.1f);
  return proj * glm::lookAt(glm::vec3(0.0f, 14.0f, 10.0f), glm::vec3(0.0f), kWorldUp);
}

std::vector<render::shader::AvatarBlob> three_avatars() {
  return {render::avatar_blob({-3.0f, 0.9f, 0.0f}, 0.8f, 0.0f, 0.6f),
          render::avatar_blob({0.0f, 0.9f, -2.0f}, 0.8f, 0.0f, 0.5f),
          render::avatar_blob({3.0f, 0.9f, 2.0f}, 1.2f, 0.0f, 0.8f)};
}

// The ground point (y = kLift, where the discs are drawn) seen through the centre of pixel (x, y).
glm::vec3 ground_at_pixel(const glm::mat4& inverse, int x, int y) {
  const glm::vec2 ndc((float(x) + 0.5f) / float(kSize) * 2.0f - 1.0f,
                      (float(y) + 0.5f) / float(kSize) * 2.0f - 1.0f);
  glm::vec4 a = inverse * glm::vec4(ndc, 1.0f, 1.0f), b = inverse * glm::vec4(ndc, 0.5f, 1.0f);
  const glm::vec3 near = glm::vec3(a) / a.w, far = glm::vec3(b) / b.w;
  const float t = (kLift - near.y) / (far.y - near.y);
  return near + t * (far - near);
}

// Smallest d = distance / radius over all blobs, and the alpha of the blob that attains it (the test's
// blobs do not overlap, so at most one contributes).
struct Coverage {
  float d = 1e30f;
  float alpha = 0.0f;
};
Coverage coverage(const std::vector<render::shader::AvatarBlob>& blobs, glm::vec3 p) {
  Coverage c;
  for (const auto& b : blobs) {
    const float d = glm::length(glm::vec2(p.x - b.centre.x, p.z - b.centre.z)) / b.radius;
    if (d < c.d) c = {d, render::avatar_blob_alpha(d, b.strength)};
  }
  return c;
}

glm::ivec2 project(const glm::mat4& view_proj, glm::vec3 p) {
  const glm::vec4 clip = view_proj * glm::vec4(p.x, kLift, p.z, 1.0f);
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return glm::ivec2(glm::floor((ndc * 0.5f + 0.5f) * float(kSize)));
}

struct Frame {
  std::vector<std::uint8_t> rgba;
  std::array<int, 3> at(glm::ivec2 p) const {
    const std::size_t i = (std::size_t(p.y) * kSize + std::size_t(p.x)) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2]};
  }
};

// Clears to the background, draws `occluders` (opaque rectangles with depth) and then the blobs.
Frame render_frame(gpu::Context& ctx, const std::vector<render::shader::AvatarBlob>& blobs,
                   const std::vector<render::shader::TestRect>& occluders) {
  render::OffscreenTarget target(ctx, kSize, kSize);
  render::AvatarBlobShadow shadows(ctx, render::OffscreenTarget::kColorFormat,
                                   render::OffscreenTarget::kDepthFormat, 8);
  shadows.set_blobs(blobs);
  gpu::GraphicsPipelineBuilder builder;
  builder.vertex = spirv::rects_vert();
  builder.fragment = spirv::rects_frag();
  builder.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, sizeof(render::shader::TestRectPush)};
  builder.color_formats = {render::OffscreenTarget::kColorFormat};
  builder.depth_format = render::OffscreenTarget::kDepthFormat;
  builder.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  builder.cull_mode = VK_CULL_MODE_NONE;
  const gpu::Pipeline rects = builder.build(ctx);
  gpu::Buffer rect_buf(ctx, sizeof(render::shader::TestRect) * std::max<std::size_t>(occluders.size(), 1),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  if (!occluders.empty()) gpu::upload(ctx, rect_buf, std::span<const render::shader::TestRect>(occluders));

  const glm::vec4 clear{float(kBackground[0]) / 255.0f, float(kBackground[1]) / 255.0f,
                        float(kBackground[2]) / 255.0f, 1.0f};
  ctx.submit_and_wait([&](VkCommandBuffer cmd) {
    target.begin(cmd, clear);
    if (!occluders.empty()) {
      const render::shader::TestRectPush push{glm::vec2(float(kSize))};
      const std::array bindings{gpu::storage_buffer(rect_buf)};
      gpu::bind(ctx, cmd, rects, bindings, &push, sizeof(push));
      vkCmdDraw(cmd, 4, std::uint32_t(occluders.size()), 0, 0);
    }
    shadows.draw(cmd, camera(), kLift);
    target.end(cmd);
  });
  return {target.read_color()};
}

TEST_F(AvatarBlobTest, DiscsMatchTheFalloffAndLeaveTheRestUntouched) {
  const auto blobs = three_avatars();
  const Frame frame = render_frame(ctx(), blobs, {});
  const glm::mat4 view_proj = camera();
  const glm::mat4 inverse = glm::inverse(view_proj);

  // Every pixel: background * (1 - alpha) from the CPU formula; well outside every disc, exact.
  std::size_t untouched = 0, worst = 0;
  for (int y = 0; y < int(kSize); ++y) {
    for (int x = 0; x < int(kSize); ++x) {
      const Coverage c = coverage(blobs, ground_at_pixel(inverse, x, y));
      const auto got = frame.at({x, y});
      for (int ch = 0; ch < 3; ++ch) {
        const float expected = float(kBackground[std::size_t(ch)]) * (1.0f - c.alpha);
        const auto diff = std::size_t(std::abs(float(got[std::size_t(ch)]) - expected) + 0.5f);
        worst = std::max(worst, diff);
        if (c.d > 1.05f) {
          ASSERT_EQ(got[std::size_t(ch)], kBackground[std::size_t(ch)]) << x << "," << y;
        }
      }
      if (c.d > 1.05f) ++untouched;
    }
  }
  EXPECT_LE(worst, std::size_t(kTolerance));
  EXPECT_GT(untouched, kSize * kSize / 2);

  for (const auto& b : blobs) {
    // At the centre: darkened by (almost exactly) the blob's strength.
    const glm::ivec2 centre = project(view_proj, b.centre);
    const Coverage c = coverage(blobs, ground_at_pixel(inverse, centre.x, centre.y));
    ASSERT_LT(c.d, 0.1f);  // the pixel really is at the centre
    const auto got = frame.at(centre);
    for (std::size_t ch = 0; ch < 3; ++ch) {
      const float expected = float(kBackground[ch]) * (1.0f - c.alpha);
      EXPECT_NEAR(float(got[ch]), expected, float(kTolerance)) << "centre channel " << ch;
      EXPECT_LT(got[ch], int(float(kBackground[ch]) * (1.0f - 0.9f * b.strength)));
    }
    // Walking out along +X to past the rim, the darkening never grows and ends at zero. A screen line
    // through the projected centre is a ground line through the centre, so d grows monotonically.
    const glm::ivec2 rim = project(view_proj, b.centre + glm::vec3(b.radius * 1.1f, 0.0f, 0.0f));
    ASSERT_GT(rim.x, centre.x + 5);
    int previous = 255;
    for (int i = 0; i <= 32; ++i) {
      const glm::ivec2 p = centre + (rim - centre) * i / 32;
      const int darkening = kBackground[0] - frame.at(p)[0];
      EXPECT_LE(darkening, previous + 1) << "step " << i;  // +1: unorm rounding
      previous = std::min(previous, darkening);
    }
    EXPECT_EQ(previous, 0);
    const glm::ivec2 half = project(view_proj, b.centre + glm::vec3(b.radius * 0.5f, 0.0f, 0.0f));
    EXPECT_GT(kBackground[0] - frame.at(half)[0], 5);
    EXPECT_LT(kBackground[0] - frame.at(half)[0], kBackground[0] - got[0] - 5);
  }
}

TEST_F(AvatarBlobTest, DepthTestHidesDiscsBehindOccluders) {
  const auto blobs = three_avatars();
  const glm::mat4 view_proj = camera();
  const glm::ivec2 c0 = project(view_proj, blobs[0].centre), c2 = project(view_proj, blobs[2].centre);
  const std::uint32_t green = pack_rgba8_bytes(20, 200, 40, 255);
  // Reverse-Z: depth 1 is the near plane (in front of the ground); 1e-6 lies far beyond the ground.
  const std::vector<render::shader::TestRect> occluders{{glm::vec2(c0 - 3), glm::vec2(c0 + 4), 1.0f, green},
                                                        {glm::vec2(c2 - 3), glm::vec2(c2 + 4), 1e-6f, green}};
  const Frame frame = render_frame(ctx(), blobs, occluders);
  const Frame open = render_frame(ctx(), blobs, {});

  // In front: the disc is hidden, the occluder shows unchanged.
  EXPECT_EQ(frame.at(c0), (std::array<int, 3>{20, 200, 40}));
  EXPECT_LT(open.at(c0)[0], kBackground[0] - 50);  // without the occluder it is dark there
  // Behind: the disc darkens the occluder by its alpha like it darkens the ground.
  const Coverage c = coverage(blobs, ground_at_pixel(glm::inverse(view_proj), c2.x, c2.y));
  const std::array<int, 3> behind = frame.at(c2);
  const std::array<float, 3> occluder{20.0f, 200.0f, 40.0f};
  for (std::size_t ch = 0; ch < 3; ++ch) {
    EXPECT_NEAR(float(behind[ch]), occluder[ch] * (1.0f - c.alpha), float(kTolerance)) << ch;
  }
  // The unoccluded blob is drawn as without occluders.
  const glm::ivec2 c1 = project(view_proj, blobs[1].centre);
  EXPECT_EQ(frame.at(c1), open.at(c1));
}

}  // namespace
}  // namespace myriad::test
