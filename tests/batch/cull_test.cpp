// Culling equals a brute-force reference written here (own LOD formula, plane loop); layer mask and
// LOD group rules on hand-placed cases; identical on 1 thread and many.
#include "myriad/batch/cull.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "test_scene.hpp"

#include <gtest/gtest.h>

namespace myriad::batch {
namespace {

CullCamera camera_at(glm::vec3 eye, glm::vec3 target, std::uint32_t mask) {
  const float fov = glm::radians(60.0f);
  const glm::mat4 view = glm::lookAt(eye, target, glm::vec3(0, 1, 0));
  const glm::mat4 proj = perspective(fov, 16.0f / 9.0f, 0.1f, 200.0f);
  CullCamera c;
  c.frustum = Frustum::from_view_proj(proj * view);
  c.position = eye;
  c.lod_scale = 1.0f / (2.0f * std::tan(fov / 2.0f));
  c.layer_mask = mask;
  return c;
}

std::vector<std::uint8_t> brute_force(const BatchScene& s, const CullCamera& cam) {
  std::vector<std::uint8_t> out(s.culling().size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    if ((s.culling().layer_mask[i] & cam.layer_mask) == 0) continue;
    const std::uint32_t g = s.culling().lod_group[i];
    if (g != kNoLodGroup) {
      const LodGroup& lg = s.lod_groups()[g];
      const float h = lg.size * cam.lod_scale / glm::distance(lg.center, cam.position);
      int level = -1;
      for (int l = static_cast<int>(lg.level_count) - 1; l >= 0; --l) {
        if (h >= lg.transitions[l]) level = l;  // the lowest level whose threshold is met
      }
      if (level != s.culling().lod_level[i]) continue;
    }
    bool inside = true;
    for (const Plane& p : cam.frustum.planes)
      inside = inside && p.distance(s.culling().bounds[i].center) >= -s.culling().bounds[i].radius;
    out[i] = inside ? 1 : 0;
  }
  return out;
}

TEST(Cull, EqualsBruteForceForManyCameras) {
  test::RandomScene rs(20000);
  CullResult r;
  std::size_t visible_total = 0;
  for (int k = 0; k < 6; ++k) {
    const float a = static_cast<float>(k);
    const CullCamera cam =
        camera_at({40.0f * std::cos(a), 5.0f + a, 40.0f * std::sin(a)}, {0, 0, 0}, k % 2 ? 0x3u : 0x5u);
    cull(*rs.scene, cam, r);
    const auto ref = brute_force(*rs.scene, cam);
    ASSERT_EQ(r.visible, ref) << "camera " << k;
    for (std::uint8_t v : ref) visible_total += v;
    CullResult one;
    {
      ThreadLimit limit(1);
      cull(*rs.scene, cam, one);
    }
    EXPECT_EQ(one.visible, r.visible);
  }
  EXPECT_GT(visible_total, 1000u);  // the comparison is not vacuous
}

TEST(Cull, LayerMaskAndLodGroupRules) {
  PropertySetRegistry sets;
  BatchScene s(sets);
  LodGroup g;
  g.center = {0, 0, -10};
  g.size = 2.0f;
  g.level_count = 2;
  g.transitions[0] = 0.5f;
  g.transitions[1] = 0.1f;
  const std::uint32_t group = s.add_lod_group(g);
  const DrawDesc draw[1] = {{0, 0, 0, {}}};
  auto add = [&](std::uint32_t mask, std::uint32_t lod_group, std::uint8_t level) {
    RendererDesc r;
    r.bounds = {{0, 0, -10}, 1.0f};
    r.layer_mask = mask;
    r.lod_group = lod_group;
    r.lod_level = level;
    r.draws = draw;
    return s.add_renderer(r);
  };
  const auto plain = add(1, kNoLodGroup, 0);
  const auto other_layer = add(2, kNoLodGroup, 0);
  const auto lod0 = add(1, group, 0);
  const auto lod1 = add(1, group, 1);
  CullResult r;
  const float scale = 1.0f / (2.0f * std::tan(glm::radians(30.0f)));  // 0.866
  // From z = 0: distance 10, height 2 * 0.866 / 10 = 0.17 -> level 1.
  cull(s, camera_at({0, 0, 0}, {0, 0, -1}, 1), r);
  EXPECT_EQ(r.visible[plain], 1);
  EXPECT_EQ(r.visible[other_layer], 0);
  EXPECT_EQ(r.visible[lod0], 0);
  EXPECT_EQ(r.visible[lod1], 1);
  // From z = -7: distance 3, height 0.58 -> level 0.
  cull(s, camera_at({0, 0, -7}, {0, 0, -10}, 3), r);
  EXPECT_EQ(r.visible[other_layer], 1);
  EXPECT_EQ(r.visible[lod0], 1);
  EXPECT_EQ(r.visible[lod1], 0);
  // From z = 40: distance 50, height 0.035 -> beyond the last level: the group is culled.
  cull(s, camera_at({0, 0, 40}, {0, 0, -10}, 1), r);
  EXPECT_EQ(r.group_level[group], kLodCulled);
  EXPECT_EQ(r.visible[lod0] + r.visible[lod1], 0);
  EXPECT_EQ(r.visible[plain], 1);
  EXPECT_NEAR(scale, 0.866f, 1e-3f);
  // Behind the camera: frustum-culled whatever the mask.
  cull(s, camera_at({0, 0, 0}, {0, 0, 1}, 0xFFFFFFFFu), r);
  EXPECT_EQ(r.visible[plain], 0);
}

// The occlusion reference: a wall over the left half of the screen at 20 m hides the renderers
// wholly behind it there, not those in front of it, beside it or straddling its edge; it is counted.
// Cross-fade bands: inside the band around a transition the group keeps the finer level, reports q
// growing from 1 at the band's near edge to 255 at its far edge, and both levels' renderers are
// visible; outside the bands one level is, as without bands.
TEST(Cull, CrossFadeBandsDrawBothLevelsWithAGrowingThreshold) {
  LodGroup g;
  g.size = 1.0f;
  g.level_count = 2;
  g.transitions[0] = 0.1f;
  g.fade_band = 0.2f;  // heights [0.09, 0.11)
  std::uint8_t q = 0;
  const auto at_height = [&](float h) {
    // size * lod_scale / distance = h with lod_scale 1
    return select_lod(g, glm::vec3(0.0f, 0.0f, 1.0f / h), 1.0f, q);
  };
  EXPECT_EQ(at_height(0.2f), 0);
  EXPECT_EQ(q, 0);
  EXPECT_EQ(at_height(0.05f), 1);
  EXPECT_EQ(q, 0);
  EXPECT_EQ(at_height(0.1099f), 0);
  EXPECT_GE(q, 1);
  EXPECT_LE(q, 3);
  EXPECT_EQ(at_height(0.1f), 0);
  EXPECT_NEAR(q, 128, 1);
  EXPECT_EQ(at_height(0.0901f), 0);
  EXPECT_GE(q, 252);
  PropertySetRegistry sets;
  BatchScene s(sets);
  g.center = {0, 0, -10};
  g.size = 0.1f * 10.0f / (1.0f / (2.0f * std::tan(glm::radians(30.0f))));  // height 0.1 from the origin
  const std::uint32_t group = s.add_lod_group(g);
  const DrawDesc draw[1] = {{0, 0, 0, {}}};
  std::uint32_t level[2];
  for (std::uint8_t l = 0; l < 2; ++l) {
    RendererDesc r;
    r.bounds = {{0, 0, -10}, 1.0f};
    r.lod_group = group;
    r.lod_level = l;
    r.draws = draw;
    level[l] = s.add_renderer(r);
  }
  CullResult r;
  cull(s, camera_at({0, 0, 0}, {0, 0, -1}, 1), r);
  EXPECT_EQ(r.group_level[group], 0);
  EXPECT_NEAR(r.group_fade[group], 128, 2);
  EXPECT_EQ(r.visible[level[0]], 1);
  EXPECT_EQ(r.visible[level[1]], 1);
  cull(s, camera_at({0, 0, 5}, {0, 0, -1}, 1), r);  // farther: past the band, level 1 alone
  EXPECT_EQ(r.group_fade[group], 0);
  EXPECT_EQ(r.visible[level[0]], 0);
  EXPECT_EQ(r.visible[level[1]], 1);
}

TEST(Cull, OcclusionHidesWhatLiesBehindTheDepthAndCountsIt) {
  PropertySetRegistry sets;
  BatchScene scene(sets);
  const std::vector<DrawDesc> draws(1);
  auto add = [&](glm::vec3 c, float r) {
    RendererDesc d;
    d.bounds = {c, r};
    d.draws = draws;
    return scene.add_renderer(d);
  };
  const std::uint32_t behind = add({-8.0f, 0.0f, -40.0f}, 1.0f);     // left, beyond the wall
  const std::uint32_t in_front = add({-3.0f, 0.0f, -10.0f}, 1.0f);   // left, before it
  const std::uint32_t beside = add({8.0f, 0.0f, -40.0f}, 1.0f);      // right half: no wall
  const std::uint32_t straddling = add({0.0f, 0.0f, -40.0f}, 3.0f);  // across the wall's edge
  const glm::mat4 proj = perspective(glm::radians(60.0f), 1.0f, 0.5f, 500.0f, true);
  const glm::mat4 view_proj = proj * glm::lookAt(glm::vec3(0.0f), glm::vec3(0, 0, -1), glm::vec3(0, 1, 0));
  constexpr std::uint32_t kSize = 64;
  const glm::vec4 wall = proj * glm::vec4(0.0f, 0.0f, -20.0f, 1.0f);
  std::vector<float> depth(kSize * kSize, 0.0f);
  for (std::uint32_t y = 0; y < kSize; ++y)
    for (std::uint32_t x = 0; x < kSize / 2; ++x) depth[y * kSize + x] = wall.z / wall.w;
  const std::vector<MinPyramidLevel> levels = build_min_pyramid(depth, kSize, kSize);
  const HizReference reference{view_proj, levels, kSize, kSize};

  CullCamera camera;
  camera.frustum = Frustum::from_view_proj(view_proj, DepthConvention::kReverseZ);
  CullResult open;
  cull(scene, camera, open);
  EXPECT_EQ(open.visible, (std::vector<std::uint8_t>{1, 1, 1, 1}));
  EXPECT_EQ(open.occluded, 0u);
  camera.occlusion = &reference;
  CullResult hidden;
  cull(scene, camera, hidden);
  EXPECT_EQ(hidden.visible[behind], 0);
  EXPECT_EQ(hidden.visible[in_front], 1);
  EXPECT_EQ(hidden.visible[beside], 1);
  EXPECT_EQ(hidden.visible[straddling], 1);
  EXPECT_EQ(hidden.occluded, 1u);
}

}  // namespace
}  // namespace myriad::batch
