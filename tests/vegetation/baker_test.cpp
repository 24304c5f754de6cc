// Baker: determinism (per seed, for any thread count), density rules, spacing, configurable tile size,
// small-group merging, CSV input with clear errors, generated plant meshes, progress reporting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "../core/file_size_limit.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "test_util.hpp"
#include "error_where.hpp"

namespace myriad::vegetation {
namespace {

std::vector<std::vector<std::byte>> bytes_of(const std::vector<Tile>& tiles) {
  std::vector<std::vector<std::byte>> out;
  for (const Tile& t : tiles) out.push_back(serialize_tile(t));
  return out;
}

// World XZ positions of every instance per type id, sorted by x.
std::map<std::uint32_t, std::vector<glm::dvec2>> world_points(const std::vector<Tile>& tiles) {
  std::map<std::uint32_t, std::vector<glm::dvec2>> out;
  for (const Tile& t : tiles)
    for (const Group& g : t.groups)
      for (const InstanceRecord& r : g.instances) {
        const glm::dvec3 p = t.origin() + glm::dvec3(decode_position(g, r));
        out[t.prefabs[g.prefab].type_id].push_back({p.x, p.z});
      }
  for (auto& kv : out)
    std::sort(kv.second.begin(), kv.second.end(), [](auto a, auto b) { return a.x < b.x; });
  return out;
}

// Same plants up to quantization (boxes differ with the tile size): every point has a partner < 1 cm away.
void expect_same_points(const std::map<std::uint32_t, std::vector<glm::dvec2>>& a,
                        const std::map<std::uint32_t, std::vector<glm::dvec2>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [type, pa] : a) {
    const auto& pb = b.at(type);
    ASSERT_EQ(pa.size(), pb.size()) << "type " << type;
    for (const glm::dvec2& p : pa) {
      auto it =
          std::lower_bound(pb.begin(), pb.end(), p.x - 0.01, [](glm::dvec2 q, double x) { return q.x < x; });
      bool found = false;
      for (; it != pb.end() && it->x <= p.x + 0.01 && !found; ++it) found = glm::length(*it - p) < 0.01;
      ASSERT_TRUE(found) << p.x << "," << p.y;
    }
  }
}

TEST(Baker, DeterministicPerSeedAndThreadCount) {
  const auto a = bytes_of(bake_tiles(test::small_world()));
  std::vector<std::vector<std::byte>> b;
  {
    ThreadLimit one(1);
    b = bytes_of(bake_tiles(test::small_world()));
  }
  EXPECT_EQ(a, b);
  EXPECT_NE(a, bytes_of(bake_tiles(test::small_world(600.0, 8))));
}

// The heightfield and the scatter (hashes, value noise, fractal sums) pinned to exact values: baked
// tile caches depend on every bit, so a change to the noise or the tile bytes must show up here.
TEST(Baker, HeightfieldAndScatterArePinned) {
  Heightfield hf;
  hf.seed = 77;
  struct Pin {
    double x, z;
    float height, slope;
  };
  const Pin pins[] = {{0.0, 0.0, 0x1.bcef2cp+6f, 0x1.3ecc38p-13f},
                      {123.5, -456.25, 0x1.7232cap+6f, 0x1.3da862p-5f},
                      {-10000.125, 2500.75, 0x1.046a0ap+6f, 0x1.5e6294p-4f},
                      {1499.99, 1500.01, 0x1.9aaaa6p+6f, 0x1.17e2bcp-13f}};
  for (const Pin& p : pins) {
    EXPECT_EQ(hf.height(p.x, p.z), p.height) << p.x << ", " << p.z;
    EXPECT_EQ(hf.slope(p.x, p.z), p.slope) << p.x << ", " << p.z;
  }
  BakeOptions o;
  o.seed = 5;
  o.world_max = {400.0, 400.0};
  o.terrain.amplitude = 25.0f;
  o.terrain.wavelength = 600.0f;
  std::vector<std::byte> all;
  std::size_t instances = 0;
  for (const Tile& t : bake_tiles(o)) {
    const std::vector<std::byte> b = serialize_tile(t);
    all.insert(all.end(), b.begin(), b.end());
    instances += t.instance_count();
  }
  EXPECT_EQ(instances, 26668u);
  EXPECT_EQ(checksum64(all), 0xD62062EAFA4E2624ull);
}

TEST(Baker, RulesSpacingAndAltitude) {
  BakeOptions o = test::small_world();
  o.types[0].max_altitude = 22.0f;
  const auto tiles = bake_tiles(o);
  std::size_t trees = 0;
  for (const Tile& t : tiles)
    for (const Group& g : t.groups) {
      const std::uint32_t type = t.prefabs[g.prefab].type_id;
      std::vector<glm::vec3> pts;
      for (const InstanceRecord& r : g.instances) pts.push_back(decode_position(g, r));
      if (type == 0) {
        trees += pts.size();
        for (const glm::vec3& p : pts) EXPECT_LE(p.y, 22.0f + 0.01f);
      }
      // Jittered cells: neighbours at least spacing / 2 apart (minus quantization).
      const float min_d = 0.5f * o.types[type].spacing - 0.01f;
      for (std::size_t i = 0; i < pts.size() && i < 400; ++i)
        for (std::size_t j = i + 1; j < pts.size(); ++j) {
          const glm::vec2 d(pts[i].x - pts[j].x, pts[i].z - pts[j].z);
          ASSERT_GE(glm::length(d), min_d) << "type " << type;
        }
    }
  EXPECT_GT(trees, 0u);
}

TEST(Baker, TileSizeIsConfigurableAndDoesNotChangeThePlants) {
  BakeOptions a = test::small_world(400.0);
  a.merge_below = 0;
  BakeOptions b = a;
  b.tile_size = 100.0f;
  const auto ta = bake_tiles(a), tb = bake_tiles(b);
  EXPECT_EQ(ta.size(), 4u);
  EXPECT_EQ(tb.size(), 16u);
  for (const Tile& t : tb) EXPECT_EQ(t.size, 100.0f);
  expect_same_points(world_points(ta), world_points(tb));
}

TEST(Baker, ClearingsStayBareAndTheRestIsUnchanged) {
  BakeOptions open = test::small_world(400.0);
  open.merge_below = 0;
  BakeOptions cleared = open;
  const Clearing clearing{.min = {50.0, 120.0}, .max = {230.0, 260.0}};
  cleared.clearings = {clearing};
  const auto all = world_points(bake_tiles(open)), rest = world_points(bake_tiles(cleared));
  std::size_t inside = 0;
  for (const auto& [type, points] : all) {
    std::vector<glm::dvec2> outside;
    for (const glm::dvec2& p : points) {
      // Positions are quantized in tiles: keep a 1 cm margin at the clearing's border.
      const bool in = clearing.contains(p.x, p.y);
      const bool near_edge = std::abs(p.x - clearing.min.x) < 0.01 || std::abs(p.x - clearing.max.x) < 0.01 ||
                             std::abs(p.y - clearing.min.y) < 0.01 || std::abs(p.y - clearing.max.y) < 0.01;
      if (near_edge) continue;
      if (in) {
        ++inside;
      } else {
        outside.push_back(p);
      }
    }
    for (const glm::dvec2& p : rest.at(type))
      EXPECT_FALSE(clearing.contains(p.x + 0.01, p.y + 0.01) && clearing.contains(p.x - 0.01, p.y - 0.01));
    EXPECT_GE(rest.at(type).size(), outside.size());
  }
  EXPECT_GT(inside, 100u);
}

// A clearing that spares a type (grass on a battlefield) keeps exactly that type's plants, inside it
// too, and clears the others as before.
TEST(Baker, AClearingKeepsTheTypesItSpares) {
  BakeOptions open = test::small_world(400.0);
  open.merge_below = 0;
  ASSERT_GE(open.types.size(), 2u);
  BakeOptions cleared = open;
  const Clearing clearing{.min = {50.0, 120.0}, .max = {230.0, 260.0}, .spared_types = 1u << 1};
  cleared.clearings = {clearing};
  const auto all = world_points(bake_tiles(open)), rest = world_points(bake_tiles(cleared));
  ASSERT_TRUE(all.count(1));
  std::size_t spared_inside = 0;
  for (const glm::dvec2& p : rest.at(1)) spared_inside += clearing.contains(p.x, p.y);
  EXPECT_GT(spared_inside, 10u);
  expect_same_points({{1u, all.at(1)}}, {{1u, rest.at(1)}});
  for (const auto& [type, points] : rest) {
    if (type == 1) continue;
    for (const glm::dvec2& p : points)
      EXPECT_FALSE(clearing.contains(p.x + 0.01, p.y + 0.01) && clearing.contains(p.x - 0.01, p.y - 0.01));
  }
}

TEST(Baker, TinyGroupsMergeIntoTheLargestNeighbour) {
  BakeOptions o = test::small_world(400.0);
  o.merge_below = 8;
  std::vector<WorldInstance> in;
  for (int i = 0; i < 3; ++i) in.push_back({0, {10.0 + i * 5.0, 0.0, 50.0}, 0.0f, 1.0f, {1, 2, 3}});
  for (int i = 0; i < 40; ++i) in.push_back({0, {210.0 + i * 3.0, 0.0, 50.0}, 0.0f, 1.0f, {1, 2, 3}});
  for (int i = 0; i < 20; ++i) in.push_back({0, {10.0 + i * 3.0, 0.0, 250.0}, 0.0f, 1.0f, {1, 2, 3}});
  const auto tiles = bake_tiles(o, &in);
  ASSERT_EQ(tiles.size(), 2u);  // tile (0,0) lost its only group
  const Tile& east = tiles[0].x == 1 ? tiles[0] : tiles[1];
  ASSERT_EQ(east.groups.size(), 1u);
  EXPECT_EQ(east.groups[0].instances.size(), 43u);
  EXPECT_LT(east.groups[0].bounds.min.x, 0.0f);  // the group's AABB now reaches into the west tile
}

TEST(Baker, CsvInputAndErrors) {
  test::TempDir dir("csv");
  const auto path = dir.path / "plants.csv";
  {
    std::ofstream f(path);
    f << "type,x,y,z,yaw,scale,r,g,b\n# comment\ntree,10.5,2,20.25,90,1.5,10,20,30\n2,450,1,-30,0,1,1,2,3\n";
  }
  const auto types = default_plant_types();
  const auto in = read_instance_csv(path, types);
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].type, 0u);
  EXPECT_EQ(in[1].type, 2u);
  EXPECT_NEAR(in[0].yaw, 1.5707963f, 1e-6f);
  const auto tiles = bake_tiles(test::small_world(), &in);
  EXPECT_EQ(tiles.size(), 2u);  // tiles (0,0) and (2,-1)
  {
    std::ofstream f(path);
    f << "tree,1,2,3,0,1,0,0,0\nshrub,1,2,3,0,1,0,0,0\n";
  }
  try {
    (void)read_instance_csv(path, types);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("plants.csv:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("shrub"), std::string::npos) << e.what();
  }
  {
    std::ofstream f(path);
    f << "tree,1,2,x,0,1,0,0,0\n";
  }
  EXPECT_THROW((void)read_instance_csv(path, types), Error);
}

