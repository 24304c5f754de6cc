// Per-entity frustum culling and LOD choice for VAT crowds: the CPU reference of the GPU culling pass
// (render/crowd_cull). Both evaluate the same float expressions in the same order, so the visible
// lists agree entity for entity.
#pragma once

#include "myriad/core/frustum.hpp"
#include "myriad/crowd/entity_lod.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::crowd {

// One crowd member, 32 bytes, the same bytes the GPU reads (render/shaders/crowd_layout.h).
struct CrowdEntity {
  glm::vec3 position{0.0f};          // world position of the entity's origin (feet)
  std::uint32_t yaw_scale = 0;       // two half floats: yaw (radians) low, uniform prefab scale high
  std::uint32_t type_clip = 0;       // enemy type low 16 bits, clip index high 16 bits
  float time_offset = 0.0f;          // seconds added to the global clock
  float speed = 1.0f;                // playback rate
  std::uint32_t tint = 0xffffffffu;  // RGBA8
};
static_assert(sizeof(CrowdEntity) == 32);

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
  glm::vec3 camera{0.0f};
  LodCurve curve;
  int forced_level = -1;  // -1: per-entity LOD; 0..2: every entity at that level
};

// Visible entity ids per draw slot (type × LOD, slot = type·3 + level), ascending.
struct CrowdCullResult {
  std::vector<std::vector<std::uint32_t>> slots;
  std::uint32_t visible = 0;
  std::uint32_t culled = 0;
};

// Throws myriad::Error when an entity names a type outside `types`.
void cull_entities(std::span<const CrowdEntity> entities, std::span<const CrowdTypeBounds> types,
                   const CrowdCullParams& params, CrowdCullResult& out);

}  // namespace myriad::crowd
