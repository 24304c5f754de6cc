#include "myriad/crowd/entity_cull.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/packing.hpp"

#include <string>

namespace myriad::crowd {

std::uint32_t pack_yaw_scale(float yaw, float scale) {
  return std::uint32_t(pack_half(yaw)) | (std::uint32_t(pack_half(scale)) << 16);
}
float entity_yaw(const CrowdEntity& e) { return unpack_half(std::uint16_t(e.yaw_scale & 0xffffu)); }
float entity_scale(const CrowdEntity& e) { return unpack_half(std::uint16_t(e.yaw_scale >> 16)); }

CrowdTypeBounds type_bounds(const Aabb& local_bounds) {
  const glm::vec3 c = local_bounds.center();
  const float local_radius = glm::length(local_bounds.half_extent());
  return {glm::length(c) + local_radius, entity_diameter(local_bounds, 1.0f)};
}

void cull_entities(std::span<const CrowdEntity> entities, std::span<const CrowdTypeBounds> types,
                   const CrowdCullParams& params, std::span<std::uint32_t> lod_state, CrowdCullResult& out) {
  if (!lod_state.empty() && lod_state.size() != entities.size()) {
    throw Error("crowd culling: " + std::to_string(lod_state.size()) + " LOD state words for " +
                std::to_string(entities.size()) + " entities");
  }
  if (entities.size() > std::size_t(CROWD_ENTRY_ID_MASK) + 1) {
    throw Error("crowd culling: more than " + std::to_string(CROWD_ENTRY_ID_MASK + 1) + " entities");
  }
  out.slots.resize(types.size() * kCrowdLodCount);
  for (auto& slot : out.slots) slot.clear();
  out.visible = 0;
  out.fading = 0;
  out.culled = 0;
  out.occluded = 0;
  for (std::uint32_t i = 0; i < entities.size(); ++i) {
    const CrowdEntity& e = entities[i];
    const std::uint32_t type = entity_type(e);
    if (type >= types.size()) {
      throw Error("crowd entity " + std::to_string(i) + " has type " + std::to_string(type) + " but only " +
                  std::to_string(types.size()) + " types exist");
    }
    const float scale = entity_scale(e);
    // Same operations, same order as crowd_cull.comp. The LOD state first: every entity keeps one.
    const glm::vec3 d = e.position - params.camera;
    const float distance_sq = d.x * d.x + d.y * d.y + d.z * d.z;
    const float diameter = types[type].diameter * scale;
    const std::uint32_t previous = lod_state.empty() ? CROWD_LOD_NONE : lod_state[i];
    const std::uint32_t state = decide_lod(params.curve, distance_sq, diameter, previous);
    if (!lod_state.empty()) lod_state[i] = state;
    const Sphere sphere{e.position, types[type].bound_radius * scale};
    if (!params.frustum.intersects(sphere)) {
      ++out.culled;
      continue;
    }
    if (params.occlusion && hiz_sphere_occluded(*params.occlusion, glm::vec4(sphere.center, sphere.radius))) {
      ++out.occluded;
      continue;
    }
    ++out.visible;
    std::vector<std::uint32_t>* const slots = &out.slots[type * kCrowdLodCount];
    if (params.forced_level >= 0) {
      slots[select_level(params.curve, distance_sq, diameter, params.forced_level)].push_back(i);
      continue;
    }
    const std::uint32_t level = lod_state_level(state);
    if (!lod_state_fading(state)) {
      slots[level].push_back(i);
      continue;
    }
    const std::uint32_t band = lod_state_band(state);
    const std::uint32_t entry = i | (lod_state_q(state) << CROWD_ENTRY_Q_SHIFT);
    slots[band].push_back(entry | (level != band ? CROWD_ENTRY_SECONDARY : 0u));
    slots[band + 1].push_back(entry | CROWD_ENTRY_INCOMING |
                              (level != band + 1 ? CROWD_ENTRY_SECONDARY : 0u));
    ++out.fading;
  }
}

void cull_entities(std::span<const CrowdEntity> entities, std::span<const CrowdTypeBounds> types,
                   const CrowdCullParams& params, CrowdCullResult& out) {
  cull_entities(entities, types, params, {}, out);
}

}  // namespace myriad::crowd
