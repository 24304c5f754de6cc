// Block texture packs (voxel/tiles/tile_pack.hpp) on packs written here: a Luanti-layout folder without a
// mapping (missing tiles keep the built-in ones and are reported), a tiles.json mapping with an overlay,
// tiles of 16 and 32 texels in one pack, smaller packs, the mip chain, and the errors a bad pack gives
// (one line naming the file, or listing the valid materials).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "error_where.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/core/image/mip_chain.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/tiles/builtin_tiles.hpp"
#include "myriad/voxel/tiles/tile_pack.hpp"

namespace myriad::voxel {
namespace {

namespace fs = std::filesystem;
using Rgba = std::array<std::uint8_t, 4>;

// A fresh, empty folder per test.
fs::path pack_folder(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("myriad_tile_pack_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A w x h tile whose texel (x, y) is colour(x, y).
template <class F>
void write_tile(const fs::path& path, std::uint32_t w, std::uint32_t h, F colour) {
  std::vector<std::uint8_t> rgba;
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const Rgba c = colour(x, y);
      rgba.insert(rgba.end(), c.begin(), c.end());
    }
  write_png_rgba8(path, w, h, rgba);
}
void write_flat(const fs::path& path, std::uint32_t size, Rgba c) {
  write_tile(path, size, size, [&](std::uint32_t, std::uint32_t) { return c; });
}
void write_text(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// Texel (x, y) of layer `tile` at mip `level`.
Rgba texel(const TileSet& set, std::uint32_t tile, std::uint32_t x, std::uint32_t y, std::size_t level = 0) {
  const std::size_t size = set.texture.size >> level;
  const std::uint8_t* p = &set.texture.levels.at(level)[((tile * size + y) * size + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}
Rgba builtin_texel(std::uint32_t tile, std::uint32_t x, std::uint32_t y) {
  static const TextureArray builtin = builtin_tiles();
  const std::uint8_t* p = &builtin.levels[0][((tile * kBuiltinTileSize + y) * kBuiltinTileSize + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

std::uint32_t tile_of(MaterialId m, int side) {
  const Material& mat = materials()[m];
  return side == 0 ? mat.tile_top : side == 1 ? mat.tile_side : mat.tile_bottom;
}

// The message of the Error `f` throws (empty when it throws none).
template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

constexpr Rgba kRed{200, 0, 0, 255}, kGreen{0, 180, 0, 255}, kBlue{0, 0, 220, 255}, kBrown{120, 80, 40, 255};

TEST(TilePack, LuantiLayoutLoadsWithoutAMappingAndReportsWhatStaysBuiltIn) {
  const fs::path dir = pack_folder("luanti");
  // A texel pattern for stone (x in red, y in green), flat colours elsewhere; the grass side overlay is
  // opaque green over its top 4 rows and clear below, drawn over dirt. No clay, no lamp, no snow side.
  write_tile(dir / "default_stone.png", 16, 16, [](std::uint32_t x, std::uint32_t y) {
    return Rgba{std::uint8_t(x * 16), std::uint8_t(y * 16), 7, 255};
  });
  write_flat(dir / "default_dirt.png", 16, kBrown);
  write_flat(dir / "default_grass.png", 16, kGreen);
  write_tile(dir / "default_grass_side.png", 16, 16, [](std::uint32_t, std::uint32_t y) {
    return y < 4 ? kGreen : Rgba{255, 255, 255, 0};
  });
  write_flat(dir / "default_sand.png", 16, Rgba{230, 210, 150, 255});
  write_flat(dir / "default_gravel.png", 16, Rgba{128, 128, 128, 255});
  write_flat(dir / "default_snow.png", 16, Rgba{250, 250, 250, 255});
  write_flat(dir / "unrelated.png", 16, kBlue);

  const TileSet set = load_tile_pack(dir);
  EXPECT_EQ(set.mapping, "Luanti layout");
  EXPECT_EQ(set.texture.size, 16u);
  EXPECT_EQ(set.texture.layers, kTileCount);
  EXPECT_EQ(set.texture.levels.size(), 5u) << "16, 8, 4, 2, 1";
  EXPECT_EQ(set.builtin, (std::vector<std::string>{"clay", "snow side", "lamp_warm", "lamp_cold", "lamp_red",
                                                   "wood", "stone_brick"}));
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x)
      ASSERT_EQ(texel(set, tile_of(kStone, 0), x, y),
                (Rgba{std::uint8_t(x * 16), std::uint8_t(y * 16), 7, 255}));
  EXPECT_EQ(texel(set, tile_of(kGrass, 0), 5, 5), kGreen);
  EXPECT_EQ(texel(set, tile_of(kGrass, 1), 5, 2), kGreen) << "the overlay's band";
  EXPECT_EQ(texel(set, tile_of(kGrass, 1), 5, 9), kBrown) << "dirt under the clear part";
  EXPECT_EQ(texel(set, tile_of(kGrass, 2), 5, 9), kBrown);
  EXPECT_EQ(texel(set, tile_of(kSnow, 2), 0, 0), kBrown) << "snow's bottom is Luanti's dirt";
  EXPECT_EQ(texel(set, tile_of(kClay, 0), 3, 11), builtin_texel(tile_of(kClay, 0), 3, 11));
  EXPECT_EQ(texel(set, tile_of(kSnow, 1), 3, 11), builtin_texel(tile_of(kSnow, 1), 3, 11));
  EXPECT_EQ(texel(set, tile_of(kLampRed, 0), 9, 1), builtin_texel(tile_of(kLampRed, 0), 9, 1));
  // Flat tiles stay flat down the chain; level 1 of the pattern is its linear-light 2 x 2 average.
  EXPECT_EQ(texel(set, tile_of(kGrass, 0), 0, 0, 4), kGreen);
  std::vector<std::uint8_t> stone(set.texture.levels[0].begin() + tile_of(kStone, 0) * 16 * 16 * 4,
                                  set.texture.levels[0].begin() + (tile_of(kStone, 0) + 1) * 16 * 16 * 4);
  const auto chain = mip_chain_srgb_rgba8(16, 16, stone);
  const std::uint8_t* l1 = &chain[1][(3 * 8 + 5) * 4];
  EXPECT_EQ(texel(set, tile_of(kStone, 0), 5, 3, 1), (Rgba{l1[0], l1[1], l1[2], l1[3]}));
}

TEST(TilePack, AMappingFileNamesTilesPerMaterialAndSide) {
  const fs::path dir = pack_folder("mapping");
  write_flat(dir / "rock.png", 16, kRed);
  write_flat(dir / "soil.png", 16, kBrown);
  write_flat(dir / "turf.png", 16, kGreen);
  write_tile(dir / "band.png", 16, 16, [](std::uint32_t, std::uint32_t y) {
    return y < 2 ? kBlue : Rgba{0, 0, 0, 0};
  });
  // Luanti names in the folder are ignored once a mapping is there.
  write_flat(dir / "default_sand.png", 16, kBlue);
  write_text(dir / "tiles.json", R"({
    "version": 1,
    "materials": {
      "stone": "rock.png",
      "dirt": "soil.png",
      "grass": {"top": "turf.png", "side": "soil.png^band.png", "bottom": "soil.png"}
    }
  })");
  const TileSet set = load_tile_pack(dir);
  EXPECT_EQ(set.mapping, "tiles.json");
  EXPECT_EQ(texel(set, tile_of(kStone, 1), 1, 1), kRed);
  EXPECT_EQ(texel(set, tile_of(kGrass, 0), 1, 1), kGreen);
  EXPECT_EQ(texel(set, tile_of(kGrass, 1), 1, 1), kBlue);
  EXPECT_EQ(texel(set, tile_of(kGrass, 1), 1, 2), kBrown);
  EXPECT_EQ(texel(set, tile_of(kSand, 0), 4, 4), builtin_texel(tile_of(kSand, 0), 4, 4));
  // Snow's bottom shares dirt's tile, so it shows soil.png too and is not reported.
  EXPECT_EQ(set.builtin,
            (std::vector<std::string>{"sand", "gravel", "clay", "snow top", "snow side", "lamp_warm",
                                      "lamp_cold", "lamp_red", "wood", "stone_brick"}));
}

TEST(TilePack, TilesOf16And32TexelsMakeA32TexelPack) {
  const fs::path dir = pack_folder("sizes");
  write_tile(dir / "default_stone.png", 32, 32, [](std::uint32_t x, std::uint32_t y) {
    return Rgba{std::uint8_t(x * 8), std::uint8_t(y * 8), 0, 255};
  });
  write_tile(dir / "default_dirt.png", 16, 16, [](std::uint32_t x, std::uint32_t y) {
    return Rgba{std::uint8_t(x * 16), 0, std::uint8_t(y * 16), 255};
  });
  const TileSet set = load_tile_pack(dir);
  EXPECT_EQ(set.texture.size, 32u);
  EXPECT_EQ(set.texture.levels.size(), 6u);
  EXPECT_EQ(set.texture.levels[0].size(), std::size_t(32) * 32 * 4 * kTileCount);
  EXPECT_EQ(texel(set, tile_of(kStone, 0), 31, 17), (Rgba{248, 136, 0, 255}));
  // 16-texel tiles repeat each texel over 2 x 2: the pixel art stays crisp.
  for (const auto& [x, y] : {std::pair{0u, 0u}, std::pair{7u, 30u}, std::pair{31u, 31u}}) {
    EXPECT_EQ(texel(set, tile_of(kDirt, 0), x, y),
              (Rgba{std::uint8_t(x / 2 * 16), 0, std::uint8_t(y / 2 * 16), 255}));
    EXPECT_EQ(texel(set, tile_of(kSand, 0), x, y), builtin_texel(tile_of(kSand, 0), x / 2, y / 2));
  }
}

TEST(TilePack, SmallerPacksAverageTheBuiltInTilesDown) {
  const fs::path dir = pack_folder("small");
  write_flat(dir / "default_stone.png", 4, kRed);
  const TileSet set = load_tile_pack(dir);
  EXPECT_EQ(set.texture.size, 4u);
  EXPECT_EQ(set.texture.levels.size(), 3u);
  const TextureArray builtin = builtin_tiles();
  const std::uint32_t sand = tile_of(kSand, 0);
  const std::vector<std::uint8_t> tile(builtin.levels[0].begin() + sand * 16 * 16 * 4,
                                       builtin.levels[0].begin() + (sand + 1) * 16 * 16 * 4);
  const auto chain = mip_chain_srgb_rgba8(16, 16, tile);
  const std::uint8_t* p = &chain[2][(1 * 4 + 2) * 4];
  EXPECT_EQ(texel(set, sand, 2, 1), (Rgba{p[0], p[1], p[2], p[3]}));
}

TEST(TilePack, BadPacksNameTheFileOnOneLine) {
  const fs::path dir = pack_folder("bad");
  // A tile the mapping names but the folder lacks.
  write_text(dir / "tiles.json", R"({"materials": {"stone": "rock.png"}})");
  EXPECT_EQ(test::where_of([&] { load_tile_pack(dir); }), (dir / "rock.png").string());
  // Not square, then not a power of two.
  write_tile(dir / "rock.png", 16, 8, [](std::uint32_t, std::uint32_t) { return kRed; });
  EXPECT_EQ(test::where_of([&] { load_tile_pack(dir); }), (dir / "rock.png").string());
  EXPECT_NE(message_of([&] { load_tile_pack(dir); }).find("not square"), std::string::npos);
  write_flat(dir / "rock.png", 12, kRed);
  EXPECT_EQ(test::where_of([&] { load_tile_pack(dir); }), (dir / "rock.png").string());
  EXPECT_NE(message_of([&] { load_tile_pack(dir); }).find("power of two"), std::string::npos);
  // Larger than the limit (refused before decoding).
  write_flat(dir / "rock.png", 1024, kRed);
  EXPECT_EQ(test::where_of([&] { load_tile_pack(dir); }), (dir / "rock.png").string());
  // Not a PNG at all.
  write_text(dir / "rock.png", "not an image");
  EXPECT_EQ(test::where_of([&] { load_tile_pack(dir); }), (dir / "rock.png").string());
  // A Luanti-layout tile that is bad is an error too (only missing ones fall back).
  const fs::path luanti = pack_folder("bad_luanti");
  write_flat(luanti / "default_stone.png", 16, kRed);
  write_tile(luanti / "default_dirt.png", 16, 32, [](std::uint32_t, std::uint32_t) { return kRed; });
  EXPECT_EQ(test::where_of([&] { load_tile_pack(luanti); }), (luanti / "default_dirt.png").string());
  EXPECT_EQ(message_of([&] { load_tile_pack(luanti); }).find('\n'), std::string::npos);
  // A folder that is missing, or holds no mapping and no Luanti tile.
  EXPECT_EQ(test::where_of([&] { load_tile_pack(dir / "nowhere"); }), (dir / "nowhere").string());
  const fs::path empty = pack_folder("empty");
  write_flat(empty / "stone.png", 16, kRed);
  EXPECT_EQ(test::where_of([&] { load_tile_pack(empty); }), empty.string());
}

TEST(TilePack, BadMappingsListWhatIsValid) {
  const fs::path dir = pack_folder("bad_mapping");
  write_flat(dir / "a.png", 16, kRed);
  write_flat(dir / "b.png", 16, kBlue);
  const fs::path json = dir / "tiles.json";
  const auto load = [&] { load_tile_pack(dir); };
  write_text(json, R"({"materials": {"granite": "a.png"}})");
  EXPECT_EQ(test::where_of(load), json.string());
  const std::string unknown = message_of(load);
  EXPECT_NE(unknown.find("granite"), std::string::npos);
  EXPECT_NE(unknown.find(tile_mapping_materials()), std::string::npos) << unknown;
  EXPECT_EQ(
      tile_mapping_materials(),
      "stone, dirt, grass, sand, gravel, clay, snow, lamp_warm, lamp_cold, lamp_red, wood, stone_brick");
  EXPECT_EQ(unknown.find('\n'), std::string::npos);
  write_text(json, R"({"materials": {"air": "a.png"}})");
  EXPECT_NE(message_of(load).find("unknown material 'air'"), std::string::npos);
  // A baked model has no tiles of its own: the message names the blocks whose tiles its parts take.
  write_text(json, R"({"materials": {"fence": "a.png"}})");
  const std::string model = message_of(load);
  EXPECT_NE(model.find("baked model 'fence'"), std::string::npos) << model;
  EXPECT_NE(model.find("wood"), std::string::npos) << model;
  write_text(json, R"({"materials": {"grass": {"front": "a.png"}}})");
  EXPECT_NE(message_of(load).find("unknown side 'front'"), std::string::npos);
  write_text(json, R"({"materials": {"stone": 3}})");
  EXPECT_EQ(test::where_of(load), json.string());
  write_text(json, R"({"materials": {"stone": "a.png^"}})");
  EXPECT_EQ(test::where_of(load), json.string());
  write_text(json, R"({"materials": {"stone": "../a.png"}})");
  EXPECT_NE(message_of(load).find("outside the pack folder"), std::string::npos);
  write_text(json, R"({"materials": {"stone": "/etc/passwd"}})");
  EXPECT_NE(message_of(load).find("outside the pack folder"), std::string::npos);
  write_text(json, R"({"materials": {"stone": "a.png"}, "version": 2})");
  EXPECT_NE(message_of(load).find("version"), std::string::npos);
  write_text(json, R"({"material": {}})");
  EXPECT_EQ(test::where_of(load), json.string());
  write_text(json, R"({"materials": {"stone": "a.png",)");
  EXPECT_EQ(test::where_of(load), json.string());
  EXPECT_EQ(message_of(load).find('\n'), std::string::npos);
  // Dirt and grass's bottom share one texture: they cannot take different files.
  write_text(json, R"({"materials": {"dirt": "a.png", "grass": {"bottom": "b.png"}}})");
  const std::string shared = message_of(load);
  EXPECT_NE(shared.find("grass bottom"), std::string::npos) << shared;
  EXPECT_NE(shared.find("dirt"), std::string::npos) << shared;
  // An empty mapping keeps every built-in tile.
  write_text(json, R"({"materials": {}})");
  const TileSet all_builtin = load_tile_pack(dir);
  EXPECT_EQ(all_builtin.texture.size, kBuiltinTileSize);
  EXPECT_EQ(all_builtin.builtin.size(), std::size_t(kFirstModelMaterial - 1)) << "every block, no model";
}

}  // namespace
}  // namespace myriad::voxel
