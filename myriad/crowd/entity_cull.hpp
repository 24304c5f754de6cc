// Per-entity frustum culling and LOD choice for VAT crowds: the CPU reference of the GPU culling pass
// (render/crowd_cull). Both evaluate the same float expressions in the same order, so the visible
// lists agree entity for entity.
#pragma once

#include "myriad/core/frustum.hpp"
#include "myriad/core/hiz_occlusion.hpp"
#include "myriad/crowd/crowd_gpu_layout.h"
#include "myriad/crowd/entity_lod.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::crowd {

// CrowdEntity (one crowd member, the bytes the GPU reads) is in crowd_gpu_layout.h.

std::uint32_t pack_yaw_scale(float yaw, float scale);
float entity_yaw(const CrowdEntity& e);
float entity_scale(const CrowdEntity& e);
inline std::uint32_t entity_type(const CrowdEntity& e) { return e.type_clip & 0xffffu; }
inline std::uint32_t entity_clip(const CrowdEntity& e) { return e.type_clip >> 16; }

// What culling needs of an enemy type, derived once from its LOD0 bind-pose bounds.
struct CrowdTypeBounds {
  float bound_radius = 0.0f;  // |local centre| + local radius: a sphere about the origin under any yaw
  float diameter = 0.0f;      // entity_diameter(bounds, 1): D of a unit-scale entity
};
CrowdTypeBounds type_bounds(const Aabb& local_bounds);

struct CrowdCullParams {
  Frustum frustum;
  glm::mat4 view_proj{1.0f};  // what `frustum` was built from; the GPU's pyramid test projects with it
  glm::vec3 camera{0.0f};
  LodCurve curve;
  int forced_level = -1;  // -1: per-entity LOD; 0..2: every entity at that level
  // With a pyramid: entities it hides (hiz_sphere_occluded of the culling sphere) are dropped, as the
  // GPU's late pass drops them.
  const HizReference* occlusion = nullptr;
};

// Visible entity ids per draw slot (type × LOD, slot = type·3 + level), ascending.
struct CrowdCullResult {
  std::vector<std::vector<std::uint32_t>> slots;
  std::uint32_t visible = 0;
  std::uint32_t culled = 0;    // by the frustum
  std::uint32_t occluded = 0;  // passed the frustum, hidden by the pyramid
};

// Throws myriad::Error when an entity names a type outside `types`.
void cull_entities(std::span<const CrowdEntity> entities, std::span<const CrowdTypeBounds> types,
                   const CrowdCullParams& params, CrowdCullResult& out);

}  // namespace myriad::crowd
