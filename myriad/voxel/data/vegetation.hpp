// Voxel vegetation records (SPEC V15, data half): grass / baked-model instances (16 bytes) and trees
// (24 bytes), owned by the section that holds the cell they stand in. Placement is a pure function of
// the world and the seed per cell, so re-placing one changed section rewrites only its own records.
// Grass grows on full grass cubes and on cut grass cells (slopes, corners) under air, standing on the
// cell's top surface with its up vector along that surface's normal. Trees reference one of a few tree
// templates per type (trunk slices along an irregular contour, a voxel crown of irregular outline),
// baked once from a seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "myriad/voxel/mesh/voxel_layout.h"
#include "myriad/voxel/data/world.hpp"

namespace myriad::voxel {

inline constexpr std::uint16_t kGrassTemplates = 4;  // templates 0..3: grass tufts
inline constexpr std::uint16_t kFlowerTemplate = 4;  // template 4: flowers
inline constexpr std::uint16_t kTreeTypes = 3;
inline constexpr std::uint16_t kTreeVariants = 3;  // templates per tree type
inline constexpr std::uint16_t kTreeTemplates = kTreeTypes * kTreeVariants;
// Below this height (in units of the tree's height) a tree does not sway: its root stays put.
inline constexpr float kTreeRigidHeight = 0.15f;

// GrassInstance::template_light, low 16 bits: template (bits 0-3) and the up vector's x and z as
// signed 6-bit values in 31sts (bits 4-9, 10-15; 0 and 0 = straight up). 0xFFFF marks an empty slot.
std::uint32_t pack_grass_template(std::uint32_t templ, glm::vec3 up);
inline std::uint32_t grass_template(std::uint32_t template_light) { return template_light & 0xFu; }
glm::vec3 grass_up(std::uint32_t template_light);  // unit vector decoded from the packed bits

// TreeInstance::type_height, low 16 bits: the template id (type * kTreeVariants + variant).
inline std::uint32_t tree_type(std::uint32_t type_height) { return (type_height & 0xFFFFu) / kTreeVariants; }

// The top surface of a cell of `form` above the point (x, z) of its footprint (cell-local, 0..1): the
// lowest upward facet of the shape there (its convex hull's upper envelope). nullopt when the form
// has no volume or no upward facet.
struct SurfacePoint {
  float height = 0.0f;  // cell-local y
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
};
std::optional<SurfacePoint> top_surface(std::uint8_t form, float x, float z);

struct SectionVegetation {
  std::vector<GrassInstance> grass;
  std::vector<TreeInstance> trees;
  void clear() {
    grass.clear();
    trees.clear();
  }
};

inline bool has_plants(const SectionVegetation& v) { return !v.grass.empty() || !v.trees.empty(); }

// Places instances on top of grass cells under air in `section` (cleared first; capacity kept).
void place_vegetation(const World& world, glm::ivec3 section, std::uint64_t seed, SectionVegetation& out);

// The cells placement reads, as one section column: every read stays in the x, z of the cell placed on (the
// cell, the one above and the one below, and the light up to a tree's height above, across section borders
// but never into a neighbouring column), so a column alone, e.g. a streamed one, places exactly what the
// whole world does. Section sy's 16^3 cells (cell_index order) start at `sy * section_stride` of each array,
// as in ColumnOut: a World's column has the stride sections().x * sections().z * kSectionCells, a column
// stored alone kSectionCells.
struct VegetationColumn {
  const std::uint8_t* materials = nullptr;
  const std::uint8_t* forms = nullptr;
  const Light16* light = nullptr;
  const std::uint8_t* flags = nullptr;  // null: no cell flagged (a streamed column keeps no flags)
  std::size_t section_stride = kSectionCells;
  int height = 0;  // cells (the world's size().y)
};
// Section column `column` (section coordinates x, z) of the world; unchecked.
VegetationColumn vegetation_column(const World& world, glm::ivec2 column);
// place_vegetation on the column's section `section` (its x and z name the column, for the records'
// positions and hashes). Unchecked: the section must lie in the column's height.
void place_vegetation(const VegetationColumn& column, glm::ivec3 section, std::uint64_t seed,
                      SectionVegetation& out);

void place_all_vegetation(const World& world, std::uint64_t seed, std::vector<SectionVegetation>& out);

// One baked tree template, in tree-local units of its height (root at the origin, y up to 1):
// triangles, counter-clockwise from outside; position.w = 0 trunk, 1 crown.
struct TreeTemplateMesh {
  std::vector<glm::vec4> positions;
  std::vector<glm::vec3> normals;
};
// kTreeTemplates templates, type-major (template id = type * kTreeVariants + variant). Type 0: a
// round crown of a few merged blobs; 1: a conifer of stacked ragged tiers; 2: a tall narrow crown.
// Crowns are voxel shapes on a grid of 1/12 of the height, with their outline eroded by the seed.
std::vector<TreeTemplateMesh> bake_tree_templates(std::uint64_t seed);

}  // namespace myriad::voxel
