#include "myriad/voxel/tiles/tile_pack.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <system_error>

#include "myriad/core/image/image_io.hpp"
#include "myriad/core/image/mip_chain.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/tiles/builtin_tiles.hpp"

namespace myriad::voxel {
namespace {

namespace fs = std::filesystem;

constexpr std::array<const char*, 3> kSideNames = {"top", "side", "bottom"};

std::uint32_t side_tile(const Material& m, int side) {
  return side == 0 ? m.tile_top : side == 1 ? m.tile_side : m.tile_bottom;
}

// A tile as the mapping writes it: a file, or files separated by '^', each drawn over the ones before it
// by its alpha (Luanti's overlay, "default_dirt.png^default_grass_side.png").
std::vector<std::string> overlay_parts(const std::string& expression) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = expression.find('^', start);
    parts.push_back(expression.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

// What the mapping gives each (material, side): the tile expression, or nothing (keep the built-in).
using SideFiles = std::array<std::optional<std::string>, 3>;
using Mapping = std::map<std::uint8_t, SideFiles>;

// Luanti's minetest_game default mod, as its nodes.lua draws these blocks (grass and snow are
// dirt_with_grass and dirt_with_snow). It has no tiles for the cold and red lamps.
Mapping luanti_mapping() {
  const auto all = [](const char* file) { return SideFiles{file, file, file}; };
  Mapping m;
  m[kStone] = all("default_stone.png");
  m[kDirt] = all("default_dirt.png");
  m[kGrass] = {"default_grass.png", "default_dirt.png^default_grass_side.png", "default_dirt.png"};
  m[kSand] = all("default_sand.png");
  m[kGravel] = all("default_gravel.png");
  m[kClay] = all("default_clay.png");
  m[kSnow] = {"default_snow.png", "default_dirt.png^default_snow_side.png", "default_dirt.png"};
  m[kLampWarm] = all("default_meselamp.png");
  m[kWood] = all("default_wood.png");
  m[kStoneBrick] = all("default_stone_brick.png");
  return m;
}

// Block materials only: a baked model's parts take the tiles of blocks (wood, stone_brick, lamp_warm).
std::optional<std::uint8_t> material_named(std::string_view name) {
  const auto table = materials();
  for (std::size_t i = 1; i < kFirstModelMaterial; ++i)
    if (name == table[i].name) return std::uint8_t(i);
  return std::nullopt;
}

Mapping read_mapping(const fs::path& file) {
  const std::vector<std::byte> bytes = read_file(file);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(reinterpret_cast<const char*>(bytes.data()),
                                reinterpret_cast<const char*>(bytes.data()) + bytes.size());
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("the tile mapping is not valid JSON: ") + e.what(), file.string());
  }
  const std::string where = file.string();
  if (!doc.is_object())
    throw Error("the tile mapping is not a JSON object", where,
                R"(write {"version": 1, "materials": {...}})");
  for (const auto& [key, value] : doc.items())
    if (key != "version" && key != "materials")
      throw Error("the tile mapping has an unknown key '" + key + "'", where,
                  "its keys are version and materials");
  if (doc.contains("version") &&
      !(doc["version"].is_number_integer() && doc["version"] == kTileMappingVersion))
    throw Error("the tile mapping's version is " + doc["version"].dump() + ", not " +
                    std::to_string(kTileMappingVersion),
                where, "this Myriad reads version " + std::to_string(kTileMappingVersion));
  if (!doc.contains("materials") || !doc["materials"].is_object())
    throw Error("the tile mapping has no \"materials\" object", where,
                R"(map material names to files: {"materials": {"stone": "my_stone.png"}})");
  Mapping mapping;
  for (const auto& [name, value] : doc["materials"].items()) {
    const std::optional<std::uint8_t> id = material_named(name);
    for (std::size_t m = kFirstModelMaterial; m < kMaterialCount; ++m)
      if (name == materials()[m].name)
        throw Error("the tile mapping names the baked model '" + name + "'", where,
                    "a model's parts take the tiles of blocks: map " + tile_mapping_materials());
    if (!id)
      throw Error("the tile mapping names an unknown material '" + name + "'", where,
                  "valid materials: " + tile_mapping_materials());
    SideFiles& sides = mapping[*id];
    auto file_of = [&](const nlohmann::json& v, const std::string& what) {
      if (!v.is_string() || v.get<std::string>().empty())
        throw Error("the tile for " + what + " is not a file name", where,
                    R"(give a PNG file name in the pack folder, or "base.png^overlay.png")");
      for (const std::string& part : overlay_parts(v.get<std::string>())) {
        if (part.empty())
          throw Error("the tile for " + what + " has an empty file name", where,
                      R"(give "base.png" or "base.png^overlay.png")");
        const fs::path path(part);
        if (path.is_absolute() || std::find(path.begin(), path.end(), fs::path("..")) != path.end())
          throw Error("the tile for " + what + " names '" + part + "', outside the pack folder", where,
                      "name files inside the folder, relative to it");
      }
      return v.get<std::string>();
    };
    if (value.is_string()) {
      const std::string f = file_of(value, name);
      sides = {f, f, f};
      continue;
    }
    if (!value.is_object())
      throw Error("the tile of material '" + name + "' is neither a file name nor an object", where,
                  R"(write "file.png" for every side, or {"top": ..., "side": ..., "bottom": ...})");
    for (const auto& [side, side_file] : value.items()) {
      const auto* it = std::find(kSideNames.begin(), kSideNames.end(), side);
      if (it == kSideNames.end())
        throw Error("the tile mapping names an unknown side '" + side + "' of material '" + name + "'", where,
                    "sides are top, side and bottom");
      sides[std::size_t(it - kSideNames.begin())] = file_of(side_file, name + " " + side);
    }
  }
  return mapping;
}

bool is_power_of_two(std::uint32_t v) { return v != 0 && std::has_single_bit(v); }

// `image` (square, side a power of two, at most `size`) scaled up to `size` by repeating texels.
std::vector<std::uint8_t> scale_up(const RgbaImage& image, std::uint32_t size) {
  if (image.width == size) return image.rgba;
  const std::uint32_t k = size / image.width;
  std::vector<std::uint8_t> out(std::size_t(size) * size * 4);
  for (std::uint32_t y = 0; y < size; ++y)
    for (std::uint32_t x = 0; x < size; ++x)
      std::copy_n(&image.rgba[(std::size_t(y / k) * image.width + x / k) * 4], 4,
                  &out[(std::size_t(y) * size + x) * 4]);
  return out;
}

// `top` drawn over `base` by its alpha (8-bit, as Luanti composes overlays).
void draw_over(std::vector<std::uint8_t>& base, const std::vector<std::uint8_t>& top) {
  for (std::size_t i = 0; i < base.size(); i += 4) {
    const int a = top[i + 3];
    for (std::size_t k = 0; k < 3; ++k)
      base[i + k] = std::uint8_t((top[i + k] * a + base[i + k] * (255 - a) + 127) / 255);
    base[i + 3] = std::uint8_t(a + (base[i + 3] * (255 - a) + 127) / 255);
  }
}

// Built-in tile `tile` at `size` texels: repeated up, or taken from its linear-light mip chain.
std::vector<std::uint8_t> builtin_tile(const TextureArray& builtin, std::uint32_t tile, std::uint32_t size) {
  const std::size_t bytes = std::size_t(kBuiltinTileSize) * kBuiltinTileSize * 4;
  RgbaImage image{kBuiltinTileSize, kBuiltinTileSize,
                  std::vector<std::uint8_t>(builtin.levels[0].begin() + std::ptrdiff_t(bytes * tile),
                                            builtin.levels[0].begin() + std::ptrdiff_t(bytes * (tile + 1)))};
  if (size >= kBuiltinTileSize) return scale_up(image, size);
  const auto chain = mip_chain_srgb_rgba8(kBuiltinTileSize, kBuiltinTileSize, image.rgba);
  return chain[std::size_t(std::countr_zero(kBuiltinTileSize / size))];
}

// "grass side", or "grass" when all three sides of grass are listed.
std::vector<std::string> name_sides(const std::vector<std::array<bool, 3>>& listed) {
  std::vector<std::string> out;
  const auto table = materials();
  for (std::size_t m = 1; m < kFirstModelMaterial; ++m) {
    const auto& s = listed[m];
    if (s[0] && s[1] && s[2]) {
      out.emplace_back(table[m].name);
      continue;
    }
    for (int side = 0; side < 3; ++side)
      if (s[std::size_t(side)])
        out.push_back(std::string(table[m].name) + " " + kSideNames[std::size_t(side)]);
  }
  return out;
}

}  // namespace

