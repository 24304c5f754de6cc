// Far LOD of the streamed world: a block of 2^L x 2^L section columns (L = 1..3) downsampled by 2^L on
// every axis into a 16 x ceil(height / 2^L) x 16 coarse world of full cubes, lit and meshed with the
// ordinary light and mesher code, so the view reaches the horizon at a bounded cost per block.
// Deterministic: a block's meshes depend only on the world size, generator, save files and mesh options.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/mesher.hpp"

namespace myriad::voxel {

inline constexpr int kFarMaxLevel = 3;

// Downsampling rules (one 2 x 2 x 2 step; level L repeats it L times on the previous step's result):
//  - a child counts as solid when its material is not air and its form spans a volume
//    (ShapeLut::solid): cut shapes (slopes, corners) count as whole cells, degenerate forms as air.
//    There is no liquid material; every non-air material is an opaque solid for this purpose.
//  - the parent is solid when at least 4 of its 8 children are solid (ties keep the ground: a flat
//    surface at a cell boundary does not vanish), else air.
//  - its material is the one of the highest solid children (the top layer of the 2 x 2 x 2 if any child
//    there is solid, else the bottom layer), so grass and snow tops stay on top; among them the most
//    common, ties going to the higher transition priority (Material::priority), then the lower id.
//    Lamps (emissive materials) are passed over when any other solid child exists: a lone lamp would
//    otherwise turn a 2^L cube into a light source.
//  - its form is the full cube (kFormFull); air gets kFormEmpty.
// Children are given in corner order (corner_index(x, y, z): x | z << 1 | y << 2) with bit i of
// `solid` set when child i counts as solid.
bool far_child_solid(std::uint8_t material, std::uint8_t form);
std::uint8_t far_parent_material(const std::uint8_t (&materials)[kCornerCount], unsigned solid);

// Where a block's cells come from: generate_column for each column of the world, or the column's save
// file (read_column_file) when `save_directory` holds one, so saved edits show in the far LOD. Columns
// outside the world (blocks at the far edge of a world whose column count is not a multiple of 2^L) are
// air.
struct FarSource {
  glm::ivec3 world_size{4096, 128, 4096};
  GeneratorParams generator;
  std::filesystem::path save_directory;  // empty: generate every column
};

// Columns on a side of a level-L block, and the coarse sections a block meshes into: the coarse world is
// ceil(world height / 2^L) cells high, rounded up to whole sections (air above the world).
constexpr int far_block_columns(int level) { return 1 << level; }
int far_sections_y(int world_height, int level);
// Blocks of level L along x and z (ceil(columns / 2^L)).
glm::ivec2 far_blocks(glm::ivec3 world_size, int level);

// Scratch of build_far_block / mesh_far_block: one fine column, the downsampling grids, the coarse world,
// light and mesher scratch. Reused between blocks; allocates only when cold (or when the level's coarse
// height grows).
struct FarScratch {
  ColumnScratch generate;
  std::vector<std::uint8_t> column_materials, column_forms;  // one fine column, section-major
  std::vector<std::uint8_t> grid[2];                         // coarse materials, x fastest, then z, y
  std::unique_ptr<World> world;                              // 16 x coarse height x 16
  ColumnLightScratch light;
  MeshScratch mesh;
};

// Fills scratch.world with the coarse cells of block `block` (in level-L blocks) and their light
// (light_column on the lone 16 x h x 16 world: outside is air in full sun on every side). Throws
// myriad::Error for a level outside 1..kFarMaxLevel, an invalid world size, a block outside the world or
// a corrupt save file.
const World& build_far_block(const FarSource& source, int level, glm::ivec2 block, FarScratch& scratch);

// build_far_block, then mesh_section on each coarse section into `out` (far_sections_y of them; each
// cleared first, capacity kept). Vertices are in coarse-cell units, section-local (0..16): the renderer
// draws section sy scaled by 2^L with its origin at the block's world corner
// (block * 16 * 2^L on x and z) plus sy * 16 * 2^L on y. Pass options.world_bottom_faces as the fine
// world uses it; the block's sides always get closing faces (outside the coarse world is air), so rings
// of different levels and neighbouring blocks meet without cracks.
void mesh_far_block(const FarSource& source, int level, glm::ivec2 block, const MeshOptions& options,
                    FarScratch& scratch, std::span<SectionMesh> out);

}  // namespace myriad::voxel
