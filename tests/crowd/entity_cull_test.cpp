#include "myriad/crowd/entity_cull.hpp"

#include "myriad/core/error.hpp"

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

TEST(EntityCull, UnknownTypeIsAClearError) {
  const std::vector<CrowdTypeBounds> types{type_bounds({{-1, 0, -1}, {1, 2, 1}})};
  const std::vector<CrowdEntity> entities{entity_at({0, 0, 10}, 4, 1.0f)};
  CrowdCullResult result;
  EXPECT_THROW(cull_entities(entities, types, looking_down_z(), result), Error);
}

}  // namespace
}  // namespace myriad::crowd
