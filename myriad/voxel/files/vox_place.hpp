// MagicaVoxel models placed into the voxel world: the palette mapped to the world's materials, every
// instance of a .vox scene (vox_file.hpp) turned into world voxels (full cubes), then the light redone
// around the model and the sections to re-mesh reported, as an edit would.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/files/vox_file.hpp"
#include "myriad/voxel/data/world.hpp"

namespace myriad::voxel {

// Per palette index, the world material drawn for it: the solid material whose tiles' mean colour is
// nearest, or for emissive entries (MATL _emit) the lamp whose light is nearest in colour. Index 0 is air.
std::array<std::uint8_t, 256> map_vox_palette(const VoxScene& scene);

struct VoxPlacement {
  glm::ivec3 min{0}, max{0};  // world voxels covered: [min, max)
  std::size_t voxels = 0;     // cells set (overlapping instances count once per instance)
  std::array<std::size_t, kMaterialCount> per_material{};
  std::vector<int> dirty_sections;  // sorted: sections to re-mesh (geometry or light changed)
};

// The size in world voxels (x, y up, z) of the box holding every instance of `scene`.
glm::ivec3 vox_extent(const VoxScene& scene);

struct VoxCell {
  glm::ivec3 p{0};  // world voxel
  std::uint8_t material = 0;
};

// The world voxels (full cubes) of every instance of `scene` placed with its box's low corner at `at`,
// axes and palette mapping as place_vox, in file order: instance by instance, each model's voxels as
// stored (a cell covered by overlapping instances appears once per instance; the last one wins when
// applied in order). The cells are not checked against any world: callers check at + vox_extent first.
// Throws myriad::Error when a palette index maps to no solid material.
std::vector<VoxCell> vox_cells(const VoxScene& scene, glm::ivec3 at,
                               const std::array<std::uint8_t, 256>& materials);

// Places every instance of `scene` with palette mapping `materials` so that the box of all instances
// starts at `at` (world voxels). Axes: the file's z (up) becomes the world's +y, its x the world's x and
// its y the world's −z, which keeps the model's handedness. Throws myriad::Error naming the box and the
// world size when the model does not fit (the world is unchanged then).
VoxPlacement place_vox(World& world, const VoxScene& scene, glm::ivec3 at,
                       const std::array<std::uint8_t, 256>& materials);

}  // namespace myriad::voxel
