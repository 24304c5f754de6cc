// Vegetation of the streamed world against the fixed one: every section of every meshed column places the
// same records, byte for byte, as place_vegetation on generate_world + compute_light of the same size and
// seed, before and after edits (StreamWorld::edit against edit_voxel); sections not meshed are refused. With
// StreamOptions::vegetation the stream's own records (placed in the mesh jobs) are compared as well.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/stream/stream_vegetation.hpp"
#include "stream_test_support.hpp"

namespace myriad::voxel {
namespace {

using test_support::settle;

World fixed_world(const StreamOptions& o) {
  World w = generate_world(o.world_size, o.generator);
  compute_light(w);
  return w;
}

template <class T>
bool same_records(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

struct Counts {
  int columns = 0;
  std::size_t grass = 0, tilted = 0, trees = 0;
  std::size_t trees_reading_above = 0;  // trees whose crown light is read in the section above
};

// Compares every section of every meshed column (and, when the stream places vegetation itself, its
// records); returns what the records held.
Counts expect_same_vegetation(const StreamWorld& s, const World& w, std::uint64_t seed) {
  Counts n;
  SectionVegetation streamed, fixed;
  for (int cz = 0; cz < s.columns().y; ++cz)
    for (int cx = 0; cx < s.columns().x; ++cx) {
      if (s.column_state({cx, cz}) != ColumnState::kMeshed) continue;
      ++n.columns;
      for (int sy = 0; sy < w.sections().y; ++sy) {
        place_vegetation(s, {cx, sy, cz}, seed, streamed);
        place_vegetation(w, {cx, sy, cz}, seed, fixed);
        if (s.options().vegetation) {
          const SectionVegetation* own = s.vegetation({cx, sy, cz});
          EXPECT_EQ(s.options().vegetation_seed, seed);
          if (own) {
            EXPECT_TRUE(same_records(own->grass, fixed.grass))
                << "stream's own grass of section " << cx << " " << sy << " " << cz;
            EXPECT_TRUE(same_records(own->trees, fixed.trees))
                << "stream's own trees of section " << cx << " " << sy << " " << cz;
          } else {
            ADD_FAILURE() << "no vegetation for meshed section " << cx << " " << sy << " " << cz;
          }
        }
        EXPECT_TRUE(same_records(streamed.grass, fixed.grass))
            << "grass of section " << cx << " " << sy << " " << cz;
        EXPECT_TRUE(same_records(streamed.trees, fixed.trees))
            << "trees of section " << cx << " " << sy << " " << cz;
        n.grass += fixed.grass.size();
        for (const GrassInstance& g : fixed.grass) n.tilted += grass_up(g.template_light).y < 0.99f;
        n.trees += fixed.trees.size();
        for (const TreeInstance& t : fixed.trees) {
          const int y = int(t.py), height = int(t.type_height >> 16) / 16;
          n.trees_reading_above += (y >> 4) != (std::min(y + height, w.size().y - 1) >> 4);
        }
      }
    }
  return n;
}

StreamOptions small_options(bool own_vegetation = false) {
  StreamOptions o;
  o.vegetation = own_vegetation;
  o.vegetation_seed = 77;
  o.world_size = {256, 64, 256};
  o.generator.seed = 5;
  o.generator.lamp_chance = 0.02f;
  o.radius = 3;
  o.worker_threads = 2;
  return o;
}

// The highest non-air cell of (x, z) in the fixed world.
int surface_y(const World& w, int x, int z) {
  for (int y = w.size().y - 1; y > 0; --y)
    if (w.material({x, y, z}) != kAir) return y;
  return 0;
}

TEST(StreamVegetation, EqualsFixedWorldInEveryMeshedSection) {
  const StreamOptions o = small_options(true);
  const World w = fixed_world(o);
  StreamWorld s(o);
  settle(s, {20.0, 40.0, 130.0});  // near the -x edge: edge columns are included
  const Counts n = expect_same_vegetation(s, w, 77);
  EXPECT_GE(n.columns, 4 * 7);
  EXPECT_GT(n.grass, 1000u);
  EXPECT_GT(n.tilted, 0u) << "slopes carry grass";
  EXPECT_GT(n.trees, 10u);
  EXPECT_GT(n.trees_reading_above, 0u) << "some tree reads light across a section border";
}

TEST(StreamVegetation, EditsPlaceLikeEditVoxel) {
  const StreamOptions o = small_options(true);
  World w = fixed_world(o);
  StreamWorld s(o);
  const glm::dvec3 cam{128.0, 40.0, 128.0};
  settle(s, cam);
  // Grass grown and dug, slopes cut, stone laid on grass, lamps (light of a tree's top) around the camera,
  // several on column borders (x = 111, 112, 127, 128).
  const std::uint8_t slope = std::uint8_t(0x0F | 1u << kCornerX0Y1Z0 | 1u << kCornerX0Y1Z1);
  std::vector<std::tuple<glm::ivec3, std::uint8_t, std::uint8_t>> edits;
  int k = 0;
  for (const int x : {100, 111, 112, 120, 127, 128, 140})
    for (const int z : {100, 113, 127, 128, 150}) {
      const int y = surface_y(w, x, z);
      switch (k++ % 5) {
        case 0:  // dig the surface cell: what lies below may be grass under air now (or not)
          edits.push_back({{x, y, z}, kAir, kFormEmpty});
          break;
        case 1:  // a full grass cube on top
          edits.push_back({{x, y + 1, z}, kGrass, kFormFull});
          break;
        case 2:  // a grass slope on top
          edits.push_back({{x, y + 1, z}, kGrass, slope});
          break;
        case 3:  // stone on top: the grass below is covered
          edits.push_back({{x, y + 1, z}, kStone, kFormFull});
          break;
        default:  // a lamp above the ground: light of the grass and trees nearby changes
          edits.push_back({{x, y + 3, z}, kLampWarm, kFormFull});
          break;
      }
    }
  const World before = w;
  for (std::size_t e = 0; e < edits.size(); ++e) {
    const auto& [p, material, form] = edits[e];
    if (p.y >= w.size().y) continue;
    s.edit(p, material, form);
    edit_voxel(w, p, material, form);
    if (e % 8 == 7) s.update(cam);  // some edits while jobs run, some queued together
  }
  settle(s, cam);
  const Counts n = expect_same_vegetation(s, w, 77);
  EXPECT_GE(n.columns, 7 * 7);
  EXPECT_GT(n.tilted, 0u);
  // The edits changed what grows: records of some sections differ from the unedited world's.
  int changed = 0;
  SectionVegetation a, b;
  for (int cz = 6; cz <= 9; ++cz)
    for (int cx = 6; cx <= 8; ++cx)
      for (int sy = 0; sy < w.sections().y; ++sy) {
        place_vegetation(before, {cx, sy, cz}, 77, a);
        place_vegetation(w, {cx, sy, cz}, 77, b);
        changed += !same_records(a.grass, b.grass) || !same_records(a.trees, b.trees);
      }
  EXPECT_GT(changed, 4);
}

TEST(StreamVegetation, RefusesSectionsNotMeshed) {
  StreamOptions o = small_options();
  o.radius = 1;
  StreamWorld s(o);
  settle(s, {8.0, 40.0, 8.0});
  SectionVegetation v;
  EXPECT_NO_THROW(place_vegetation(s, {0, 0, 0}, 1, v));
  EXPECT_THROW(place_vegetation(s, {10, 0, 10}, 1, v), Error);  // absent
  EXPECT_NE(s.column_state({2, 2}), ColumnState::kMeshed);      // generated or lit, not meshed
  EXPECT_THROW(place_vegetation(s, {2, 0, 2}, 1, v), Error);
  EXPECT_THROW(place_vegetation(s, {-1, 0, 0}, 1, v), Error);
  EXPECT_THROW(place_vegetation(s, {0, 4, 0}, 1, v), Error);
  EXPECT_THROW(place_vegetation(s, {0, -1, 0}, 1, v), Error);
  EXPECT_EQ(s.vegetation({0, 0, 0}), nullptr) << "the stream places none unless asked";
}

TEST(StreamVegetation, OwnRecordsFollowTheMeshes) {
  StreamOptions o = small_options(true);
  o.radius = 1;
  StreamWorld s(o);
  settle(s, {8.0, 40.0, 8.0});
  EXPECT_NE(s.vegetation({0, 0, 0}), nullptr);
  EXPECT_EQ(s.vegetation({2, 0, 2}), nullptr) << "not meshed";
  EXPECT_EQ(s.vegetation({10, 0, 10}), nullptr) << "absent";
  EXPECT_EQ(s.vegetation({0, 4, 0}), nullptr) << "above the world";
  // Moving away evicts the column: its records go with its meshes.
  settle(s, {200.0, 40.0, 200.0});
  EXPECT_EQ(s.vegetation({0, 0, 0}), nullptr);
}

// A renderer that follows the updates alone holds every section with plants: `meshed` and `evicted`
// name the sections with geometry, the plants-only lists those without (a plant rooted on the top face of
// the section below stands in the section above, which may hold no faces). Followed over a flight out and
// back, the sections the updates left with plants are exactly those the meshed columns hold.
TEST(StreamVegetation, TheUpdatesNameEverySectionWhosePlantsCameOrWent) {
  const StreamOptions o = small_options(true);
  StreamWorld s(o);
  std::set<std::tuple<int, int, int>> followed;
  std::size_t plants_only = 0;
  const auto fly_to = [&](glm::dvec3 camera) {
    for (int i = 0; i < 200000; ++i) {
      const StreamUpdate& u = s.update(camera);
      for (const auto* list : {&u.evicted, &u.plants_only_evicted})
        for (const glm::ivec3 e : *list) followed.erase({e.x, e.y, e.z});
      for (const auto* list : {&u.meshed, &u.plants_only_meshed})
        for (const glm::ivec3 m : *list) {
          const SectionVegetation* v = s.vegetation(m);
          if (v && has_plants(*v))
            followed.insert({m.x, m.y, m.z});
          else
            followed.erase({m.x, m.y, m.z});
        }
      plants_only += u.plants_only_meshed.size();
      if (s.idle()) return;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    FAIL() << "the stream did not settle";
  };
  for (const glm::dvec3 camera :
       {glm::dvec3{60.0, 40.0, 60.0}, glm::dvec3{200.0, 40.0, 200.0}, glm::dvec3{60.0, 40.0, 60.0}}) {
    fly_to(camera);
    std::set<std::tuple<int, int, int>> held;
    for (int cz = 0; cz < s.columns().y; ++cz)
      for (int cx = 0; cx < s.columns().x; ++cx)
        for (int sy = 0; sy < o.world_size.y / kSectionSize; ++sy)
          if (const SectionVegetation* v = s.vegetation({cx, sy, cz}); v && has_plants(*v))
            held.insert({cx, sy, cz});
    EXPECT_GT(held.size(), 20u);
    EXPECT_EQ(followed, held) << "at " << camera.x << ", " << camera.z;
  }
  EXPECT_GT(plants_only, 0u) << "this world has plants in sections without faces";
}

}  // namespace
}  // namespace myriad::voxel
