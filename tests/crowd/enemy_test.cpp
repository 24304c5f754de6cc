// The procedural enemy: about 1.5k vertices, a closed surface, UV seams that welding removes (the
// article's enemies lost 19–29 %), hard cap edges that it keeps, and the two clips.
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/import/import.hpp"
#include "myriad/crowd_bake/import/weld.hpp"

#include <gtest/gtest.h>

#include <map>

namespace myriad::crowd {
namespace {

TEST(Enemy, IsAClosedSkinnedModelWithSeamsToWeld) {
  const anim::ImportedModel m = make_enemy();
  const BakeSource s = import_for_bake(m, "enemy");
  EXPECT_GT(s.mesh.vertex_count(), 1300u);
  EXPECT_LT(s.mesh.vertex_count(), 1700u);
  ASSERT_EQ(m.clips.size(), 2u);
  EXPECT_EQ(m.clips[0].name, "walk");
  EXPECT_EQ(m.clips[1].name, "attack");
  EXPECT_FALSE(s.materials[0].double_sided);
  EXPECT_EQ(s.textures.size(), 1u);
  // Closed: every edge (by position) is shared by exactly two triangles.
  std::map<std::pair<std::array<float, 3>, std::array<float, 3>>, int> uses;
  for (std::size_t t = 0; t < s.mesh.triangle_count(); ++t) {
    for (int e = 0; e < 3; ++e) {
      const glm::vec3 a = s.mesh.positions[s.mesh.indices[3 * t + std::size_t(e)]];
      const glm::vec3 b = s.mesh.positions[s.mesh.indices[3 * t + std::size_t((e + 1) % 3)]];
      std::array<float, 3> ka{a.x, a.y, a.z}, kb{b.x, b.y, b.z};
      if (kb < ka) std::swap(ka, kb);
      ++uses[{ka, kb}];
    }
  }
  for (const auto& [edge, n] : uses) EXPECT_EQ(n, 2);
  // Front faces point outwards (the material culls back faces): winding agrees with the normals.
  for (std::size_t t = 0; t < s.mesh.triangle_count(); ++t) {
    const std::uint32_t* i = &s.mesh.indices[3 * t];
    const glm::vec3 f = glm::cross(s.mesh.positions[i[1]] - s.mesh.positions[i[0]],
                                   s.mesh.positions[i[2]] - s.mesh.positions[i[0]]);
    EXPECT_GT(glm::dot(f, s.mesh.normals[i[0]] + s.mesh.normals[i[1]] + s.mesh.normals[i[2]]), 0.0f)
        << "triangle " << t;
  }
  const WeldResult w = weld(s.mesh);
  const double saved = 1.0 - double(w.vertices_after) / double(w.vertices_before);
  EXPECT_GT(saved, 0.15);
  EXPECT_LT(saved, 0.40);
  // Caps meet tubes at 90 degrees: welding everything at equal positions would save far more.
  EXPECT_LT(w.vertices_after, weld(s.mesh, {180.0f}).vertices_after + 400u);
  EXPECT_GT(w.vertices_after, weld(s.mesh, {180.0f}).vertices_after);
}

}  // namespace
}  // namespace myriad::crowd
