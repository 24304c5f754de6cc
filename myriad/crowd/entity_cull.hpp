// Per-entity frustum culling and LOD choice for VAT crowds: the CPU reference of the GPU culling pass
// (render/crowd_cull). Both evaluate the same float expressions in the same order, so the visible
// lists agree entity for entity.
#pragma once

#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/cull/hiz_occlusion.hpp"
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

// The draw list entries (CROWD_ENTRY_*: id, fade q, flags) per draw slot (type × LOD, slot = type·3 +
// level), in entity order. A visible entity inside a cross-fade band k is listed in slots of level k
// and k+1 (per-entity LOD only; a forced level lists every entity once, without fade).
struct CrowdCullResult {
  std::vector<std::vector<std::uint32_t>> slots;
  std::uint32_t visible = 0;   // entities (one in a band counts once)
  std::uint32_t fading = 0;    // visible entities inside a cross-fade band (listed twice)
  std::uint32_t culled = 0;    // by the frustum
  std::uint32_t occluded = 0;  // passed the frustum, hidden by the pyramid
};

// `lod_state`: one LOD state word per entity (decide_lod; fill with CROWD_LOD_NONE before the first
// frame), read as the previous frame's and replaced by this frame's for every entity, visible or not
// (forced levels do not change what is stored). Calling again with the same view leaves it unchanged.
// Throws myriad::Error when an entity names a type outside `types`, when `lod_state` is neither empty nor
// one word per entity, or for more entities than a list entry can name.
void cull_entities(std::span<const CrowdEntity> entities, std::span<const CrowdTypeBounds> types,
                   const CrowdCullParams& params, std::span<std::uint32_t> lod_state, CrowdCullResult& out);
// Without kept state: every entity decides as on its first frame.
void cull_entities(std::span<const CrowdEntity> entities, std::span<const CrowdTypeBounds> types,
                   const CrowdCullParams& params, CrowdCullResult& out);

}  // namespace myriad::crowd