TEST(Baker, ProgressReachesTheTotal) {
  std::size_t last_done = 0, last_total = 0, calls = 0;
  const auto tiles = bake_tiles(test::small_world(), nullptr, [&](std::size_t d, std::size_t t) {
    EXPECT_GE(d, last_done);
    last_done = d;
    last_total = t;
    ++calls;
  });
  EXPECT_GT(calls, 0u);
  EXPECT_EQ(last_done, tiles.size());
  EXPECT_EQ(last_total, tiles.size());
}

TEST(Baker, BakeToDirectoryWritesEveryTile) {
  test::TempDir dir("bake");
  const BakeSummary s = bake_to_directory(test::small_world(400.0), dir.path);
  EXPECT_EQ(s.tiles, 4u);
  std::size_t n = 0, bytes = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    n += read_tile(e.path()).instance_count();
    bytes += e.file_size();
  }
  EXPECT_EQ(n, s.instances);
  EXPECT_EQ(bytes, s.bytes);
}

// Tiles are written from several threads: when the disk is full every one of them fails whole, the
// bake throws one error naming a tile, and no temporary or partial tile is left in the folder.
TEST(Baker, BakeToDirectoryOnAFullDiskLeavesNoPartialTile) {
  test::TempDir dir("bake_full");
  std::string msg;
  {
    const myriad::test::FileSizeLimit limit(64);
    ASSERT_TRUE(limit.active());
    try {
      bake_to_directory(test::small_world(400.0), dir.path);
    } catch (const Error& e) {
      msg = e.what();
    }
  }
  EXPECT_NE(msg.find(".mveg"), std::string::npos) << msg;
  EXPECT_NE(msg.find("File too large"), std::string::npos) << msg;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path)) << myriad::test::folder_listing(dir.path).size();
}

