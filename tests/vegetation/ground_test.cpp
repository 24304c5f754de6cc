// The ground under a vegetation field: pads levelled into the noise (flat plazas, a block's footprint
// whose edges the ground meets), tiles of grid meshes with skirts at several spacings, and the
// per-frame level choice.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/bake/ground.hpp"
#include "error_where.hpp"

namespace myriad::vegetation {
namespace {

float noise_ground(double x, double z) { return float(0.01 * x + 0.02 * z); }

TEST(Ground, FlatPadsLevelInsideAndBlendBackOutside) {
  const std::vector<GroundPad> pads{{.min = {0.0, 0.0}, .max = {10.0, 10.0}, .blend = 20.0f, .height = 5.0f}};
  EXPECT_FLOAT_EQ(level_ground(noise_ground(3, 4), 3, 4, pads), 5.0f);
  EXPECT_FLOAT_EQ(level_ground(noise_ground(40, 4), 40, 4, pads), noise_ground(40, 4));  // 30 m out
  // Halfway through the blend: halfway between (smoothstep(0.5) = 0.5).
  const float mid = level_ground(noise_ground(20, 5), 20, 5, pads);
  EXPECT_NEAR(mid, 0.5f * (5.0f + noise_ground(20, 5)), 1e-5f);
  // Continuous at the pad's edge and monotone through the blend.
  float previous = level_ground(noise_ground(10, 5), 10, 5, pads);
  EXPECT_FLOAT_EQ(previous, 5.0f);
  for (double x = 10.5; x <= 30.0; x += 0.5) {
    const float h = level_ground(noise_ground(x, 5), x, 5, pads);
    EXPECT_LE(h, previous + 1e-5f);
    previous = h;
  }
}

TEST(Ground, ABlockPadMeetsEachEdgeColumnAndSinksUnderTheBlock) {
  // A 16 x 8 block whose column tops rise along x; one low notch on the south edge.
  std::vector<float> tops(16 * 8);
  for (std::uint32_t z = 0; z < 8; ++z)
    for (std::uint32_t x = 0; x < 16; ++x) tops[z * 16 + x] = 10.0f + float(x);
  tops[5] = 2.0f;  // (5, 0)
  const GroundPad pad = block_pad({100.0, 200.0}, {16, 8}, tops, 30.0f, 1);
  const std::vector<GroundPad> pads{pad};
  // Just outside the west edge: the west column's top; outside the east edge: the east column's.
  EXPECT_NEAR(level_ground(0.0f, 99.999, 204.5, pads), 10.0f, 1e-2f);
  EXPECT_NEAR(level_ground(0.0f, 116.001, 204.5, pads), 25.0f, 1e-2f);
  // The south edge takes the lowest top within one column: the notch lowers its neighbours too.
  EXPECT_NEAR(level_ground(0.0f, 104.5, 199.999, pads), 2.0f, 1e-2f);
  EXPECT_NEAR(level_ground(0.0f, 106.5, 199.999, pads), 2.0f, 1e-2f);
  EXPECT_NEAR(level_ground(0.0f, 107.5, 199.999, pads), 16.0f, 1e-2f);
  // Inside, the ground goes under the block: 3 m in it is at 0, never above the column's top.
  EXPECT_NEAR(level_ground(7.0f, 108.5, 204.0, pads), 0.0f, 1e-4f);
  for (double d = 0.0; d <= 3.0; d += 0.25)
    EXPECT_LE(level_ground(0.0f, 100.0 + d, 204.5, pads), 10.0f + 1e-4f);
  // Far away the noise is back.
  EXPECT_FLOAT_EQ(level_ground(7.0f, 160.0, 204.0, pads), 7.0f);
}

TEST(Ground, HeightfieldAppliesItsPadsAndItsSignatureFollowsThem) {
  Heightfield hf;
  hf.amplitude = 10.0f;
  hf.base = -5.0f;
  const std::string plain = hf.signature();
  hf.pads.push_back({.min = {0.0, 0.0}, .max = {50.0, 50.0}, .blend = 10.0f, .height = 3.0f});
  EXPECT_FLOAT_EQ(hf.height(25.0, 25.0), 3.0f);
  EXPECT_NE(hf.signature(), plain);
  const std::string one = hf.signature();
  hf.pads[0].height = 3.5f;
  EXPECT_NE(hf.signature(), one);
}

TEST(Ground, TilesFollowTheHeightsWithCoarserLevelsAndSkirts) {
  const auto height = [](double x, double z) { return float(3.0 * std::sin(x * 0.05) + 0.02 * z); };
  GroundTileOptions o;
  o.tile_size = 64.0;
  o.spacing = {4.0, 8.0, 16.0, 32.0};
  const glm::dvec3 origin(10.0, 0.0, 20.0);
  const std::vector<GroundTile> tiles = make_ground_tiles(height, {0.0, 0.0}, {100.0, 64.0}, origin, o);
  ASSERT_EQ(tiles.size(), 2u);  // 64 m and a 36 m-wide last column
  for (const GroundTile& t : tiles) {
    for (std::uint32_t l = 1; l < kGroundLods; ++l)
      EXPECT_LT(t.lods[l].triangle_count(), t.lods[l - 1].triangle_count());
    for (std::uint32_t l = 0; l < kGroundLods; ++l) {
      const PlantMesh& m = t.lods[l];
      std::size_t on_ground = 0, below = 0;
      for (const glm::vec3& p : m.positions) {
        const float h = height(double(p.x) + origin.x, double(p.z) + origin.z);
        if (std::abs(p.y - h) < 1e-3f)
          ++on_ground;
        else if (p.y < h - o.skirt + 1e-3f)
          ++below;
      }
      EXPECT_EQ(on_ground + below, m.positions.size()) << "level " << l;
      EXPECT_GT(below, 0u);  // the skirt
      for (const std::uint32_t i : m.indices) ASSERT_LT(i, m.positions.size());
    }
  }
  EXPECT_FLOAT_EQ(tiles[1].bounds.max.x, float(100.0 - origin.x));
  EXPECT_FLOAT_EQ(tiles[0].bounds.min.z, float(0.0 - origin.z));
}

TEST(Ground, NearTilesAreFinerAndTilesOutsideTheViewAreSkipped) {
  const auto flat = [](double, double) { return 0.0f; };
  GroundTileOptions o;
  o.tile_size = 100.0;
  o.switch_distance = {150.0f, 400.0f, 900.0f};
  const std::vector<GroundTile> tiles =
      make_ground_tiles(flat, {0.0, 0.0}, {2000.0, 100.0}, glm::dvec3(0.0), o);
  // Standing at x = 50 looking along +x.
  const glm::vec3 eye(50.0f, 2.0f, 50.0f);
  const glm::mat4 view = glm::lookAt(eye, eye + glm::vec3(1.0f, -0.05f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::mat4 proj = glm::perspective(1.0f, 1.5f, 0.1f, 5000.0f);
  const Frustum frustum = Frustum::from_view_proj(proj * view);
  std::vector<int> levels;
  pick_ground_lods(tiles, frustum, eye, o, levels);
  ASSERT_EQ(levels.size(), 20u);
  EXPECT_EQ(levels[0], 0);
  EXPECT_EQ(levels[2], 1);   // 150 m away
  EXPECT_EQ(levels[5], 2);   // 450 m
  EXPECT_EQ(levels[15], 3);  // 1450 m
  for (std::size_t t = 1; t < levels.size(); ++t) EXPECT_GE(levels[t], levels[t - 1]);
  // Looking the other way, only the tile underfoot stays.
  const glm::mat4 back = glm::lookAt(eye, eye + glm::vec3(-1.0f, -0.05f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  pick_ground_lods(tiles, Frustum::from_view_proj(proj * back), eye, o, levels);
  EXPECT_EQ(levels[0], 0);
  for (std::size_t t = 2; t < levels.size(); ++t) EXPECT_EQ(levels[t], -1);
}

// The ground's options name the field they reject; make_ground_tiles checks them first.
TEST(Ground, OptionsNameTheInvalidField) {
  EXPECT_NO_THROW(GroundTileOptions{}.validate());
  GroundTileOptions o;
  o.switch_distance = {400.0f, 300.0f, 2000.0f};  // level 2 would switch before level 1
  EXPECT_EQ(myriad::test::where_of([&] {
              (void)make_ground_tiles([](double, double) { return 0.0f; }, {0.0, 0.0}, {100.0, 100.0},
                                      glm::dvec3(0.0), o);
            }),
            "GroundTileOptions::switch_distance");
  o = {};
  o.spacing[3] = 0.0;
  EXPECT_THROW(o.validate(), Error);
}

}  // namespace
}  // namespace myriad::vegetation
