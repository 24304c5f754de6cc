// Tile format: round trip within the stated quantization error, file round trip, and loud errors for
// truncated, corrupted, wrong-version and inconsistent files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <stdexcept>
#include <utility>

#include "../core/file_size_limit.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "test_util.hpp"

namespace myriad::vegetation {
namespace {

// Random instances with a unique tint per instance, so decoded instances can be matched to inputs.
std::vector<WorldInstance> random_instances(std::size_t n, std::uint32_t seed, double extent) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> pos(0.0, extent), h(-30.0, 120.0);
  std::uniform_real_distribution<float> yaw(0.0f, 6.28f), scale(0.5f, 3.0f);
  std::vector<WorldInstance> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i].type = static_cast<std::uint32_t>(i % 3);
    out[i].position = {pos(rng), h(rng), pos(rng)};
    out[i].yaw = yaw(rng);
    out[i].scale = scale(rng);
    out[i].tint = {std::uint8_t(i & 0xff), std::uint8_t(i >> 8 & 0xff), std::uint8_t(i >> 16)};
  }
  return out;
}

TEST(TileFormat, RecordIs14BytesAndDiskCostUnder16BytesPerInstance) {
  static_assert(sizeof(InstanceRecord) == 14);
  auto o = test::small_world(400.0);
  const auto tiles = bake_tiles(o);
  std::size_t bytes = 0, instances = 0;
  for (const Tile& t : tiles) {
    bytes += serialize_tile(t).size();
    instances += t.instance_count();
  }
  ASSERT_GT(instances, 10000u);
  EXPECT_LE(double(bytes) / double(instances), 16.0);
}

TEST(TileFormat, RoundTripWithinQuantizationError) {
  BakeOptions o = test::small_world();
  o.merge_below = 0;
  const auto input = random_instances(20000, 3, 600.0);
  const auto tiles = bake_tiles(o, &input);
  std::size_t seen = 0;
  for (const Tile& baked : tiles) {
    const Tile t = parse_tile(serialize_tile(baked), "memory");
    ASSERT_EQ(t.groups.size(), baked.groups.size());
    for (const Group& g : t.groups) {
      const float ex = g.pos_extent.x / 65535.0f * 0.5f + 1e-4f,
                  ey = g.pos_extent.y / 65535.0f * 0.5f + 1e-4f,
                  ez = g.pos_extent.z / 65535.0f * 0.5f + 1e-4f;
      for (const InstanceRecord& r : g.instances) {
        const PlantInstance p = decode_instance(g, r);
        const std::size_t i =
            std::size_t(p.tint[0]) | std::size_t(p.tint[1]) << 8 | std::size_t(p.tint[2]) << 16;
        ASSERT_LT(i, input.size());
        const WorldInstance& w = input[i];
        EXPECT_EQ(t.prefabs[g.prefab].type_id, w.type);
        const glm::dvec3 world = t.origin() + glm::dvec3(p.position);
        EXPECT_NEAR(world.x, w.position.x, ex);
        EXPECT_NEAR(world.y, w.position.y, ey);
        EXPECT_NEAR(world.z, w.position.z, ez);
        double dyaw = std::fmod(std::abs(double(p.yaw) - double(w.yaw)), 2.0 * std::numbers::pi);
        dyaw = std::min(dyaw, 2.0 * std::numbers::pi - dyaw);
        EXPECT_LE(dyaw, std::numbers::pi / 65536.0 + 1e-6);
        EXPECT_LE(std::abs(p.scale - w.scale), w.scale * (1.0f / 2048.0f));
        ++seen;
      }
    }
  }
  EXPECT_EQ(seen, input.size());
}

// The one tile of a small baked world, written into `dir`; returns it and its path.
std::pair<Tile, std::filesystem::path> write_one_tile(const test::TempDir& dir) {
  std::vector<Tile> tiles = bake_tiles(test::small_world(200.0));
  if (tiles.size() != 1) throw std::runtime_error("expected one tile, got " + std::to_string(tiles.size()));
  const auto path = dir.path / tile_file_name(tiles[0].x, tiles[0].z);
  write_tile(path, tiles[0]);
  return {std::move(tiles[0]), path};
}

TEST(TileFormat, FileRoundTripIsAtomicAndExact) {
  test::TempDir dir("format");
  const auto [tile, path] = write_one_tile(dir);
  EXPECT_EQ(read_file(path), serialize_tile(tile));
  EXPECT_EQ(serialize_tile(read_tile(path)), serialize_tile(tile));
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);  // no temporary left behind
}

// The disk fills up while a tile is written: the error names the tile, no partial file is left and
// the tile it would have replaced is still whole.
TEST(TileFormat, FailedWriteLeavesNoPartialFile) {
  test::TempDir dir("format_full");
  const auto [tile, path] = write_one_tile(dir);
  Tile other = tile;
  other.groups.resize(1);
  std::string msg;
  {
    const myriad::test::FileSizeLimit limit(64);
    ASSERT_TRUE(limit.active());
    try {
      write_tile(path, other);
    } catch (const Error& e) {
      msg = e.what();
    }
  }
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("File too large"), std::string::npos) << msg;
  EXPECT_EQ(myriad::test::folder_listing(dir.path), std::vector<std::string>{path.filename().string()});
  EXPECT_EQ(read_file(path), serialize_tile(tile));
}

