// Welding (SPEC C3): pairs within the normal angle merge, pairs beyond it never do (also not through
// a chain), skin bindings are respected, and the welded mesh has the original's surface and bounds.
#include "myriad/crowd_bake/import/weld.hpp"

#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace myriad::crowd {
namespace {

glm::vec3 tilted(float degrees) {
  const float a = degrees * std::numbers::pi_v<float> / 180.0f;
  return {std::sin(a), std::cos(a), 0.0f};
}

// One triangle per vertex at `corner` (the other two corners unique), so only the corner copies can weld.
BakeMesh fan_at_corner(const std::vector<glm::vec3>& corner_normals) {
  BakeMesh m;
  const glm::vec3 corner(0.25f, -0.0f, 1.0f);
  for (std::size_t i = 0; i < corner_normals.size(); ++i) {
    const float x = static_cast<float>(i);
    const glm::vec3 p[3] = {corner, {x + 1.0f, 0.0f, 0.0f}, {x + 1.0f, 1.0f, 0.0f}};
    const glm::vec3 nr[3] = {corner_normals[i], {0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 1.0f}};
    for (int k = 0; k < 3; ++k) {
      m.indices.push_back(static_cast<std::uint32_t>(m.positions.size()));
      m.positions.push_back(p[k]);
      m.normals.push_back(nr[k]);
      m.uvs.push_back({x, static_cast<float>(k)});  // every copy has its own UV: ignored by welding
      m.joints.push_back({0, 1, 0, 0});
      m.weights.push_back({0.75f, 0.25f, 0.0f, 0.0f});
    }
    m.triangle_material.push_back(0);
  }
  return m;
}

TEST(Weld, MergesWithinTheAngleAndNeverBeyondIt) {
  const WeldResult r = weld(fan_at_corner({tilted(0.0f), tilted(24.0f), tilted(26.0f)}));
  // Corner copies are vertices 0, 3, 6: 0 and 3 (24 deg) merge, 6 (26 deg from 0) stays apart.
  EXPECT_EQ(r.welded_of[0], r.welded_of[3]);
  EXPECT_NE(r.welded_of[0], r.welded_of[6]);
  EXPECT_EQ(r.vertices_before, 9u);
  EXPECT_EQ(r.vertices_after, 8u);
  EXPECT_TRUE(r.mesh.uvs.empty());
}

// Coincident copies with different keep-apart keys (different morph offsets) never merge.
TEST(Weld, VerticesWithDifferentKeysStayApart) {
  const BakeMesh fan = fan_at_corner({tilted(0.0f), tilted(0.0f), tilted(0.0f)});
  EXPECT_EQ(weld(fan).vertices_after, 7u);  // the three corner copies merge without keys
  std::vector<std::uint32_t> keys(fan.vertex_count(), 0u);
  keys[6] = 2;  // the third corner copy moves otherwise
  const WeldResult r = weld(fan, {}, keys);
  EXPECT_EQ(r.welded_of[0], r.welded_of[3]);
  EXPECT_NE(r.welded_of[0], r.welded_of[6]);
  EXPECT_EQ(r.vertices_after, 8u);
  keys.pop_back();
  EXPECT_THROW(weld(fan, {}, keys), Error);
}

TEST(Weld, IsNotTransitiveAcrossTheLimit) {
  // 0 - 20 - 40 degrees: 20 joins 0; 40 is within 25 of 20 but 40 from 0, so it must stay apart.
  const WeldResult r = weld(fan_at_corner({tilted(0.0f), tilted(20.0f), tilted(40.0f)}));
  EXPECT_EQ(r.welded_of[0], r.welded_of[3]);
  EXPECT_NE(r.welded_of[6], r.welded_of[0]);
  // A wider angle merges all three.
  const WeldResult wide = weld(fan_at_corner({tilted(0.0f), tilted(20.0f), tilted(40.0f)}), {45.0f});
  EXPECT_EQ(wide.welded_of[0], wide.welded_of[6]);
}

TEST(Weld, DifferentSkinBindingsStayApart) {
  BakeMesh m = fan_at_corner({tilted(0.0f), tilted(0.0f)});
  m.weights[3] = {0.5f, 0.5f, 0.0f, 0.0f};
  EXPECT_NE(weld(m).welded_of[0], weld(m).welded_of[3]);
}

double area(const BakeMesh& m) {
  double a = 0.0;
  for (std::size_t t = 0; t < m.triangle_count(); ++t) {
    const glm::vec3 p0 = m.positions[m.indices[3 * t]], p1 = m.positions[m.indices[3 * t + 1]],
                    p2 = m.positions[m.indices[3 * t + 2]];
    a += 0.5 * double(glm::length(glm::cross(p1 - p0, p2 - p0)));
  }
  return a;
}

// A grid surface whose every triangle has its own vertex copies with jittered normals: many groups of
// up to six copies at one position, normals spread over about 40 degrees.
BakeMesh jittered_grid(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> jitter(-20.0f, 20.0f);
  BakeMesh m;
  constexpr int kQuadTriangles[2][3] = {{0, 1, 2}, {0, 2, 3}};
  const int n = 8;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const glm::vec3 c[4] = {{float(x), float(y), 0.1f * float(x * y % 3)},
                              {float(x + 1), float(y), 0.1f * float((x + 1) * y % 3)},
                              {float(x + 1), float(y + 1), 0.1f * float((x + 1) * (y + 1) % 3)},
                              {float(x), float(y + 1), 0.1f * float(x * (y + 1) % 3)}};
      for (const auto& tri : kQuadTriangles) {
        for (int k = 0; k < 3; ++k) {
          const float a = jitter(rng), b = jitter(rng);
          m.indices.push_back(static_cast<std::uint32_t>(m.positions.size()));
          m.positions.push_back(c[tri[k]]);
          m.normals.push_back(glm::normalize(glm::vec3(tilted(a).x, tilted(b).x, 1.0f)));
          m.joints.push_back({0, 0, 0, 0});
          m.weights.push_back({1.0f, 0.0f, 0.0f, 0.0f});
        }
        m.triangle_material.push_back(0);
      }
    }
  }
  return m;
}

