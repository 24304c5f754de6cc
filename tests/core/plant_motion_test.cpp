// Plant motion's CPU twin (core/motion/plant_motion.hpp): the wind keeps a plant's base and moves its
// top, its gust pattern travels along the wind at the gust speed, its lean stays within its bound; the
// trampling field pushes a plant near a foot away from it and flattens it near the centre, leaves a far
// one to the wind alone, and sums feet in any order to the same bits; the sway bounds hold every bent
// vertex.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/core/motion/plant_motion.hpp"

namespace myriad {
namespace {

// A header and cells for `feet` on a 128 x 128 grid of 0.25 m cells around `centre` (the default field's
// cells).
struct Field {
  PlantMotionHeader header;
  std::vector<InteractionCell> cells;
};
Field field_of(std::span<const Interactor> feet, glm::vec2 centre = glm::vec2(0.0f)) {
  Field f;
  f.header.grid = interaction_grid_around(centre, 0.25f, 128);
  f.cells.resize(128 * 128);
  splat_interactions(f.header.grid, feet, interaction_reach(f.header.grid, 1.0f), f.cells);
  return f;
}

TEST(PlantMotion, WindKeepsTheBaseAndMovesTheTop) {
  const WindParams wind;
  const glm::vec2 bend = wind_bend(wind, {12.0f, -40.0f}, 3.0f);
  ASSERT_GT(glm::length(bend), 0.01f);
  const float height = 0.8f;
  const glm::vec3 base(0.1f, 0.0f, -0.05f), top(0.05f, height, 0.02f);
  // The base (height fraction 0) does not move at all.
  EXPECT_EQ(bend_vertex(base, 0.0f, height, bend), base);
  // The top moves along the bend, by about bend * height, and keeps its distance from the root.
  const glm::vec3 moved = bend_vertex(top, 1.0f, height, bend);
  const glm::vec3 d = moved - top;
  EXPECT_GT(glm::dot(glm::vec2(d.x, d.z), bend), 0.5f * glm::dot(bend, bend) * height);
  EXPECT_NEAR(glm::length(moved), glm::length(top), 1e-5f);
  EXPECT_LT(moved.y, top.y);  // leaning lowers it
  // Halfway up it moves a quarter as far (h²).
  const glm::vec3 mid(0.0f, 0.5f * height, 0.0f);
  const glm::vec3 mid_moved = bend_vertex(mid, 0.5f, height, bend);
  EXPECT_NEAR(glm::length(glm::vec2(mid_moved.x, mid_moved.z)), 0.25f * height * glm::length(bend), 0.02f);
}

TEST(PlantMotion, TheGustPatternTravelsAlongTheWindAtTheGustSpeed) {
  WindParams wind;
  wind.direction = glm::normalize(glm::vec2(0.6f, -0.8f));
  wind.gust_speed = 6.0f;
  const float t = 17.0f, dt = 0.75f;
  const glm::vec2 shift = wind.direction * (wind.gust_speed * dt);
  float moved = 0.0f, lean_min = 1e9f, lean_max = -1e9f;
  for (int j = 0; j < 20; ++j)
    for (int i = 0; i < 20; ++i) {
      const glm::vec2 p(-50.0f + 5.3f * float(i), 20.0f + 4.7f * float(j));
      const glm::vec2 now = wind_bend(wind, p, t);
      // The pattern at t + dt is the one at t, carried gust_speed * dt along the wind.
      const glm::vec2 later = wind_bend(wind, p + shift, t + dt);
      EXPECT_NEAR(later.x, now.x, 2e-4f) << i << " " << j;
      EXPECT_NEAR(later.y, now.y, 2e-4f) << i << " " << j;
      // In place it changes: the gusts pass over a standing plant.
      moved = std::max(moved, glm::length(wind_bend(wind, p, t + dt) - now));
      const float lean = glm::dot(now, wind.direction);
      lean_min = std::min(lean_min, lean);
      lean_max = std::max(lean_max, lean);
    }
  EXPECT_GT(moved, 0.03f);
  // Gusts: the lean along the wind ranges over most of the gust strength, never against the wind.
  EXPECT_GT(lean_max - lean_min, 0.6f * wind.gust_strength);
  EXPECT_GT(lean_min, 0.0f);
  // Neighbours lean together: half a metre apart the bends differ far less than across a gust.
  float near = 0.0f;
  for (int i = 0; i < 50; ++i) {
    const glm::vec2 p(3.1f * float(i), -1.7f * float(i));
    near = std::max(near, glm::length(wind_bend(wind, p, t) - wind_bend(wind, p + glm::vec2(0.5f, 0.0f), t)));
  }
  EXPECT_LT(near, 0.25f * (lean_max - lean_min));
}

TEST(PlantMotion, TheWindsLeanStaysWithinItsBound) {
  WindParams strong;
  strong.strength = 0.5f;
  strong.gust_strength = 0.8f;
  strong.flutter = 0.2f;
  float longest = 0.0f;
  for (int i = 0; i < 2000; ++i) {
    const glm::vec2 p(float(i % 50) * 2.3f, float(i / 50) * 3.1f);
    longest = std::max(longest, glm::length(wind_bend(strong, p, 0.37f * float(i))));
    EXPECT_LE(glm::length(wind_bend(WindParams{}, p, 0.1f * float(i))), kMaxWindBend + 1e-6f);
  }
  EXPECT_LE(longest, kMaxWindBend + 1e-6f);
  EXPECT_GT(longest, 0.99f * kMaxWindBend);
}

TEST(PlantMotion, InvalidWindNamesTheField) {
  WindParams w;
  w.direction = {1.0f, 1.0f};
  try {
    validate_wind(w);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "WindParams::direction");
  }
  w = WindParams{};
  w.gust_scale = 0.0f;
  EXPECT_THROW(validate_wind(w), Error);
  w = WindParams{};
  w.strength = -0.1f;
  EXPECT_THROW(validate_wind(w), Error);
  EXPECT_NO_THROW(validate_wind(WindParams{}));
}

TEST(PlantMotion, GrassNearAFootBendsAwayAndFarGrassKeepsTheWind) {
  const glm::vec2 foot(1.3f, -2.2f);
  const std::vector<Interactor> feet{make_interactor(foot, 0.6f)};
  const Field f = field_of(feet);
  const float height = 0.6f, time = 4.0f;
  const glm::vec3 tip(0.0f, height, 0.0f);
  for (const glm::vec2 side :
       {glm::vec2(1.0f, 0.0f), glm::vec2(0.0f, -1.0f), glm::normalize(glm::vec2(-1.0f, 1.0f))}) {
    // A tuft 0.35 m from the foot: its tip goes away from the foot, further than the wind alone takes it.
    const glm::vec2 root = foot + side * 0.35f;
    const glm::vec2 bend = plant_bend(f.header, f.cells, root, time, 1.0f, 1.0f);
    const glm::vec3 moved = bend_vertex(tip, 1.0f, height, bend);
    const glm::vec2 away(moved.x, moved.z);
    EXPECT_GT(glm::dot(away, side), 0.7f * glm::length(away))
        << side.x << "," << side.y;  // within 45 degrees
    EXPECT_GT(glm::dot(away, side), 0.2f) << side.x << "," << side.y;
    // A plant that is not trampled (a tree) ignores the foot.
    EXPECT_EQ(plant_bend(f.header, f.cells, root, time, 1.0f, 0.0f), wind_bend(f.header.wind, root, time));
  }
  // Flattened near the centre: the tip is lower under the foot than at the edge of its reach.
  const auto tip_height = [&](float distance) {
    const glm::vec2 bend = plant_bend(f.header, f.cells, foot + glm::vec2(distance, 0.0f), time, 1.0f, 1.0f);
    return bend_vertex(tip, 1.0f, height, bend).y;
  };
  EXPECT_LT(tip_height(0.1f), 0.45f * height);
  EXPECT_LT(tip_height(0.1f), tip_height(0.45f));
  // Far away (5 m, and outside the grid) only the wind moves it.
  for (const glm::vec2 root : {foot + glm::vec2(5.0f, 0.0f), glm::vec2(100.0f, 3.0f)}) {
    const Trample t = trample_at(f.header, f.cells, root);
    EXPECT_EQ(t.amount, 0.0f);
    EXPECT_EQ(plant_bend(f.header, f.cells, root, time, 1.0f, 1.0f), wind_bend(f.header.wind, root, time));
  }
}

TEST(PlantMotion, TheSplatReachesEveryCellInItsRadiusAndNoOther) {
  const InteractionGrid grid = interaction_grid_around({10.0f, 10.0f}, 0.5f, 32);
  std::vector<InteractionCell> cells(32 * 32);
  for (const glm::vec2 foot : {glm::vec2(10.3f, 9.1f), glm::vec2(2.1f, 2.0f), glm::vec2(17.9f, 17.8f)}) {
    for (const float radius : {0.3f, 0.6f, 1.1f}) {
      const Interactor e = make_interactor(foot, radius);
      splat_interactions(grid, std::span(&e, 1), interaction_reach(grid, radius), cells);
      for (std::uint32_t j = 0; j < 32; ++j)
        for (std::uint32_t i = 0; i < 32; ++i) {
          const glm::vec2 mid = grid.min + (glm::vec2(float(i), float(j)) + 0.5f) * grid.cell;
          const float d = glm::length(mid - foot);
          const InteractionCell& c = cells[j * 32 + i];
          if (d < 0.97f * radius) {
            EXPECT_GT(c.press, 0) << i << "," << j << " r " << radius;
          }
          if (d > 1.01f * radius) {
            EXPECT_EQ(c.press, 0) << i << "," << j << " r " << radius;
          }
          // The push points from the foot to the cell.
          EXPECT_GE(float(c.push_x) * (mid.x - foot.x) + float(c.push_z) * (mid.y - foot.y), 0.0f);
        }
    }
  }
}

TEST(PlantMotion, FeetSumToTheSameBitsInAnyOrder) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> pos(-18.0f, 18.0f), rad(0.3f, 0.9f);
  std::vector<Interactor> feet;
  for (int i = 0; i < 400; ++i) feet.push_back(make_interactor({pos(rng), pos(rng)}, rad(rng), 0.8f));
  const Field a = field_of(feet);
  std::shuffle(feet.begin(), feet.end(), rng);
  const Field b = field_of(feet);
  std::size_t trodden = 0;
  for (std::size_t i = 0; i < a.cells.size(); ++i) {
    EXPECT_EQ(a.cells[i].push_x, b.cells[i].push_x);
    EXPECT_EQ(a.cells[i].press, b.cells[i].press);
    trodden += a.cells[i].press > 0;
  }
  EXPECT_GT(trodden, 500u);
}