TEST(TileFormat, FileNames) {
  std::int32_t x = 0, z = 0;
  EXPECT_TRUE(parse_tile_file_name("tile_-3_12.mveg", x, z));
  EXPECT_EQ(x, -3);
  EXPECT_EQ(z, 12);
  EXPECT_FALSE(parse_tile_file_name("tile_1_2.mveg.tmp-5", x, z));
  EXPECT_FALSE(parse_tile_file_name("tile_01_2.mveg", x, z));
  EXPECT_FALSE(parse_tile_file_name("other.bin", x, z));
}

std::string error_of(std::span<const std::byte> bytes) {
  try {
    (void)parse_tile(bytes, "tiles/tile_4_5.mveg");
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

class TileErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    BakeOptions o = test::small_world(200.0);
    o.types.resize(2);
    tile_ = bake_tiles(o)[0];
    bytes_ = serialize_tile(tile_);
  }
  // Re-seals a modified payload with a valid checksum, so only the semantic check can catch it.
  std::vector<std::byte> reseal(std::vector<std::byte> b) {
    const std::uint64_t sum = checksum64(std::span<const std::byte>(b).subspan(48));
    std::memcpy(b.data() + 40, &sum, 8);
    return b;
  }
  Tile tile_;
  std::vector<std::byte> bytes_;
};

TEST_F(TileErrors, TruncatedAtEveryLengthNamesTheFile) {
  for (std::size_t len = 0; len < bytes_.size(); len += std::max<std::size_t>(1, len / 16)) {
    const std::string e = error_of(std::span<const std::byte>(bytes_).first(len));
    ASSERT_FALSE(e.empty()) << len;
    EXPECT_NE(e.find("tile_4_5.mveg"), std::string::npos) << e;
  }
}

TEST_F(TileErrors, CorruptedPayloadFailsTheChecksum) {
  auto b = bytes_;
  b[b.size() / 2] ^= std::byte{0x10};
  EXPECT_NE(error_of(b).find("checksum"), std::string::npos) << error_of(b);
}

TEST_F(TileErrors, MagicAndVersion) {
  auto b = bytes_;
  b[0] = std::byte{'X'};
  EXPECT_NE(error_of(b).find("magic"), std::string::npos);
  b = bytes_;
  b[4] = std::byte{9};
  const std::string e = error_of(b);
  EXPECT_NE(e.find("version 9"), std::string::npos) << e;
  EXPECT_NE(e.find("re-bake"), std::string::npos) << e;
}

TEST_F(TileErrors, InconsistentContentWithValidChecksum) {
  // Group header of group 0 follows the prefab table.
  std::size_t g0 = 48;
  for (const Prefab& p : tile_.prefabs) g0 += 32 + 12 * p.lods.size();
  const std::size_t nodes0 = g0 + 64;
  auto poke_u32 = [&](std::size_t at, std::uint32_t v) {
    auto b = bytes_;
    std::memcpy(b.data() + at, &v, 4);
    return error_of(reseal(b));
  };
  EXPECT_NE(poke_u32(g0, 99).find("prefab index"), std::string::npos);
  EXPECT_NE(poke_u32(g0 + 12, 1).find("reserved"), std::string::npos);
  // Root node: instance count off by one.
  EXPECT_NE(poke_u32(nodes0 + 36, tile_.groups[0].nodes[0].instance_count - 1).find("root"),
            std::string::npos);
  // Root node: shrink its box so the group bounds no longer match.
  {
    auto b = bytes_;
    float v = tile_.groups[0].nodes[0].bounds.max.y - 1.0f;
    std::memcpy(b.data() + nodes0 + 16, &v, 4);
    std::memcpy(b.data() + g0 + 16 + 16, &v, 4);  // group bounds too, so the leaf check fires
    const std::string e = error_of(reseal(b));
    EXPECT_NE(e.find("bounds"), std::string::npos) << e;
  }
  // A child pointer that breaks the breadth-first layout.
  ASSERT_GT(tile_.groups[0].nodes[0].child_count, 0u);
  EXPECT_NE(poke_u32(nodes0 + 24, 0).find("breadth-first"), std::string::npos);
  // A LOD switch distance that is not increasing.
  {
    auto b = bytes_;
    const float zero = 0.0f;
    std::memcpy(b.data() + 48 + 32 + 12 + 8, &zero, 4);
    EXPECT_NE(error_of(reseal(b)).find("switch distances"), std::string::npos);
  }
  // Trailing garbage.
  {
    auto b = bytes_;
    b.push_back(std::byte{0});
    std::uint64_t payload = b.size() - 48;
    std::memcpy(b.data() + 32, &payload, 8);
    EXPECT_NE(error_of(reseal(b)).find("after the last group"), std::string::npos);
  }
}

}  // namespace
}  // namespace myriad::vegetation
