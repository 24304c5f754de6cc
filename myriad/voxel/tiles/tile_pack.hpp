// Block texture packs (SPEC M9): PNG tiles named per material and side, read into the array texture the
// terrain shader samples (layer t = tile id t of the material table, voxel/data/material.cpp) with a full
// mip chain. A pack is a folder holding a mapping file (tiles.json, docs/FORMATS.md) or laid out as
// Luanti's default textures (default_stone.png, default_grass.png, ...), read with a built-in mapping.
// Tiles a Luanti-layout pack lacks keep the built-in ones, and the result says which; a mapping file's
// tiles must all be there. Everything is checked here, before any GPU work.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "myriad/core/image/texture_array.hpp"

namespace myriad::voxel {

// The mapping file a pack folder may hold.
inline constexpr const char* kTileMappingFile = "tiles.json";
inline constexpr int kTileMappingVersion = 1;
// Largest tile side a pack may use (texels); every side is a power of two.
inline constexpr std::uint32_t kMaxTileSize = 512;

struct TileSet {
  // kTileCount layers of `size` x `size` texels. A pack's: every level down to 1 x 1 (each halving the one
  // above in linear light); the built-in tiles alone: level 0 only.
  TextureArray texture;
  std::string source;   // "built-in" or the pack folder
  std::string mapping;  // "tiles.json", "Luanti layout" or "" (built-in)
  // Materials (or "material side") that keep the built-in tiles because the pack has none for them,
  // in material order, e.g. {"lamp_cold", "lamp_red"}.
  std::vector<std::string> builtin;
};

// The built-in tiles (builtin_tiles()) as a tile set.
TileSet builtin_tile_set();

// Reads the pack in `folder`. Tiles must be square PNGs whose side is a power of two up to kMaxTileSize;
// tiles of different sizes are scaled up to the largest by repeating texels (nearest), and built-in
// tiles standing in for missing ones are scaled to the same size (repeated up, or averaged down).
// Throws myriad::Error with a one-line message naming the file: a folder that is missing or holds neither
// tiles.json nor any Luanti tile, a tile that is missing (named by tiles.json), unreadable, not square or
// not a power of two; a mapping that is not valid JSON, names an unknown material (the message lists the
// valid ones) or side, or gives two sides that share a texture slot different files.
TileSet load_tile_pack(const std::filesystem::path& folder);

// The material names a mapping may use, comma-separated (every material but air).
std::string tile_mapping_materials();

}  // namespace myriad::voxel
