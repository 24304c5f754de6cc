#include "myriad/render/smoke/smoke_scene.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <span>
#include <string>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/shaders/smoke_layout.h"
#include "myriad/render/passes/sphere_cull.hpp"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {

// Small integer hash (deterministic placement and colours without a random engine).
std::uint32_t hash(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
float unit(std::uint32_t h) { return float(h & 0xffffffu) / float(0x1000000); }

std::vector<shader::SmokeInstance> make_field(std::uint32_t grid, std::uint32_t seed) {
  std::vector<shader::SmokeInstance> out;
  out.reserve(std::size_t(grid) * grid);
  const float spacing = 2.0f;
  const float origin = -0.5f * spacing * float(grid);
  for (std::uint32_t z = 0; z < grid; ++z) {
    for (std::uint32_t x = 0; x < grid; ++x) {
      const std::uint32_t h = hash(seed * 0x9e3779b9u ^ (z * grid + x));
      const float fx = origin + spacing * float(x), fz = origin + spacing * float(z);
      // Rolling hills of boxes: height from two sine waves, size from the hash.
      const float hill = 3.0f * std::sin(fx * 0.05f) * std::cos(fz * 0.04f);
      const float half = 0.35f + 0.45f * unit(h);
      const glm::vec3 tint =
          glm::mix(glm::vec3(0.2f, 0.5f, 0.25f), glm::vec3(0.9f, 0.7f, 0.3f), unit(hash(h)));
      out.push_back({glm::vec4(fx, hill + half, fz, half), pack_rgba8(glm::vec4(tint, 1.0f))});
    }
  }
  return out;
}

constexpr std::uint32_t kCubeIndexCount = 36;

// The boxes as a frame system: GPU sphere culling into indirect commands, one indexed indirect-count
// draw. No occlusion: the frame's depth pyramid is built after it (what the smoke scene checks).
class SmokeBoxes final : public FrameSystem {
 public:
  SmokeBoxes(gpu::Context& ctx, std::span<const shader::SmokeInstance> field,
             std::span<const glm::vec4> spheres)
      : ctx_(ctx),
        count_(std::uint32_t(field.size())),
        instances_(ctx, field.size_bytes(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                   gpu::MemoryKind::kDeviceLocal),
        spheres_(ctx, spheres.size_bytes(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                 gpu::MemoryKind::kDeviceLocal),
        indices_(ctx, kCubeIndexCount * sizeof(std::uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                 gpu::MemoryKind::kDeviceLocal),
        commands_(ctx, field.size() * sizeof(shader::DrawIndexedCommand),
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                  gpu::MemoryKind::kDeviceLocal),
        count_buffer_(ctx, sizeof(std::uint32_t),
                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                      gpu::MemoryKind::kDeviceLocal),
        cull_(ctx) {
    std::array<std::uint32_t, kCubeIndexCount> indices{};
    for (std::uint32_t f = 0; f < 6; ++f) {
      const std::uint32_t quad[6] = {0, 1, 2, 2, 1, 3};
      for (std::uint32_t i = 0; i < 6; ++i) indices[f * 6 + i] = f * 4 + quad[i];
    }
    gpu::upload(ctx, instances_, field);
    gpu::upload(ctx, spheres_, spheres);
    gpu::upload(ctx, indices_, std::span<const std::uint32_t>(indices));
    gpu::GraphicsPipelineBuilder builder;
    builder.vertex = spirv::smoke_vert();
    builder.fragment = spirv::smoke_frag();
    builder.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, sizeof(shader::SmokePush)};
    builder.color_formats = {OffscreenTarget::kColorFormat};
    builder.depth_format = OffscreenTarget::kDepthFormat;
    pipeline_ = builder.build(ctx);
  }

  void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const DepthPyramid*) override {
    if (!first_phase(phase)) return;
    cull_.record(cmd, view.frustum, spheres_, count_, commands_, count_buffer_, kCubeIndexCount);
    ++pipeline_binds_;
  }
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase phase, const ShadowMap*) override {
    if (!first_phase(phase)) return;
    const shader::SmokePush push{view.view_proj, glm::vec4(view.to_light, 0.0f)};
    const std::array bindings{gpu::storage_buffer(instances_)};
    gpu::bind(ctx_, cmd, pipeline_, bindings, &push, sizeof(push));
    ++pipeline_binds_;
    vkCmdBindIndexBuffer(cmd, indices_.handle(), 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexedIndirectCount(cmd, commands_.handle(), 0, count_buffer_.handle(), 0, count_,
                                  sizeof(shader::DrawIndexedCommand));
  }

  std::uint32_t visible() const { return gpu::read_buffer_as<std::uint32_t>(ctx_, count_buffer_, 1)[0]; }
  std::uint32_t pipeline_binds() const { return pipeline_binds_; }

 private:
  gpu::Context& ctx_;
  std::uint32_t count_;
  gpu::Buffer instances_, spheres_, indices_, commands_, count_buffer_;
  SphereCull cull_;
  gpu::Pipeline pipeline_;
  std::uint32_t pipeline_binds_ = 0;
};

}  // namespace

void SmokeSceneOptions::validate() const {
  validate_size("SmokeSceneOptions");
  if (grid == 0 || grid > kMaxSmokeGrid)
    throw Error("smoke scene: grid " + std::to_string(grid) + " is invalid", "SmokeSceneOptions::grid",
                "use 1.." + std::to_string(kMaxSmokeGrid) + " boxes a side");
}

SmokeSceneResult render_smoke_scene(gpu::Context& ctx, const SmokeSceneOptions& options) {
  options.validate();
  SmokeSceneResult result;
  result.width = options.width;
  result.height = options.height;

  const std::vector<shader::SmokeInstance> field = make_field(options.grid, options.seed);
  std::vector<glm::vec4> spheres;
  spheres.reserve(field.size());
  for (const auto& inst : field)
    spheres.emplace_back(glm::vec3(inst.center_half), inst.center_half.w * std::sqrt(3.0f));
  result.instances = std::uint32_t(field.size());

  SmokeBoxes boxes(ctx, field, spheres);
  OffscreenTarget target(ctx, options.width, options.height);
  DepthPyramid pyramid(ctx, options.width, options.height);

  const float extent = float(options.grid);
  SceneCamera camera =
      SceneCamera::look_at(glm::vec3(-0.55f * extent, 0.22f * extent, -0.55f * extent),
                           glm::vec3(0.1f * extent, 0.0f, 0.1f * extent), glm::radians(50.0f));
  camera.near_plane = 0.5f;
  const FrameView frame_view =
      FrameView::of_camera(camera, options.width, options.height, glm::vec3(0.4f, 0.8f, 0.3f));
  for (const glm::vec4& s : spheres) {
    if (frame_view.frustum.intersects(Sphere{glm::vec3(s), s.w})) ++result.visible_cpu;
  }

  // The same scene frame as the default scene's, over the boxes; then the depth pyramid of its depth.
  SceneFrame scene_frame(ctx);
  FrameSystem* const systems[] = {&boxes};
  gpu::GpuTimer timer(ctx);
  result.timing = timer.source();
  Stopwatch record_clock;
  double record_ms = 0.0;
  Stopwatch frame_clock;
  ctx.submit_and_wait([&](VkCommandBuffer cmd) {
    record_clock.restart();
    timer.begin_frame(cmd);
    scene_frame.record(cmd, frame_view, systems, target, glm::vec4(0.55f, 0.7f, 0.9f, 1.0f), nullptr, 0.0f,
                       &timer);  // marks "cull" and "draw"
    pyramid.record(cmd, target.depth().view(), VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL);
    timer.mark(cmd, "depth_pyramid");
    record_ms = record_clock.elapsed_ms();
  });
  result.frame_ms = frame_clock.elapsed_ms();
  result.record_ms = record_ms;
  result.gpu_intervals = timer.resolve();
  result.pyramid_levels = pyramid.levels();
  result.pipeline_binds = boxes.pipeline_binds() + 1;  // the boxes' cull and draw, the pyramid
  result.visible = boxes.visible();
  result.triangles = std::uint64_t(result.visible) * (kCubeIndexCount / 3);

  result.rgba = target.read_color();
  return result;
}

}  // namespace myriad::render
