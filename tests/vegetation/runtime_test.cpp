// Runtime expansion and merge: matrices place instances where the tile says, 10 km from the origin
// lands on the same pixel as at the origin, types merge across tiles, memory returns to zero, rebase.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "myriad/core/packing.hpp"
#include "myriad/vegetation/runtime.hpp"
#include "test_util.hpp"

namespace myriad::vegetation {
namespace {

Tile one_instance_tile(std::int32_t x, std::int32_t z, glm::vec3 local, float yaw, float scale) {
  BakeOptions o;
  o.types.resize(1);
  std::vector<WorldInstance> in{
      {0, glm::dvec3(x * 200.0, 0.0, z * 200.0) + glm::dvec3(local), yaw, scale, {10, 20, 30}}};
  auto tiles = bake_tiles(o, &in);
  return tiles.at(0);
}

glm::vec3 apply(const RuntimeInstance& r, glm::vec3 p) {
  const glm::vec4 h(p, 1.0f);
  return {glm::dot(r.row0, h), glm::dot(r.row1, h), glm::dot(r.row2, h)};
}

TEST(Runtime, ExpansionPlacesRotatesScalesAndPacksTint) {
  const Tile t = one_instance_tile(2, -1, {12.5f, 3.0f, 7.25f}, 1.0f, 2.0f);
  const PlantInstance p = decode_instance(t.groups[0], t.groups[0].instances[0]);
  const glm::dvec3 origin(300.0, 1.0, -150.0);
  RuntimeInstance r;
  SphereArrays s;
  expand_instances(t, 0, 0, 1, origin, &r, s);
  const glm::dvec3 expect = t.origin() + glm::dvec3(p.position) - origin;
  const glm::vec3 at = apply(r, {0, 0, 0});
  EXPECT_NEAR(at.x, expect.x, 1e-5);
  EXPECT_NEAR(at.y, expect.y, 1e-5);
  EXPECT_NEAR(at.z, expect.z, 1e-5);
  // +X of the plant rotates about +Y by yaw (right-handed: +X towards -Z) and scales.
  const glm::vec3 x = apply(r, {1, 0, 0}) - at;
  EXPECT_NEAR(x.x, std::cos(p.yaw) * p.scale, 1e-5);
  EXPECT_NEAR(x.z, -std::sin(p.yaw) * p.scale, 1e-5);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(r.spare.x), pack_rgba8_bytes(10, 20, 30, 0));
  EXPECT_GE(r.spare.y, 0.0f);
  EXPECT_LT(r.spare.y, 1.0f);
  EXPECT_EQ(r.spare.z, s.r[0]);
  EXPECT_GT(s.r[0], 0.0f);
}

TEST(Runtime, TenKilometresFromTheOriginLandsOnTheSamePixel) {
  const glm::vec3 local(12.3f, 3.7f, 7.9f);
  const glm::dvec3 camera_offset(-3.1, 1.7, 30.3);
  const Tile near_tile = one_instance_tile(0, 0, local, 0.5f, 1.0f);
  const Tile far_tile = one_instance_tile(50, 50, local, 0.5f, 1.0f);  // 10 km away on both axes
  ASSERT_EQ(std::memcmp(&near_tile.groups[0].instances[0], &far_tile.groups[0].instances[0], 14), 0);
  RuntimeInstance a, b;
  SphereArrays sa, sb;
  expand_instances(near_tile, 0, 0, 1, near_tile.origin() + camera_offset, &a, sa);
  expand_instances(far_tile, 0, 0, 1, far_tile.origin() + camera_offset, &b, sb);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof(glm::vec4) * 3), 0);  // the matrices are bit-identical
  const glm::mat4 vp = perspective(1.0f, 1.0f, 0.1f, 500.0f) *
                       glm::lookAt(glm::vec3(0.0f), glm::vec3(apply(a, {0, 0, 0})), glm::vec3(0, 1, 0));
  auto pixel = [&](const RuntimeInstance& r, glm::vec3 p) {
    const glm::vec4 c = vp * glm::vec4(apply(r, p), 1.0f);
    return glm::ivec2(glm::floor((glm::vec2(c) / c.w * 0.5f + 0.5f) * 1920.0f));
  };
  for (glm::vec3 p : {glm::vec3(0.0f), glm::vec3(1.0f, 5.0f, -0.5f), glm::vec3(-2.0f, 7.0f, 1.0f)})
    EXPECT_EQ(pixel(a, p), pixel(b, p));
  // The naive path (float world position minus float camera) is off by up to ~0.5 mm at 10 km.
  const glm::vec3 naive = glm::vec3(far_tile.origin()) +
                          decode_position(far_tile.groups[0], far_tile.groups[0].instances[0]) -
                          glm::vec3(far_tile.origin() + camera_offset);
  EXPECT_GT(glm::length(naive - apply(b, {0, 0, 0})), 1e-5f);
}

