// The 18^3 padded block of one section: the section's cells plus a one-cell shell of its neighbours
// (form, material, light), gathered once into contiguous memory so that geometry, AO, light and texture
// transitions of the mesher read only this block (SPEC V3). Cells outside the world are air in full sun.
#pragma once

#include <array>
#include <cstdint>

#include "myriad/voxel/data/world.hpp"

namespace myriad::voxel {

inline constexpr int kPad = kSectionSize + 2;
inline constexpr int kPadCells = kPad * kPad * kPad;
// Padded coordinates run 0..17; the section's own cells are 1..16. x fastest, then z, then y.
constexpr int pad_index(int x, int y, int z) { return x + kPad * (z + kPad * y); }
constexpr int pad_index(glm::ivec3 p) { return pad_index(p.x, p.y, p.z); }
constexpr glm::ivec3 pad_coord(int index) {
  return {index % kPad, index / (kPad * kPad), index / kPad % kPad};
}
inline constexpr Light16 kOutsideLight = make_light16(0, 0, 0, kLightMax);

struct PaddedBlock {
  // World cell of padded cell (0, 0, 0): where the block lies (the mesher's tile variation hashes world
  // cells). gather_padded sets it in `world`'s cells; mesh_section adds MeshOptions::cell_origin.
  glm::ivec3 origin{0};
  alignas(64) std::array<std::uint8_t, kPadCells> form;
  alignas(64) std::array<std::uint8_t, kPadCells> material;
  alignas(64) std::array<Light16, kPadCells> light;
};

// True when every cell of the section is air (nothing to mesh: neighbours emit the faces toward it).
bool section_is_air(const World& world, glm::ivec3 section);
// True when the section and the touching layers of its six neighbours are all full cubes (no face can be
// visible). Below the world counts as full when `solid_floor`.
bool section_is_buried(const World& world, glm::ivec3 section, bool solid_floor);
// `solid_floor`: the cells below the world are full stone cubes in darkness instead of air in full sun.
void gather_padded(const World& world, glm::ivec3 section, PaddedBlock& out, bool solid_floor = false);

}  // namespace myriad::voxel
