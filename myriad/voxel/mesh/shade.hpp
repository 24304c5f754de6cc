// Per-vertex ambient occlusion and soft light, and per-cell texture layers, read from a padded block.
// AO follows 0fps ("Ambient occlusion for Minecraft-like worlds") with the shapes' geometry: the four
// cells touching a vertex in the layer in front of the polygon each occlude by the part of their octant
// at the vertex that their shape fills (ShapeInfo::ao_quarters, quarters 0..4), so wedges and corners
// darken proportionally and full cubes exactly as in 0fps; AO is kept in quarter levels 0..12 (12 =
// unoccluded). Soft light averages the lamp and sun light of the cells around the vertex that let light
// through, then scales it by the AO level (SPEC V5, V8).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/mesh/padded.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/mesh/tile_variation.hpp"
#include "myriad/voxel/mesh/voxel_layout.h"

namespace myriad::voxel {

// AO in quarter levels from the occlusion (quarters 0..4) of the four cells at a vertex: the front cell
// (the one aligned with the polygon's cell), the two side cells and the diagonal corner cell. 0fps
// generalised: 12 minus the occlusion of the four, plus what a (nearly) full diagonal pair hides beyond
// the other pair's own occlusion: (a * b + 2) / 4 for the pair (a, b) — two full sides hide the vertex
// (level 0, as in 0fps). Symmetric in the two diagonals, so the level depends only on the four cells, not
// on which of them is the front: every polygon sampling that layer at the vertex gets the same AO. Full
// cubes (0 or 4; a visible face's front is never full) give exactly 4 x the 0fps level.
constexpr int kAoLevels = 12;
constexpr int vertex_ao(int front, int side1, int side2, int corner) {
  // Branch-free (the hot loops call this per vertex): inputs are 0..4, so the shifts divide exactly.
  const int sides = side1 + side2, diagonal = front + corner;
  const int hidden_by_sides = ((side1 * side2 + 2) >> 2) - diagonal;
  const int hidden_by_diagonal = ((front * corner + 2) >> 2) - sides;
  const int hidden = hidden_by_sides > hidden_by_diagonal ? hidden_by_sides : hidden_by_diagonal;
  const int level = kAoLevels - sides - diagonal - (hidden > 0 ? hidden : 0);
  return level > 0 ? level : 0;
}
// vertex_ao for every (front, side1, side2, corner) in 0..7, indexed front | side1 << 3 | side2 << 6 |
// corner << 9 (4 KiB): the shading loops look the level up.
struct AoTable {
  std::uint8_t v[8 * 8 * 8 * 8];
};
inline constexpr AoTable kAoTable = [] {
  AoTable t{};
  for (int i = 0; i < 8 * 8 * 8 * 8; ++i)
    t.v[i] = std::uint8_t(vertex_ao(i & 7, i >> 3 & 7, i >> 6 & 7, i >> 9 & 7));
  return t;
}();
inline int lookup_ao(int front, int side1, int side2, int corner) {
  return kAoTable.v[front | side1 << 3 | side2 << 6 | corner << 9];
}

// 0fps light does not come around a corner whose both sides are blocked.
constexpr bool corner_hidden(int side1, int side2) {
  return side1 == kAoQuartersFull && side2 == kAoQuartersFull;
}
// AO level (quarters) -> light factor (ao / 4 + 2) / 5 = (ao + 8) / 20: 0.4 .. 1.0.
constexpr int kAoNumeratorBase = 8;
constexpr int kAoDenominator = 20;
// Whole 0fps-style level 0..3 of a quarter level (atlas meta bits).
constexpr int ao_whole_level(int ao) { return (ao + 2) / 4; }

// Averaged light channel (sum of `count` 4-bit levels) scaled to 0..255 and by the AO factor, rounded.
constexpr std::uint8_t shade_channel(int sum, int count, int ao) {
  if (count == 0) return 0;
  const int num = 2 * sum * 17 * (ao + kAoNumeratorBase);
  const int den = 2 * count * kAoDenominator;
  return std::uint8_t((num + den / 2) / den);
}

// shade_channel for every (count 0..4, ao 0..12, sum 0..60): the hot loop looks it up instead of dividing.
struct ShadeChannelTable {
  std::uint8_t v[5][kAoLevels + 1][61];
};
inline constexpr ShadeChannelTable kShadeChannel = [] {
  ShadeChannelTable t{};
  for (int c = 0; c < 5; ++c)
    for (int ao = 0; ao <= kAoLevels; ++ao)
      for (int s = 0; s < 61; ++s) t.v[c][ao][s] = shade_channel(s, c, ao);
  return t;
}();

// No default member initialisers: the mesher keeps uninitialised arrays of these on the stack.
struct VertexShade {
  std::uint32_t light;  // core pack_light: R, G, B, sun bytes, AO applied
  int ao;               // quarter levels 0..12
};

// Padded-index step per axis (x, y, z).
inline constexpr int kPadStride[3] = {1, kPad* kPad, kPad};

// The four 4-bit channels of a Light16 spread into 16-bit lanes, so four cells sum in one add.
constexpr std::uint64_t spread_light_bits(Light16 l) {
  return std::uint64_t(l & 0xFu) | std::uint64_t(l & 0xF0u) << 12 | std::uint64_t(l & 0xF00u) << 24 |
         std::uint64_t(l & 0xF000u) << 36;
}
// spread_light_bits of the low and of the high byte of a Light16 (4 KiB): two loads and an or instead
// of four masks and shifts in the shading loops, which spread every cell they read.
struct SpreadLightTable {
  std::uint64_t low[256], high[256];
};
inline constexpr SpreadLightTable kSpreadLight = [] {
  SpreadLightTable t{};
  for (int i = 0; i < 256; ++i) {
    t.low[i] = spread_light_bits(Light16(i));
    t.high[i] = spread_light_bits(Light16(i << 8));
  }
  return t;
}();
inline std::uint64_t spread_light(Light16 l) {
  return kSpreadLight.low[l & 0xFF] | kSpreadLight.high[l >> 8];
}

// Corner bit of each axis in a corner index (x bit 0, y bit 2, z bit 1).
inline constexpr int kCornerAxisBit[3] = {1, 4, 2};

// The corner (cell corner id) of the front cell at the vertex, for a polygon whose light is sampled on
// side `face`: the front cell lies in the layer on that side, so the vertex is on its near side, at
// (p, q) = (pbit, qbit) of the side frame. The side cells differ in the p or q bit, the corner cell in both.
constexpr int front_corner(int face, int pbit, int qbit) {
  return (face_positive(face) ? 0 : kCornerAxisBit[face_axis(face)]) |
         (pbit ? kCornerAxisBit[side_axis_p(face)] : 0) | (qbit ? kCornerAxisBit[side_axis_q(face)] : 0);
}

// Shade from the four cells touching a vertex in one layer: `front` (padded index), the side cells
// front + dp and front + dq, and the corner cell front + dp + dq. `corner` is the front cell's corner at
// the vertex; cp / cq are the corner bits that flip along dp / dq.
inline VertexShade shade_cells(const PaddedBlock& b, const std::uint8_t* flags, const std::uint32_t* ao,
                               int front, int dp, int dq, int corner, int cp, int cq) {
  const int i1 = front + dp, i2 = front + dq, i3 = i1 + dq;
  const std::uint8_t m0 = b.form[std::size_t(front)], m1 = b.form[std::size_t(i1)];
  const std::uint8_t m2 = b.form[std::size_t(i2)], m3 = b.form[std::size_t(i3)];
  const int o0 = int(ao[m0] >> (4 * corner) & 0xF), o1 = int(ao[m1] >> (4 * (corner ^ cp)) & 0xF);
  const int o2 = int(ao[m2] >> (4 * (corner ^ cq)) & 0xF), o3 = int(ao[m3] >> (4 * (corner ^ cp ^ cq)) & 0xF);
  VertexShade out;
  out.ao = lookup_ao(o0, o1, o2, o3);
  std::uint64_t sum = 0;
  int count = 0;
  auto add = [&](int i, std::uint8_t m) {
    if (flags[m] & kShadeOpaque) return;
    sum += spread_light(b.light[std::size_t(i)]);
    ++count;
  };
  add(front, m0);
  add(i1, m1);
  add(i2, m2);
  if (!corner_hidden(o1, o2)) add(i3, m3);
  const auto& t = kShadeChannel.v[count][out.ao];
  out.light = std::uint32_t(t[sum & 0xFFFF]) | std::uint32_t(t[sum >> 16 & 0xFFFF]) << 8 |
              std::uint32_t(t[sum >> 32 & 0xFFFF]) << 16 | std::uint32_t(t[sum >> 48 & 0xFFFF]) << 24;
  return out;
}

// shade_cells for the vertex at side-frame corner (pbit, qbit) of the front cell `front` in the layer on
// side `face`.
inline VertexShade shade_side_corner(const PaddedBlock& b, const std::uint8_t* flags, const std::uint32_t* ao,
                                     int front, int face, int pbit, int qbit) {
  const int p = side_axis_p(face), q = side_axis_q(face);
  return shade_cells(b, flags, ao, front, pbit ? kPadStride[p] : -kPadStride[p],
                     qbit ? kPadStride[q] : -kPadStride[q], front_corner(face, pbit, qbit), kCornerAxisBit[p],
                     kCornerAxisBit[q]);
}

// Shade of lattice point `lattice` (padded coordinates) of a polygon of cell `cell` whose light is sampled
// on side `face`: the four cells touching the vertex in the layer on that side; the one aligned with the
// cell is "front", the two beside it "sides", the diagonal one "corner".
inline VertexShade shade_vertex(const PaddedBlock& b, glm::ivec3 cell, int face, glm::ivec3 lattice) {
  const int a = face_axis(face), p = side_axis_p(face), q = side_axis_q(face);
  glm::ivec3 front = cell;
  front[a] = face_positive(face) ? lattice[a] : lattice[a] - 1;
  const ShapeLut& lut = shape_lut();
  return shade_side_corner(b, lut.shade_flags.data(), lut.ao_corners.data(), pad_index(front), face,
                           lattice[p] == cell[p] ? 0 : 1, lattice[q] == cell[q] ? 0 : 1);
}

// Quad-local frame of a side, counter-clockwise seen from outside (u x v = outward normal): positive
// sides use (p, q), negative sides (q, p).
constexpr int quad_axis_u(int face) { return face_positive(face) ? side_axis_p(face) : side_axis_q(face); }
constexpr int quad_axis_v(int face) { return face_positive(face) ? side_axis_q(face) : side_axis_p(face); }

// The tile variation of side `face` of padded cell `cell` (cell_uv_transform at its world cell), or 0 when
// variation is off.
inline std::uint32_t cell_uv(const PaddedBlock& b, const Material* mats, int cell, int face, bool variation) {
  if (!variation) return 0;
  return cell_uv_transform(mats[b.material[std::size_t(cell)]], face, b.origin + pad_coord(cell));
}
// cell_uv placed in a plain polygon's base texture index (bits 10-12).
inline std::uint32_t cell_uv_bits(const PaddedBlock& b, const Material* mats, int cell, int face,
                                  bool variation) {
  return cell_uv(b, mats, cell, face, variation) << MYRIAD_VOXEL_TILE_BITS;
}

// Texture layers of the polygon of cell `cell` (padded index) on `face`: base tile, then up to three
// transition layers from in-plane neighbours of higher priority (lowest priority first), each
// tile | edge mask << 10 where the edge bits are u-, u+, v-, v+ of the quad frame. Returns {tex01, tex23}.
inline std::array<std::uint32_t, 2> cell_textures(const PaddedBlock& b, const std::uint8_t* flags,
                                                  const Material* mats, int cell, int face) {
  const std::uint8_t own = b.material[std::size_t(cell)];
  const int own_priority = mats[own].priority;
  std::uint8_t found_mat[4] = {0, 0, 0, 0};
  std::uint8_t found_edges[4] = {0, 0, 0, 0};
  int found = 0;
  const int su = kPadStride[quad_axis_u(face)], sv = kPadStride[quad_axis_v(face)];
  const int steps[4] = {-su, su, -sv, sv};
  for (int e = 0; e < 4; ++e) {
    const std::size_t k = std::size_t(cell + steps[e]);
    const std::uint8_t m = b.material[k];
    if (m == own || !(flags[b.form[k]] & kShadeSolid) || mats[m].priority <= own_priority) continue;
    int slot = 0;
    while (slot < found && found_mat[slot] != m) ++slot;
    if (slot == found) found_mat[found++] = m;
    found_edges[slot] = std::uint8_t(found_edges[slot] | 1u << e);
  }
  auto tile = [&](std::uint8_t m) -> std::uint32_t {
    return face == kPosY ? mats[m].tile_top : face == kNegY ? mats[m].tile_bottom : mats[m].tile_side;
  };
  std::uint32_t layers[4] = {tile(own), 0, 0, 0};
  if (found == 0) return {layers[0], 0};
  // Order by priority (then id) so the shader blends lower layers first; keep the three highest.
  for (int i = 1; i < found; ++i)
    for (int j = i; j > 0; --j) {
      const int pa = mats[found_mat[j - 1]].priority, pb = mats[found_mat[j]].priority;
      if (pa < pb || (pa == pb && found_mat[j - 1] < found_mat[j])) break;
      std::swap(found_mat[j - 1], found_mat[j]);
      std::swap(found_edges[j - 1], found_edges[j]);
    }
  const int first = found > 3 ? found - 3 : 0;
  for (int i = first; i < found; ++i)
    layers[1 + i - first] = tile(found_mat[i]) | std::uint32_t(found_edges[i]) << MYRIAD_VOXEL_TILE_BITS;
  return {layers[0] | layers[1] << 16, layers[2] | layers[3] << 16};
}

}  // namespace myriad::voxel
