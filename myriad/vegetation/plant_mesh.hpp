// Generated plant meshes, so the vegetation path needs no third-party art: each plant kind has three
// geometric LODs (fewer segments/blades per level) and a billboard level (two crossed quads). Plain CPU
// arrays (positions, normals, indices) in metres, base at the origin, +Y up.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "myriad/core/bounds.hpp"

namespace myriad::vegetation {

enum class PlantKind : std::uint32_t { kTree = 0, kBush, kGrass, kCount };
inline constexpr std::uint32_t kPlantLodCount = 4;  // LOD0..LOD2 + billboard

struct PlantMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<std::uint32_t> indices;  // triangle list, counter-clockwise seen from outside
  Aabb bounds() const;
  std::size_t triangle_count() const { return indices.size() / 3; }
};

// LOD 0..2 and the billboard (index 3) of a plant kind; the billboard spans the LOD0 bounds.
std::array<PlantMesh, kPlantLodCount> make_plant_lods(PlantKind kind);

// A closed box (outward normals, 12 triangles): ground slabs and occluders in vegetation scenes.
PlantMesh make_box_mesh(const Aabb& box);

// Places grid vertex (i, j) (i along +X, j along +Z): sets its position; its normal starts as +Y.
using GridVertexFn =
    std::function<void(std::uint32_t i, std::uint32_t j, glm::vec3& position, glm::vec3& normal)>;

// A ground grid of `cells` x `cells` quads ((cells + 1)² vertices, row by row along +X, then +Z), two
// triangles a quad, counter-clockwise seen from above: flat ground and heightfield terrain meshes.
PlantMesh make_grid_mesh(std::uint32_t cells, const GridVertexFn& vertex);

}  // namespace myriad::vegetation
