#include "myriad/crowd/entity_cull.hpp"

#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

namespace myriad::crowd {
namespace {

CrowdEntity entity_at(glm::vec3 p, std::uint32_t type, float scale) {
  CrowdEntity e;
  e.position = p;
  e.yaw_scale = pack_yaw_scale(0.5f, scale);
  e.type_clip = type | (3u << 16);
  return e;
}

CrowdCullParams looking_down_z() {
  CrowdCullParams params;
  params.camera = {0.0f, 1.0f, 0.0f};
  const glm::mat4 view = glm::lookAt(params.camera, glm::vec3(0.0f, 1.0f, 10.0f), kWorldUp);
  params.frustum = Frustum::from_view_proj(perspective(glm::radians(60.0f), 1.0f, 0.1f, 1000.0f) * view);
  LodCurveParams lod;
  lod.reference_diameter = 2.0f;
  params.curve = LodCurve::solve(lod);
  return params;
}

TEST(EntityCull, PacksStateInto32Bytes) {
  const CrowdEntity e = entity_at({1, 2, 3}, 5, 2.5f);
  EXPECT_EQ(entity_type(e), 5u);
  EXPECT_EQ(entity_clip(e), 3u);
  EXPECT_FLOAT_EQ(entity_scale(e), 2.5f);
  EXPECT_NEAR(entity_yaw(e), 0.5f, 1e-3f);
}

TEST(EntityCull, SortsVisibleEntitiesIntoTypeAndLevelSlots) {
  // Type 0 has D = 2 at scale 1 (a 2/1.22 m tall box), so it switches at 93.3 m and 167.9 m.
  const float height = 2.0f / kRotationBoundsFactor;
  const std::vector<CrowdTypeBounds> types{type_bounds({{-0.1f, 0.0f, -0.1f}, {0.1f, height, 0.1f}}),
                                           type_bounds({{-0.1f, 0.0f, -0.1f}, {0.1f, height, 0.1f}})};
  const std::vector<CrowdEntity> entities{
      entity_at({0, 0, 50}, 0, 1.0f),   // LOD0
      entity_at({0, 0, 120}, 0, 1.0f),  // LOD1
      entity_at({0, 0, 200}, 1, 1.0f),  // LOD2
      entity_at({0, 0, 200}, 1, 3.0f),  // 3x prefab: still LOD0 at 200 m (LOD1 from 279.9 m)
      entity_at({0, 0, -50}, 0, 1.0f),  // behind the camera
      entity_at({500, 0, 50}, 1, 1.0f)  // far outside the side planes
  };
  CrowdCullResult result;
  cull_entities(entities, types, looking_down_z(), result);
  ASSERT_EQ(result.slots.size(), 6u);
  EXPECT_EQ(result.slots[0], (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(result.slots[1], (std::vector<std::uint32_t>{1}));
  EXPECT_TRUE(result.slots[2].empty());
  EXPECT_EQ(result.slots[3], (std::vector<std::uint32_t>{3}));
  EXPECT_TRUE(result.slots[4].empty());
  EXPECT_EQ(result.slots[5], (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(result.visible, 4u);
  EXPECT_EQ(result.culled, 2u);

  CrowdCullParams forced = looking_down_z();
  forced.forced_level = 0;
  cull_entities(entities, types, forced, result);
  EXPECT_EQ(result.slots[0], (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(result.slots[3], (std::vector<std::uint32_t>{2, 3}));
}

TEST(EntityCull, EntitiesInACrossFadeBandAreListedInBothLodsWithComplementaryEntries) {
  const float height = 2.0f / kRotationBoundsFactor;  // D = 2: switches at 93.3 and 167.9 m
  const std::vector<CrowdTypeBounds> types{type_bounds({{-0.1f, 0.0f, -0.1f}, {0.1f, height, 0.1f}})};
  const std::vector<CrowdEntity> entities{
      entity_at({0, 0, 50}, 0, 1.0f),    // LOD0
      entity_at({0, 0, 91}, 0, 1.0f),    // band 0, before the switch
      entity_at({0, 0, 96}, 0, 1.0f),    // band 0, after the switch
      entity_at({0, 0, 170}, 0, 1.0f),   // band 1, after the switch
      entity_at({0, 0, -95}, 0, 1.0f)};  // band 0 but behind the camera: state kept, not listed
  // The camera is 1 m up: distances are sqrt(z² + 1).
  std::vector<std::uint32_t> state(entities.size(), CROWD_LOD_NONE);
  CrowdCullResult result;
  cull_entities(entities, types, looking_down_z(), state, result);
  EXPECT_EQ(result.visible, 4u);
  EXPECT_EQ(result.fading, 3u);
  EXPECT_EQ(result.culled, 1u);
  EXPECT_EQ(lod_state_level(state[0]), 0u);
  EXPECT_FALSE(lod_state_fading(state[0]));
  EXPECT_EQ(lod_state_level(state[1]), 0u);
  EXPECT_EQ(lod_state_level(state[2]), 1u);
  EXPECT_EQ(lod_state_level(state[3]), 2u);
  EXPECT_EQ(lod_state_band(state[3]), 1u);
  EXPECT_TRUE(lod_state_fading(state[4]));
  const auto entry = [&](std::uint32_t i, std::uint32_t flags) {
    return i | (lod_state_q(state[i]) << CROWD_ENTRY_Q_SHIFT) | flags;
  };
  EXPECT_GT(lod_state_q(state[1]), 0u);
  EXPECT_LT(lod_state_q(state[1]), 128u);
  EXPECT_GE(lod_state_q(state[2]), 128u);
  // Slot 0 (LOD0): the plain entity, then the two band-0 entities as outgoing entries; the one whose
  // level is LOD1 is secondary there (casts no shadow) and primary in slot 1, where both come in.
  EXPECT_EQ(result.slots[0], (std::vector<std::uint32_t>{0, entry(1, 0), entry(2, CROWD_ENTRY_SECONDARY)}));
  EXPECT_EQ(result.slots[1],
            (std::vector<std::uint32_t>{entry(1, CROWD_ENTRY_INCOMING | CROWD_ENTRY_SECONDARY),
                                        entry(2, CROWD_ENTRY_INCOMING), entry(3, CROWD_ENTRY_SECONDARY)}));
  EXPECT_EQ(result.slots[2], (std::vector<std::uint32_t>{entry(3, CROWD_ENTRY_INCOMING)}));

  // Hysteresis through the kept state: the entity at 91 m walks to 97 m (still in band 0) and keeps
  // LOD0; at 99 m (past the band) it is LOD1; back at 91 m it keeps LOD1.
  std::vector<CrowdEntity> moved = entities;
  for (float z : {97.0f, 99.0f, 91.0f}) {
    moved[1].position.z = z;
    cull_entities(moved, types, looking_down_z(), state, result);
    EXPECT_EQ(lod_state_level(state[1]), z == 97.0f ? 0u : 1u) << z;
  }
  // Again with the same view: nothing changes.
  const std::vector<std::uint32_t> kept = state;
  cull_entities(moved, types, looking_down_z(), state, result);
  EXPECT_EQ(state, kept);

  // A forced level lists every entity once, without fade, and leaves the distance state as it is.
  CrowdCullParams forced = looking_down_z();
  forced.forced_level = 1;
  cull_entities(moved, types, forced, state, result);
  EXPECT_EQ(state, kept);
  EXPECT_EQ(result.fading, 0u);
  EXPECT_EQ(result.slots[1], (std::vector<std::uint32_t>{0, 1, 2, 3}));

  std::vector<std::uint32_t> wrong_size(2, CROWD_LOD_NONE);
  EXPECT_THROW(cull_entities(entities, types, looking_down_z(), wrong_size, result), Error);
}

TEST(EntityCull, UnknownTypeIsAClearError) {
  const std::vector<CrowdTypeBounds> types{type_bounds({{-1, 0, -1}, {1, 2, 1}})};
  const std::vector<CrowdEntity> entities{entity_at({0, 0, 10}, 4, 1.0f)};
  CrowdCullResult result;
  EXPECT_THROW(cull_entities(entities, types, looking_down_z(), result), Error);
}

}  // namespace
}  // namespace myriad::crowd
