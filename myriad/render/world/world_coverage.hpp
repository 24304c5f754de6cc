// The default scene's ID/mask pass: which system owns each pixel of a frame. The frame is rendered
// once with every system and once per system alone (same camera, same clocks); a pixel belongs to a
// system when that system alone produces exactly the full frame's depth there (the same pipelines and
// vertices give bit-identical depth). Pixels left at the clear depth are sky.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "myriad/render/world/world_scene.hpp"

namespace myriad::render {

struct WorldCoverage {
  std::array<std::uint64_t, kWorldSystemCount> pixels{};  // per WorldSystem bit index
  std::uint64_t sky = 0;                                  // nothing drawn
  std::uint64_t unassigned = 0;  // drawn, but no system alone reproduces the depth (a bug when not 0)
  std::uint64_t total = 0;
};

// Renders the frame (mask: all systems) and each system alone into `target`; restores the mask. The
// scene's update() is not called, so every render sees the same state.
WorldCoverage measure_world_coverage(gpu::Context& ctx, WorldScene& scene, const SceneCamera& camera,
                                     const FrameOptions& settings, OffscreenTarget& target);

}  // namespace myriad::render
