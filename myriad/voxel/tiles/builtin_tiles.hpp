// The built-in block textures, generated in code (no third-party art): one 16 x 16 RGBA8 tile per tile id
// of the material table (voxel/data/material.cpp), as the layers of an array texture. What the terrain
// draws without a texture pack, and what a pack's missing tiles fall back to.
#pragma once

#include <cstdint>

#include "myriad/core/image/texture_array.hpp"

namespace myriad::voxel {

inline constexpr std::uint32_t kBuiltinTileSize = 16;
// Tile ids 0..15, one array layer each (layer t = tile t). Tile 0 is no material's: a magenta checker that
// shows an error; 15 is spare.
inline constexpr std::uint32_t kTileCount = 16;

// size kBuiltinTileSize, kTileCount layers, one level (no mip chain: the terrain draws level 0 only, as it
// always has for these tiles); deterministic.
TextureArray builtin_tiles();

}  // namespace myriad::voxel
