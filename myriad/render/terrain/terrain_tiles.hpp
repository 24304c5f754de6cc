// Procedurally generated terrain textures (no third-party art): one RGBA8 strip of square tiles,
// tile t at texels [t*size, (t+1)*size) x [0, size). Tile ids are those of voxel/data/material.cpp.
#pragma once

#include <cstdint>
#include <vector>

namespace myriad::render {

inline constexpr std::uint32_t kTerrainTileSize = 16;
inline constexpr std::uint32_t kTerrainTileCount = 16;

// width = kTerrainTileCount * kTerrainTileSize, height = kTerrainTileSize; deterministic.
std::vector<std::uint8_t> generate_terrain_tiles();

}  // namespace myriad::render