// Found by fuzz/instance_csv_fuzz.cpp: a finite but huge yaw became an infinite float, and a huge x or
// z overflowed the int32 tile key (undefined behaviour) instead of giving an error.
TEST(Baker, CsvExtremeNumbers) {
  const auto types = default_plant_types();
  const auto in = parse_instance_csv("tree,1,0,2,2e222,1,9,9,9\nbush,0,0,0,-450,1,9,9,9\n", types, "x.csv");
  ASSERT_EQ(in.size(), 2u);
  EXPECT_TRUE(std::isfinite(in[0].yaw));
  EXPECT_NEAR(in[1].yaw, -1.5707963f, 1e-6f);  // -450 degrees is a quarter turn clockwise
  const BakeOptions options;
  for (const char* csv :
       {"tree,1e300,0,0,0,1,9,9,9\n", "tree,0,0,-1e15,0,1,9,9,9\n", "tree,0,1e300,0,0,1,9,9,9\n"}) {
    const auto instances = parse_instance_csv(csv, types, "x.csv");
    EXPECT_THROW((void)bake_tiles(options, &instances), Error) << csv;
  }
}

TEST(PlantMesh, GridMeshPlacesVerticesRowByRowAndFacesUp) {
  std::vector<glm::uvec2> order;
  const PlantMesh m = make_grid_mesh(3, [&](std::uint32_t i, std::uint32_t j, glm::vec3& p, glm::vec3& n) {
    order.push_back({i, j});
    EXPECT_EQ(n, kWorldUp);  // the default normal
    p = glm::vec3(float(i), 0.0f, float(j));
    if (i == 3 && j == 3) n = glm::vec3(1.0f, 0.0f, 0.0f);
  });
  ASSERT_EQ(m.positions.size(), 16u);
  ASSERT_EQ(m.normals.size(), 16u);
  EXPECT_EQ(m.triangle_count(), 18u);
  for (std::size_t k = 0; k < order.size(); ++k) {
    EXPECT_EQ(order[k], glm::uvec2(k % 4, k / 4));  // i fastest, then j
    EXPECT_EQ(m.positions[k], glm::vec3(float(k % 4), 0.0f, float(k / 4)));
  }
  EXPECT_EQ(m.normals[15], glm::vec3(1.0f, 0.0f, 0.0f));
  EXPECT_EQ(m.normals[14], kWorldUp);
  for (std::size_t t = 0; t < m.triangle_count(); ++t) {
    const glm::vec3 a = m.positions[m.indices[3 * t]], b = m.positions[m.indices[3 * t + 1]],
                    c = m.positions[m.indices[3 * t + 2]];
    EXPECT_GT(glm::cross(b - a, c - a).y, 0.0f) << "triangle " << t;  // counter-clockwise from above
  }
  EXPECT_EQ(make_grid_mesh(0, [](std::uint32_t, std::uint32_t, glm::vec3&, glm::vec3&) {}).triangle_count(),
            0u);
}

// The bake's options check themselves in one place (both bake functions call it), naming the field:
// the tile and extent limits that keep tile keys and tile-relative positions in range, and the
// quadtree's own options.
TEST(Baker, OptionsNameTheInvalidField) {
  const auto where = [](const BakeOptions& o) { return myriad::test::where_of([&] { o.validate(); }); };
  EXPECT_EQ(where({}), "");
  BakeOptions o;
  o.tile_size = 0.5f;
  EXPECT_EQ(where(o), "BakeOptions::tile_size");
  EXPECT_THROW((void)bake_tiles(o), Error);
  o = {};
  o.world_max = {1000.0, 0.0};  // empty along z
  EXPECT_EQ(where(o), "BakeOptions::world_max");
  o.world_max = {1000.0, std::nan("")};
  EXPECT_EQ(where(o), "BakeOptions::world_max");
  o.world_min = {2.0e6, 0.0};
  o.world_max = {2.0e6 + 100.0, 100.0};  // beyond 1,000 km
  EXPECT_EQ(where(o), "BakeOptions::world_min");
  o = {};
  o.tree.leaf_capacity = 0;
  EXPECT_EQ(where(o), "QuadtreeOptions::leaf_capacity");
}

}  // namespace
}  // namespace myriad::vegetation