std::string tile_mapping_materials() {
  std::string names;
  const auto table = materials();
  for (std::size_t i = 1; i < kFirstModelMaterial; ++i)
    names += (names.empty() ? "" : ", ") + std::string(table[i].name);
  return names;
}

TileSet builtin_tile_set() { return {builtin_tiles(), "built-in", "", {}}; }

TileSet load_tile_pack(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw Error("the texture pack folder does not exist", folder.string(),
                "give a folder of PNG tiles (with tiles.json, or named as Luanti's default textures)");
  const fs::path mapping_file = folder / kTileMappingFile;
  const bool has_mapping = fs::exists(mapping_file, ec);
  const Mapping mapping = has_mapping ? read_mapping(mapping_file) : luanti_mapping();
  const auto table = materials();

  // Each texture slot (tile id) takes one expression; sides that share a slot must agree.
  struct Slot {
    std::string expression;
    std::string first_user;  // "grass bottom", for messages
  };
  std::map<std::uint32_t, Slot> slots;
  for (const auto& [id, sides] : mapping)
    for (int side = 0; side < 3; ++side) {
      const std::optional<std::string>& e = sides[std::size_t(side)];
      if (!e) continue;
      const std::uint32_t tile = side_tile(table[id], side);
      const std::string user = std::string(table[id].name) + " " + kSideNames[std::size_t(side)];
      const auto [it, inserted] = slots.try_emplace(tile, Slot{*e, user});
      if (!inserted && it->second.expression != *e)
        throw Error(it->second.first_user + " and " + user +
                        " share one texture but the mapping gives them '" + it->second.expression +
                        "' and '" + *e + "'",
                    mapping_file.string(),
                    "give both the same file (they share the built-in tile " + std::to_string(tile) + ")");
    }

  // Read every file once; a Luanti-layout slot whose files are not all there keeps the built-in tile.
  std::map<std::string, RgbaImage> images;
  std::map<std::uint32_t, std::vector<std::string>> from_pack;  // tile -> its files, in drawing order
  std::uint32_t size = 0;
  for (const auto& [tile, slot] : slots) {
    const std::vector<std::string> parts = overlay_parts(slot.expression);
    bool present = true;
    for (const std::string& part : parts) {
      const fs::path path = folder / part;
      if (fs::is_regular_file(path, ec)) continue;
      if (has_mapping)
        throw Error("the texture pack has no tile file '" + part + "'", path.string(),
                    "tiles.json names it for " + slot.first_user);
      present = false;
    }
    if (!present) continue;
    for (const std::string& part : parts) {
      if (images.count(part)) continue;
      const fs::path path = folder / part;
      RgbaImage image = read_png_rgba8(path, kMaxTileSize);
      if (image.width != image.height)
        throw Error("the tile is not square (" + std::to_string(image.width) + " x " +
                        std::to_string(image.height) + " pixels)",
                    path.string(),
                    "tiles must be square with a power-of-two side, up to " + std::to_string(kMaxTileSize));
      if (!is_power_of_two(image.width))
        throw Error("the tile's side is not a power of two (" + std::to_string(image.width) + " pixels)",
                    path.string(), "use 16, 32, 64, ... up to " + std::to_string(kMaxTileSize) + " pixels");
      size = std::max(size, image.width);
      images.emplace(part, std::move(image));
    }
    from_pack[tile] = parts;
  }
  if (!has_mapping && from_pack.empty())
    throw Error("the folder has no " + std::string(kTileMappingFile) + " and none of Luanti's default tiles",
                folder.string(), "add tiles.json (docs/FORMATS.md) or tiles named default_stone.png, ...");
  if (size == 0) size = kBuiltinTileSize;  // a mapping that names no material: the built-in tiles

  TileSet set;
  set.source = folder.string();
  set.mapping = has_mapping ? kTileMappingFile : "Luanti layout";
  const TextureArray builtin = builtin_tiles();
  std::vector<std::vector<std::uint8_t>> layers(kTileCount);
  for (std::uint32_t tile = 0; tile < kTileCount; ++tile) {
    const auto it = from_pack.find(tile);
    if (it == from_pack.end()) {
      layers[tile] = builtin_tile(builtin, tile, size);
      continue;
    }
    layers[tile] = scale_up(images.at(it->second.front()), size);
    for (std::size_t p = 1; p < it->second.size(); ++p)
      draw_over(layers[tile], scale_up(images.at(it->second[p]), size));
  }
  std::vector<std::array<bool, 3>> listed(table.size(), {false, false, false});
  for (std::size_t m = 1; m < kFirstModelMaterial; ++m)
    for (int side = 0; side < 3; ++side)
      listed[m][std::size_t(side)] = !from_pack.count(side_tile(table[m], side));
  set.builtin = name_sides(listed);

  // The mip chain of every layer, each level's layers side by side in layer order.
  TextureArray& a = set.texture;
  a.size = size;
  a.layers = kTileCount;
  for (std::uint32_t tile = 0; tile < kTileCount; ++tile) {
    const auto chain = mip_chain_srgb_rgba8(size, size, layers[tile]);
    a.levels.resize(chain.size());
    for (std::size_t l = 0; l < chain.size(); ++l)
      a.levels[l].insert(a.levels[l].end(), chain[l].begin(), chain[l].end());
  }
  return set;
}

}  // namespace myriad::voxel
