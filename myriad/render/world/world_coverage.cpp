#include "myriad/render/world/world_coverage.hpp"

#include "myriad/render/passes/offscreen_target.hpp"

namespace myriad::render {
namespace {

std::vector<float> render_depth(gpu::Context& ctx, WorldScene& scene, const FrameOptions& settings,
                                OffscreenTarget& target, std::uint32_t mask) {
  scene.set_system_mask(mask);
  ctx.submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
  scene.finish_frame();
  return target.read_depth();
}

}  // namespace

WorldCoverage measure_world_coverage(gpu::Context& ctx, WorldScene& scene, const SceneCamera& camera,
                                     const FrameOptions& settings, OffscreenTarget& target) {
  WorldCoverage c;
  // One frame of `camera` (the clock stands still), drawn with every system and with each alone.
  FrameOptions still = settings;
  still.paused = true;
  scene.update(0.0, camera, target.width(), target.height(), still);
  const std::vector<float> full = render_depth(ctx, scene, settings, target, kAllSystems);
  std::vector<std::uint8_t> owner(full.size(), 0xFF);
  for (std::uint32_t s = 0; s < kWorldSystemCount; ++s) {
    const std::vector<float> alone = render_depth(ctx, scene, settings, target, 1u << s);
    for (std::size_t i = 0; i < full.size(); ++i) {
      // Reverse-Z: 0 is the clear value (infinitely far); the first system to match keeps the pixel.
      if (owner[i] == 0xFF && full[i] > 0.0f && alone[i] == full[i]) owner[i] = static_cast<std::uint8_t>(s);
    }
  }
  scene.set_system_mask(kAllSystems);
  c.total = full.size();
  for (std::size_t i = 0; i < full.size(); ++i) {
    if (full[i] == 0.0f) {
      ++c.sky;
    } else if (owner[i] == 0xFF) {
      ++c.unassigned;
    } else {
      ++c.pixels[owner[i]];
    }
  }
  return c;
}

}  // namespace myriad::render
