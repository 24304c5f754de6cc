#include "myriad/batch/cull.hpp"

#include "myriad/core/thread/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace myriad::batch {

std::uint8_t select_lod(const LodGroup& g, glm::vec3 camera, float lod_scale) {
  const float distance = glm::length(g.center - camera);
  if (distance <= 0.0f) return 0;
  const float height = g.size * lod_scale / distance;
  for (std::uint32_t i = 0; i < g.level_count; ++i) {
    if (height >= g.transitions[i]) return static_cast<std::uint8_t>(i);
  }
  return kLodCulled;
}

std::uint8_t select_lod(const LodGroup& g, glm::vec3 camera, float lod_scale, std::uint8_t& fade) {
  fade = 0;
  const std::uint8_t level = select_lod(g, camera, lod_scale);
  if (!(g.fade_band > 0.0f)) return level;
  const float distance = glm::length(g.center - camera);
  if (distance <= 0.0f) return level;
  const float height = g.size * lod_scale / distance;
  // Transition k separates level k from k + 1; the last level has none (it is never left by LOD).
  for (std::uint32_t k = 0; k + 1 < g.level_count; ++k) {
    const float t = g.transitions[k], lo = t * (1.0f - 0.5f * g.fade_band),
                hi = t * (1.0f + 0.5f * g.fade_band);
    if (height >= lo && height < hi) {
      const float q = std::round(255.0f * (hi - height) / (hi - lo));
      fade = static_cast<std::uint8_t>(std::clamp(q, 1.0f, 255.0f));
      return static_cast<std::uint8_t>(k);
    }
  }
  return level;
}

void cull(const BatchScene& scene, const CullCamera& camera, CullResult& out) {
  const auto& groups = scene.lod_groups();
  const CullingLayer& c = scene.culling();
  out.group_level.resize(groups.size());
  out.group_fade.resize(groups.size());
  out.visible.resize(c.size());
  parallel_for(0, groups.size(), 256, [&](std::size_t b, std::size_t e) {
    for (std::size_t g = b; g < e; ++g)
      out.group_level[g] = select_lod(groups[g], camera.position, camera.lod_scale, out.group_fade[g]);
  });
  std::atomic<std::size_t> occluded{0};
  parallel_for(0, c.size(), 1024, [&](std::size_t b, std::size_t e) {
    std::size_t hidden = 0;
    for (std::size_t i = b; i < e; ++i) {
      bool v = (c.layer_mask[i] & camera.layer_mask) != 0;
      const std::uint32_t g = c.lod_group[i];
      if (v && g != kNoLodGroup) {
        const std::uint8_t level = out.group_level[g];
        v = level == c.lod_level[i] || (out.group_fade[g] != 0 && level + 1 == c.lod_level[i]);
      }
      if (v) v = camera.frustum.intersects(c.bounds[i]);
      if (v && camera.occlusion) {
        const Sphere& s = c.bounds[i];
        const bool hide = hiz_sphere_occluded(*camera.occlusion, glm::vec4(s.center, s.radius));
        hidden += hide ? 1 : 0;
        v = !hide;
      }
      out.visible[i] = v ? 1 : 0;
    }
    occluded += hidden;
  });
  out.occluded = occluded;
}

}  // namespace myriad::batch