TEST(Runtime, MergesTypesAcrossTilesAndFreesEverything) {
  auto tiles = bake_tiles(test::small_world(400.0));
  ASSERT_EQ(tiles.size(), 4u);
  RuntimeWorld w({150.0, 0.0, 150.0});
  EXPECT_EQ(w.resident_bytes(), 0u);
  std::size_t total = 0;
  std::vector<std::shared_ptr<const Tile>> shared;
  for (Tile& t : tiles) {
    total += t.instance_count();
    shared.push_back(std::make_shared<const Tile>(std::move(t)));
    const auto& tile = shared.back();
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g) {
      const auto n = static_cast<std::uint32_t>(tile->groups[g].instances.size());
      w.append(tile, g, 0, n / 3);  // in parts, as the streamer does under its budget
      w.append(tile, g, n / 3, n - n / 3);
    }
  }
  EXPECT_EQ(w.types().size(), 3u);  // one runtime type per plant type, not per tile
  EXPECT_EQ(w.instance_count(), total);
  for (const auto& type : w.types()) {
    EXPECT_EQ(type.segments.size(), 4u);  // parts of one group coalesce
    EXPECT_EQ(type.spheres.size(), type.instances.size());
  }
  EXPECT_GE(w.resident_bytes(), total * kRuntimeBytesPerInstance);

  // Rebase equals a fresh expansion at the new origin.
  RuntimeWorld fresh({-5000.0, 10.0, 9000.0});
  for (const auto& tile : shared)
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      fresh.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  w.rebase({-5000.0, 10.0, 9000.0});
  ASSERT_EQ(w.types().size(), fresh.types().size());
  for (std::size_t i = 0; i < w.types().size(); ++i) {
    EXPECT_EQ(std::memcmp(w.types()[i].instances.data(), fresh.types()[i].instances.data(),
                          w.types()[i].instances.size() * sizeof(RuntimeInstance)),
              0);
    EXPECT_EQ(w.types()[i].spheres.x, fresh.types()[i].spheres.x);
  }

  w.remove_tile({shared[1]->x, shared[1]->z});
  EXPECT_EQ(w.instance_count(), total - shared[1]->instance_count());
  // The remaining instances are exactly the other tiles' ones, in order.
  for (const auto& type : w.types())
    for (const auto& seg : type.segments) {
      const auto& tile = *std::find_if(shared.begin(), shared.end(), [&](auto& t) {
        return TileKey{t->x, t->z} == seg.tile;
      });
      std::vector<RuntimeInstance> expect(seg.count);
      SphereArrays s;
      expand_instances(*tile, seg.group, seg.group_first, seg.count, w.render_origin(), expect.data(), s);
      ASSERT_EQ(
          std::memcmp(expect.data(), type.instances.data() + seg.first, seg.count * sizeof(RuntimeInstance)),
          0);
    }
  for (const auto& t : shared) w.remove_tile({t->x, t->z});
  EXPECT_EQ(w.instance_count(), 0u);
  EXPECT_TRUE(w.types().empty());
  EXPECT_EQ(w.resident_bytes(), 0u);
}

}  // namespace
}  // namespace myriad::vegetation
