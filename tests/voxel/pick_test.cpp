// Voxel picking: the DDA's hit against a fine ray march through the shapes' hulls on random worlds of every
// form byte, the faces and placement cells of simple cases, cut shapes letting rays through their open
// part, unloaded and out-of-range stops, the streamed world's cells read like the fixed world's, bad rays.
#include <gtest/gtest.h>

#include <random>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/pick.hpp"
#include "myriad/voxel/edit/placeable.hpp"
#include "myriad/voxel/model/model.hpp"
#include "stream_test_support.hpp"
#include "test_util.hpp"

namespace myriad::voxel {
namespace {

// Inside the hull of the cell's shape, by the shape's own planes (box and cut planes), with a margin.
bool inside_solid(const World& w, glm::dvec3 p) {
  const glm::ivec3 cell(glm::floor(p));
  if (!w.contains(cell)) return false;
  const std::uint8_t m = w.material(cell), f = w.form(cell);
  const glm::dvec3 local = p - glm::dvec3(cell);
  if (is_model_material(m)) {
    // Inside one of the boxes the mesher draws for it (turned; rails where it connects).
    unsigned connections = 0;
    for (const int side : kHorizontalFaces) {
      const glm::ivec3 n = cell + face_direction(side);
      if (w.contains(n) && model_connects(model_of(m), side, w.material(n), w.form(n)))
        connections |= 1u << connection_bit(side);
    }
    for (const ModelBox& b : model_variant(model_of(m), f, connections).boxes)
      if (glm::all(glm::greaterThan(local, glm::dvec3(b.lo) + 1e-4)) &&
          glm::all(glm::lessThan(local, glm::dvec3(b.hi) - 1e-4)))
        return true;
    return false;
  }
  if (m == kAir || !shape_lut().shapes[f].solid) return false;
  for (const PlaneTemplate& plane : shape_lut().all_planes(f))
    if (glm::dot(glm::dvec3(plane.normal), local - glm::dvec3(corner_offset(plane.corners[0]))) > -1e-4)
      return false;
  return true;
}

// The first sample along the ray inside a solid, by steps of `step`; -1 when none within `max`.
double march(const World& w, glm::dvec3 o, glm::dvec3 d, double max, double step) {
  for (double t = 0.0; t <= max; t += step)
    if (inside_solid(w, o + d * t)) return t;
  return -1.0;
}

TEST(Pick, FlatGroundFromAboveAndTheSide) {
  World w(32, 32, 32);
  for (int y = 0; y < 10; ++y)
    for (int z = 0; z < 32; ++z)
      for (int x = 0; x < 32; ++x) w.set_voxel({x, y, z}, kStone, kFormFull);
  const PickCells cells = pick_cells(w);
  PickResult r = pick_voxel(cells, {5.5, 30.0, 7.5}, {0.0, -2.0, 0.0}, 100.0);
  ASSERT_EQ(r.stop, PickStop::kHit);
  EXPECT_EQ(r.cell, glm::ivec3(5, 9, 7));
  EXPECT_EQ(r.face, kPosY);
  EXPECT_EQ(r.place, glm::ivec3(5, 10, 7));
  EXPECT_NEAR(r.distance, 20.0, 1e-9);
  EXPECT_EQ(r.material, kStone);
  // From above the world (y 50 > 32): the ray enters through the world's top first.
  r = pick_voxel(cells, {20.5, 50.0, 20.5}, {0.0, -1.0, 0.0}, 100.0);
  ASSERT_EQ(r.stop, PickStop::kHit);
  EXPECT_EQ(r.cell, glm::ivec3(20, 9, 20));
  // Horizontally into a wall's side: the -X face, placed in front of it.
  w.set_voxel({12, 10, 7}, kDirt, kFormFull);
  r = pick_voxel(cells, {2.5, 10.5, 7.5}, {1.0, 0.0, 0.0}, 100.0);
  ASSERT_EQ(r.stop, PickStop::kHit);
  EXPECT_EQ(r.cell, glm::ivec3(12, 10, 7));
  EXPECT_EQ(r.face, kNegX);
  EXPECT_EQ(r.place, glm::ivec3(11, 10, 7));
  EXPECT_NEAR(r.distance, 9.5, 1e-9);
  // Too short a reach, and a ray leaving the world.
  EXPECT_EQ(pick_voxel(cells, {2.5, 10.5, 7.5}, {1.0, 0.0, 0.0}, 5.0).stop, PickStop::kRange);
  EXPECT_EQ(pick_voxel(cells, {2.5, 10.5, 7.5}, {0.0, 1.0, 0.0}, 100.0).stop, PickStop::kMissed);
  EXPECT_EQ(pick_voxel(cells, {-5.0, 40.0, 7.5}, {-1.0, 0.0, 0.0}, 100.0).stop, PickStop::kMissed);
  // Starting inside a solid: hit at once.
  r = pick_voxel(cells, {3.5, 4.5, 3.5}, {0.3, 1.0, 0.2}, 100.0);
  ASSERT_EQ(r.stop, PickStop::kHit);
  EXPECT_EQ(r.cell, glm::ivec3(3, 4, 3));
  EXPECT_EQ(r.distance, 0.0);
}

TEST(Pick, ASlicedViewPicksTheCutNotWhatLiesAboveIt) {
  World w(16, 32, 16);
  for (int y = 0; y < 10; ++y)
    for (int z = 0; z < 16; ++z)
      for (int x = 0; x < 16; ++x) w.set_voxel({x, y, z}, kStone, kFormFull);
  PickCells cells = pick_cells(w);
  cells.slice_height = 5.5;  // cuts cell y = 5: it is drawn cut open and can be picked
  PickResult r = pick_voxel(cells, {3.5, 30.0, 3.5}, {0.0, -1.0, 0.0}, 100.0);
  ASSERT_EQ(r.stop, PickStop::kHit);
  EXPECT_EQ(r.cell, glm::ivec3(3, 5, 3));
  cells.slice_height = 5.0;  // cell y = 5 lies wholly above
  r = pick_voxel(cells, {3.5, 30.0, 3.5}, {0.0, -1.0, 0.0}, 100.0);
  ASSERT_EQ(r.stop, PickStop::kHit);
  EXPECT_EQ(r.cell, glm::ivec3(3, 4, 3));
  cells.slice_height = 0.0;  // everything hidden
  EXPECT_EQ(pick_voxel(cells, {3.5, 30.0, 3.5}, {0.0, -1.0, 0.0}, 100.0).stop, PickStop::kMissed);
}

TEST(Pick, RaysPassOverASlopesOpenHalf) {
  World w(16, 16, 16);
  const std::uint8_t slope = placeable_form(shape_named("slope", "test"), 0);  // high side at x = 0
  w.set_voxel({5, 0, 5}, kStone, slope);
  w.set_voxel({9, 0, 5}, kDirt, kFormFull);
  const PickCells cells = pick_cells(w);
  // Along +X at height 0.8: over the slope's low side (its surface is at 1 - x), on into the cube.
  PickResult r = pick_voxel(cells, {5.5, 0.8, 5.5}, {1.0, 0.0, 0.0}, 100.0);
  ASSERT_EQ(r.stop, PickStop::kHit);
  EXPECT_EQ(r.cell, glm::ivec3(9, 0, 5));
  // Straight down onto the slope at x = 5.75: the surface at height 0.25, through the cut plane, whose
  // dominant side is up.
  r = pick_voxel(cells, {5.75, 6.0, 5.5}, {0.0, -1.0, 0.0}, 100.0);
  ASSERT_EQ(r.stop, PickStop::kHit);
  EXPECT_EQ(r.cell, glm::ivec3(5, 0, 5));
  EXPECT_NEAR(r.distance, 6.0 - 0.25, 1e-9);
  EXPECT_EQ(r.face, kPosY);
  EXPECT_NEAR(r.normal.x, std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(r.normal.y, std::sqrt(0.5), 1e-6);
  EXPECT_EQ(r.place, glm::ivec3(5, 1, 5));
}

// The DDA's hit against a fine march along 300 random rays.
void expect_pick_matches_march(const World& w) {
  const PickCells cells = pick_cells(w);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> pos(-4.0, 36.0), dir(-1.0, 1.0);
  int hits = 0, same = 0, rays = 0;
  constexpr double kStep = 1.0 / 512.0;
  for (int i = 0; i < 300; ++i) {
    const glm::dvec3 o(pos(rng), pos(rng), pos(rng));
    glm::dvec3 d(dir(rng), dir(rng), dir(rng));
    if (glm::length(d) < 0.1) continue;
    d = glm::normalize(d);
    ++rays;
    const PickResult r = pick_voxel(cells, o, d, 40.0);
    const double t_ref = march(w, o, d, 40.0, kStep);
    if (t_ref >= 0.0) {
      // The DDA never misses a solid the ray clearly passes into, nor reports it late.
      ASSERT_EQ(r.stop, PickStop::kHit) << "ray " << i;
      ASSERT_LE(r.distance, t_ref + 1e-6) << "ray " << i;
    }
    if (r.stop != PickStop::kHit) continue;
    ++hits;
    // Nor early: just past the entry the ray is inside the hit cell's solid (grazing entries aside).
    if (t_ref >= 0.0 && t_ref - r.distance < 2 * kStep && glm::ivec3(glm::floor(o + d * t_ref)) == r.cell)
      ++same;
    EXPECT_EQ(r.place, r.cell + face_direction(r.face));
  }
  EXPECT_GT(hits, rays / 5);
  EXPECT_GE(same, hits * 97 / 100) << same << " of " << hits;
}

TEST(Pick, MatchesAFineMarchOnRandomWorldsOfEveryFormByte) {
  expect_pick_matches_march(test::random_world({32, 32, 32}, 17, 0.93));
}

// Baked models are hit where a box is entered: rays pass between a fence's post and the cell's side,
// over a slab, beside a torch.
TEST(Pick, MatchesAFineMarchOnRandomWorldsOfBakedModels) {
  World w = test::random_world({32, 32, 32}, 23, 0.97);
  std::mt19937 rng(29);
  for (int i = 0; i < 1200; ++i) {
    const glm::ivec3 p(int(rng() % 32), int(rng() % 32), int(rng() % 32));
    w.set_voxel(p, std::uint8_t(kFirstModelMaterial + rng() % (kMaterialCount - kFirstModelMaterial)),
                std::uint8_t(rng() % 4));
  }
  // Rows of fences that connect.
  for (int x = 4; x < 28; ++x) w.set_voxel({x, 10, 12}, kFence, 0);
  expect_pick_matches_march(w);
}

TEST(Pick, StopsAtUnloadedCells) {
  World w(32, 16, 16);
  w.set_voxel({20, 5, 5}, kStone, kFormFull);
  PickCells cells = pick_cells(w);
  const auto fixed = cells.read;
  cells.read = [fixed](glm::ivec3 p, std::uint8_t& m, std::uint8_t& f) {
    return p.x >= 16 ? CellLookup::kUnloaded : fixed(p, m, f);
  };
  const PickResult r = pick_voxel(cells, {2.5, 5.5, 5.5}, {1.0, 0.0, 0.0}, 100.0);
  EXPECT_EQ(r.stop, PickStop::kUnloaded);
  EXPECT_EQ(r.cell, glm::ivec3(16, 5, 5));
}

TEST(Pick, StreamedWorldReadsLikeTheFixedWorld) {
  StreamOptions o;
  o.world_size = {256, 64, 256};
  o.generator.seed = 9;
  o.radius = 2;
  o.worker_threads = 2;
  StreamWorld s(o);
  const glm::dvec3 camera{128.0, 50.0, 128.0};
  test_support::settle(s, camera);
  const World w = generate_world(o.world_size, o.generator);
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> dir(-1.0, 1.0);
  int hits = 0;
  for (int i = 0; i < 200; ++i) {
    const glm::dvec3 d(dir(rng), -1.0, dir(rng));
    const PickResult a = pick_voxel(pick_cells(s), camera, d, 60.0);
    const PickResult b = pick_voxel(pick_cells(w), camera, d, 60.0);
    ASSERT_EQ(a.stop == PickStop::kUnloaded, false) << "ray " << i;
    EXPECT_EQ(a.stop, b.stop);
    EXPECT_EQ(a.cell, b.cell);
    EXPECT_EQ(a.distance, b.distance);
    hits += a.stop == PickStop::kHit;
  }
  EXPECT_GT(hits, 100);
  // Far outside the resident columns: unloaded.
  EXPECT_EQ(pick_voxel(pick_cells(s), {4.5, 40.0, 4.5}, {0.0, -1.0, 0.0}, 100.0).stop, PickStop::kUnloaded);
}

TEST(Pick, RejectsBadRays) {
  World w(16, 16, 16);
  const PickCells cells = pick_cells(w);
  EXPECT_THROW(pick_voxel(cells, {1, 1, 1}, {0, 0, 0}, 10.0), Error);
  EXPECT_THROW(pick_voxel(cells, {1, 1, 1}, {0, std::nan(""), 0}, 10.0), Error);
  EXPECT_THROW(pick_voxel(cells, {1, std::nan(""), 1}, {0, 1, 0}, 10.0), Error);
  EXPECT_THROW(pick_voxel(cells, {1, 1, 1}, {0, 1, 0}, 0.0), Error);
  EXPECT_THROW(pick_voxel(cells, {1, 1, 1}, {0, 1, 0}, std::numeric_limits<double>::infinity()), Error);
}

}  // namespace
}  // namespace myriad::voxel
