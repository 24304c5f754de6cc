// Voxel materials: texture tiles per side, transition priority, lamp emission and how their tiles may
// turn. Ids index the table returned by materials(); id 0 is air. Unknown ids are rejected at the edges
// (World::set_voxel).
#pragma once

#include <cstdint>
#include <span>

namespace myriad::voxel {

enum MaterialId : std::uint8_t {
  kAir = 0,
  kStone,
  kDirt,
  kGrass,
  kSand,
  kGravel,
  kClay,
  kSnow,
  kLampWarm,
  kLampCold,
  kLampRed,
  kMaterialCount
};

struct Material {
  const char* name;
  std::uint16_t tile_top, tile_side, tile_bottom;  // texture-atlas tiles (< 1023)
  std::uint8_t priority;                           // higher bleeds over lower in texture transitions
  std::uint8_t emit_r, emit_g, emit_b;             // lamp light, levels 0..15
  // The side tile has an up (a band of the top material, as grass and snow sides): per-cell tile
  // variation may mirror it but never turn it (mesh/tile_variation.hpp). Top and bottom tiles may always
  // turn.
  bool upright_side;
};

std::span<const Material> materials();
inline bool valid_material(std::uint8_t id) { return id < kMaterialCount; }

}  // namespace myriad::voxel