TEST(PlantMotion, SwayBoundsHoldEveryBentVertex) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (const float height : {0.6f, 1.4f, 8.0f}) {
    const PlantMotionType type = plant_motion_type(height);
    Aabb mesh;
    mesh.expand(glm::vec3(-0.4f * height, 0.0f, -0.3f * height));
    mesh.expand(glm::vec3(0.35f * height, height, 0.4f * height));
    const Aabb bounds = sway_bounds(mesh, type);
    for (int i = 0; i < 3000; ++i) {
      const glm::vec3 v = mesh.min + (mesh.max - mesh.min) * glm::vec3(unit(rng), unit(rng), unit(rng));
      const float a = 6.2831853f * unit(rng);
      const float amount = unit(rng);
      // The strongest bend the shaders can give: the wind's bound, or a full trampling.
      const glm::vec2 bend = glm::vec2(std::cos(a), std::sin(a)) *
                             glm::mix(kMaxWindBend * type.sway, kTrampleBend, amount * type.trample);
      const glm::vec3 p = bend_vertex(v, std::clamp(v.y / height, 0.0f, 1.0f), height, bend);
      ASSERT_TRUE(bounds.contains(p)) << height << ": " << p.x << "," << p.y << "," << p.z;
    }
  }
  // Trees are not trampled: their bounds grow by the wind alone.
  EXPECT_EQ(plant_motion_type(8.0f).trample, 0.0f);
  EXPECT_EQ(plant_motion_type(0.6f).trample, 1.0f);
  EXPECT_LT(plant_motion_type(8.0f).sway, plant_motion_type(0.6f).sway);
}

TEST(PlantMotion, TheGridIsSnappedToCellsAroundItsCentre) {
  const InteractionGrid g = interaction_grid_around({103.37f, -47.81f}, 0.5f, 128);
  EXPECT_EQ(g.min.x, std::floor(g.min.x * 2.0f) / 2.0f);
  EXPECT_EQ(g.min.y, std::floor(g.min.y * 2.0f) / 2.0f);
  EXPECT_NEAR(g.min.x + 32.0f, 103.37f, 0.5f);
  EXPECT_NEAR(g.min.y + 32.0f, -47.81f, 0.5f);
  EXPECT_TRUE(interactor_reaches(g, {103.0f, -47.0f}, 0.6f));
  EXPECT_FALSE(interactor_reaches(g, {103.0f + 33.0f, -47.0f}, 0.6f));
}

}  // namespace
}  // namespace myriad
