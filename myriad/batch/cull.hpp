// Parallel instance culling over the culling layer (SPEC B1, B3): layer mask, LOD group selection
// and frustum test, one flag per renderer. LOD levels are chosen once per group first, so every
// renderer of a group agrees. Output buffers are caller-owned and reused (no allocation per frame).
#pragma once

#include "myriad/batch/scene.hpp"
#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/cull/hiz_occlusion.hpp"

#include <cstdint>
#include <vector>

namespace myriad::batch {

inline constexpr std::uint8_t kLodCulled = 0xFF;

struct CullCamera {
  Frustum frustum;
  glm::vec3 position{0.0f};
  float lod_scale = 1.0f;  // 1 / (2 tan(fov_y / 2)) times any global LOD bias
  std::uint32_t layer_mask = 0xFFFFFFFFu;
  // The CPU reference of the GPU's occlusion pass (render::BatchOcclusion, late phase): a renderer
  // that passes every other test but whose bounds (as their cube) the pyramid hides is not visible.
  const HizReference* occlusion = nullptr;
};

struct CullResult {
  std::vector<std::uint8_t> group_level;  // per LOD group: selected level, or kLodCulled
  // Per LOD group: the cross-fade threshold q (1..255) when it also draws group_level + 1, else 0.
  std::vector<std::uint8_t> group_fade;
  std::vector<std::uint8_t> visible;  // per renderer: 1 when drawn
  std::size_t occluded = 0;           // renderers hidden by CullCamera::occlusion
};

// The LOD rule, shared by the parallel path and tests.
std::uint8_t select_lod(const LodGroup& group, glm::vec3 camera, float lod_scale);

// The same with the group's cross-fade band: the level (the finer one inside a band) and, inside a
// band, q in 1..255 in `fade` (0 elsewhere): q = 255 (t (1 + b/2) - h) / (t b), rounded, at least 1.
std::uint8_t select_lod(const LodGroup& group, glm::vec3 camera, float lod_scale, std::uint8_t& fade);

void cull(const BatchScene& scene, const CullCamera& camera, CullResult& out);

}  // namespace myriad::batch