TEST(Weld, FollowsTheRuleExactlyAndKeepsTheSurface) {
  const BakeMesh m = jittered_grid(7);
  const float limit = std::cos(25.0f * std::numbers::pi_v<float> / 180.0f);
  const WeldResult r = weld(m);
  ASSERT_EQ(r.welded_of.size(), m.vertex_count());
  std::size_t merged_pairs = 0, split_pairs_within = 0;
  for (std::size_t i = 0; i < m.vertex_count(); ++i) {
    for (std::size_t j = i + 1; j < m.vertex_count(); ++j) {
      const bool same_position = m.positions[i] == m.positions[j];
      const float d = glm::dot(m.normals[i], m.normals[j]);
      if (r.welded_of[i] == r.welded_of[j]) {
        ++merged_pairs;
        EXPECT_TRUE(same_position);
        EXPECT_GE(d, limit) << "vertices " << i << " and " << j << " merged across the limit";
      } else if (same_position && d >= limit) {
        ++split_pairs_within;
      }
    }
  }
  // Complete linkage: j stays out of an earlier cluster only because a member before it is beyond the
  // angle (so a pair within the angle is split only through such a witness).
  for (std::size_t j = 0; j < m.vertex_count(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      if (m.positions[i] != m.positions[j] || r.welded_of[i] >= r.welded_of[j]) continue;
      bool witness = false;
      for (std::size_t k = 0; k < j; ++k) {
        if (r.welded_of[k] == r.welded_of[i] && glm::dot(m.normals[k], m.normals[j]) < limit) witness = true;
      }
      EXPECT_TRUE(witness) << "vertex " << j << " could have joined the cluster of vertex " << i;
    }
  }
  EXPECT_GT(merged_pairs, 100u);
  EXPECT_GT(split_pairs_within, 0u);  // the jitter makes conflicts; the witness check above covers them
  EXPECT_LT(r.vertices_after, r.vertices_before);
  EXPECT_EQ(r.mesh.vertex_count(), r.vertices_after);
  EXPECT_EQ(r.mesh.triangle_material, m.triangle_material);
  EXPECT_DOUBLE_EQ(area(r.mesh), area(m));
  glm::vec3 lo_a(1e9f), hi_a(-1e9f), lo_b(1e9f), hi_b(-1e9f);
  for (glm::vec3 p : m.positions) lo_a = glm::min(lo_a, p), hi_a = glm::max(hi_a, p);
  for (glm::vec3 p : r.mesh.positions) lo_b = glm::min(lo_b, p), hi_b = glm::max(hi_b, p);
  EXPECT_EQ(lo_a, lo_b);
  EXPECT_EQ(hi_a, hi_b);
  // Triangle t of the welded mesh is triangle t of the original.
  for (std::size_t i = 0; i < m.indices.size(); ++i)
    EXPECT_EQ(r.mesh.positions[r.mesh.indices[i]], m.positions[m.indices[i]]);
}

}  // namespace
}  // namespace myriad::crowd
