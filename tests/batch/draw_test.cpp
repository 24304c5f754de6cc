// Draw generation: every visible draw instance drawn exactly once with its batch type, mesh,
// material and slot; no draw mixes property sets; runs fully merged and sorted; thread-independent.
#include "myriad/batch/draw_commands.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "test_scene.hpp"

#include <gtest/gtest.h>

#include <map>

namespace myriad::batch {
namespace {

TEST(Draws, EveryVisibleRendererDrawnExactlyOnce) {
  test::RandomScene rs(30000, 11);
  const BatchScene& s = *rs.scene;
  CullCamera cam;
  cam.frustum =
      Frustum::from_view_proj(perspective(glm::radians(70.0f), 1.5f, 0.1f, 300.0f) *
                              glm::lookAt(glm::vec3(0, 10, 50), glm::vec3(0, 0, 0), glm::vec3(0, 1, 0)));
  cam.position = {0, 10, 50};
  cam.lod_scale = 0.7f;
  cam.layer_mask = 0x3;
  CullResult cr;
  cull(s, cam, cr);
  DrawList dl;
  generate_draws(s, cr, dl);

  // (type, slot) -> draw instance.
  std::map<std::pair<BatchType, std::uint32_t>, std::uint32_t> by_slot;
  for (std::uint32_t i = 0; i < s.draws().size(); ++i) by_slot[{s.draws().type[i], s.draws().slot[i]}] = i;
  std::vector<int> drawn(s.draws().size(), 0);
  std::size_t instances = 0;
  for (std::size_t k = 0; k < dl.draws.size(); ++k) {
    const DrawCommand& d = dl.draws[k];
    ASSERT_GT(d.instance_count, 0u);
    if (k > 0) {
      const DrawCommand& p = dl.draws[k - 1];
      EXPECT_LT(draw_key(p.type, p.mesh, p.material), draw_key(d.type, d.mesh, d.material))
          << "sorted, fully merged";
      EXPECT_EQ(p.first_instance + p.instance_count, d.first_instance);
    }
    for (std::uint32_t j = d.first_instance; j < d.first_instance + d.instance_count; ++j) {
      const auto it = by_slot.find({d.type, dl.instances[j]});
      ASSERT_NE(it, by_slot.end());
      const std::uint32_t i = it->second;
      // One property set (batch type), mesh and material per draw.
      EXPECT_EQ(s.draws().type[i], d.type);
      EXPECT_EQ(s.draws().mesh[i], d.mesh);
      EXPECT_EQ(s.draws().material[i], d.material);
      ++drawn[i];
      ++instances;
    }
  }
  std::size_t expected = 0;
  for (std::uint32_t i = 0; i < s.draws().size(); ++i) {
    const int want = cr.visible[s.draws().renderer[i]];
    expected += static_cast<std::size_t>(want);
    ASSERT_EQ(drawn[i], want) << "draw instance " << i;
  }
  EXPECT_EQ(instances, expected);
  EXPECT_EQ(dl.visible_draw_instances, expected);
  EXPECT_GT(expected, 2000u);
  // 6 meshes x 4 materials x 4 types at most: batching merges thousands of instances.
  EXPECT_LE(dl.draws.size(), 96u);

  DrawList one;
  {
    ThreadLimit limit(1);
    generate_draws(s, cr, one);
  }
  EXPECT_EQ(one.instances, dl.instances);
  ASSERT_EQ(one.draws.size(), dl.draws.size());
  for (std::size_t k = 0; k < dl.draws.size(); ++k) {
    EXPECT_EQ(one.draws[k].first_instance, dl.draws[k].first_instance);
    EXPECT_EQ(one.draws[k].instance_count, dl.draws[k].instance_count);
  }
}

TEST(Draws, NothingVisibleGivesNoDraws) {
  test::RandomScene rs(100);
  CullResult cr;
  cr.visible.assign(rs.scene->culling().size(), 0);
  DrawList dl;
  generate_draws(*rs.scene, cr, dl);
  EXPECT_TRUE(dl.draws.empty());
  EXPECT_TRUE(dl.instances.empty());
}

}  // namespace
}  // namespace myriad::batch
