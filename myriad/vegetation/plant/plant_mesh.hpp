// Plant meshes: the form every plant level takes, generated (plant_generated.hpp) or imported
// (plant_gltf.hpp), and the simple meshes vegetation scenes need besides (billboards, boxes, ground
// grids). Plain CPU arrays (positions, normals, indices, and optionally texture coordinates and surfaces)
// in metres, base at the origin, +Y up.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "myriad/core/cull/bounds.hpp"

namespace myriad::vegetation {

enum class PlantKind : std::uint32_t { kTree = 0, kBush, kGrass, kCount };
inline constexpr std::uint32_t kPlantLodCount = 4;  // LOD0..LOD2 + billboard

// What a vertex's surface looks like: base colour (the material's factor times vertex colours), the
// alpha cutoff of alpha-tested leaves (a fragment whose texture alpha is below cutoff / 255 is dropped;
// 0 = opaque) and the base-colour texture (an index into the field's textures, or kNoPlantTexture).
inline constexpr std::uint16_t kNoPlantTexture = 0xFFFF;
struct PlantSurface {
  glm::u8vec3 color{255, 255, 255};
  std::uint8_t alpha_cutoff = 0;
  std::uint16_t texture = kNoPlantTexture;
  bool operator==(const PlantSurface&) const = default;
};

struct PlantMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<std::uint32_t> indices;  // triangle list, counter-clockwise seen from outside
  // Per vertex, or both empty: a white, untextured, opaque surface (boxes, ground).
  std::vector<glm::vec2> uvs;
  std::vector<PlantSurface> surfaces;
  Aabb bounds() const;
  std::size_t triangle_count() const { return indices.size() / 3; }
};

// Two crossed double-sided quads spanning `bounds` (its XZ radius about the origin, its full height):
// a plain billboard level, untextured (plant_impostor.hpp makes ones that show the plant).
PlantMesh make_billboard_mesh(const Aabb& bounds);

// A closed box (outward normals, 12 triangles): ground slabs and occluders in vegetation scenes.
PlantMesh make_box_mesh(const Aabb& box);

// Places grid vertex (i, j) (i along +X, j along +Z): sets its position; its normal starts as +Y.
using GridVertexFn =
    std::function<void(std::uint32_t i, std::uint32_t j, glm::vec3& position, glm::vec3& normal)>;

// A ground grid of `cells` x `cells` quads ((cells + 1)² vertices, row by row along +X, then +Z), two
// triangles a quad, counter-clockwise seen from above: flat ground and heightfield terrain meshes.
PlantMesh make_grid_mesh(std::uint32_t cells, const GridVertexFn& vertex);

}  // namespace myriad::vegetation
