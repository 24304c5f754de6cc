// Per-cell tile variation (the article's "local-UV transform", SPEC V6): the texture tile of each cell side
// is mirrored and turned by quarter turns, chosen by a hash of the cell's world position and side, so a
// surface of one material does not repeat its tile on a visible grid. The mesher writes the transform (an
// atlas record's meta bits 4-6, a plain polygon's base texture index bits 10-12; voxel_layout.h) and
// terrain.frag applies it to the texel it reads. Side tiles with an up (grass and snow sides:
// Material::upright_side) are only mirrored, so their band stays on top.
#pragma once

#include <cstdint>

#include "myriad/core/math/math.hpp"
#include "myriad/core/math/noise.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {

inline constexpr std::uint32_t kUvTurns = 3u;    // bits 0-1: quarter turns
inline constexpr std::uint32_t kUvMirrorU = 4u;  // bit 2: mirror u, before turning
inline constexpr std::uint32_t kUvTransforms = 8u;

// A hash of a cell side: splitmix64 (core/math/noise.hpp) over the cell's x and z, then its y and side;
// every input bit reaches the top bits, which pick the transform.
inline std::uint64_t cell_side_hash(glm::ivec3 cell, int face) {
  const std::uint64_t xz = std::uint64_t(std::uint32_t(cell.x)) << 32 | std::uint32_t(cell.z);
  const std::uint64_t y_side = std::uint64_t(std::uint32_t(cell.y)) << 3 | std::uint64_t(face);
  return mix64(xz ^ mix64(y_side));
}

// The transform (quarter turns | kUvMirrorU) of the tile on side `face` of world cell `cell` made of
// `material`; for an inner plane `face` is its light side, whose tile it shows.
inline std::uint32_t cell_uv_transform(const Material& material, int face, glm::ivec3 cell) {
  const auto t = std::uint32_t(cell_side_hash(cell, face) >> 61);
  const bool side = face_axis(face) != 1;
  return side && material.upright_side ? t & kUvMirrorU : t;
}

// The texel of a size x size tile that texel `t` of the transformed tile shows (the CPU twin of
// terrain.frag's transform_texel): x mirrored first, then the quarter turns.
inline glm::uvec2 transform_texel(glm::uvec2 t, std::uint32_t size, std::uint32_t transform) {
  const std::uint32_t m = size - 1u;
  if (transform & kUvMirrorU) t.x = m - t.x;
  switch (transform & kUvTurns) {
    case 1:
      return {m - t.y, t.x};
    case 2:
      return {m - t.x, m - t.y};
    case 3:
      return {t.y, m - t.x};
    default:
      return t;
  }
}

}  // namespace myriad::voxel
