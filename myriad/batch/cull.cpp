#include "myriad/batch/cull.hpp"

#include "myriad/core/parallel.hpp"

#include <atomic>

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

void cull(const BatchScene& scene, const CullCamera& camera, CullResult& out) {
  const auto& groups = scene.lod_groups();
  const CullingLayer& c = scene.culling();
  out.group_level.resize(groups.size());
  out.visible.resize(c.size());
  parallel_for(0, groups.size(), 256, [&](std::size_t b, std::size_t e) {
    for (std::size_t g = b; g < e; ++g)
      out.group_level[g] = select_lod(groups[g], camera.position, camera.lod_scale);
  });
  std::atomic<std::size_t> occluded{0};
  parallel_for(0, c.size(), 1024, [&](std::size_t b, std::size_t e) {
    std::size_t hidden = 0;
    for (std::size_t i = b; i < e; ++i) {
      bool v = (c.layer_mask[i] & camera.layer_mask) != 0;
      const std::uint32_t g = c.lod_group[i];
      if (v && g != kNoLodGroup) v = out.group_level[g] == c.lod_level[i];
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
