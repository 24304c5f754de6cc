// The ground a vegetation field stands on, beyond the noise heightfield (baker.hpp): areas levelled into
// it (GroundPad: a flat plaza, or the footprint of a block of columns such as a voxel world, whose edges
// the ground rises or falls to meet), and the ground cut into square tiles of grid meshes at several
// spacings (distance LOD, skirts hiding the cracks between neighbours at different levels) with the
// per-frame choice of which tiles to draw at which level.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "myriad/core/cull/bounds.hpp"
#include "myriad/core/cull/frustum.hpp"
#include "myriad/vegetation/bake/ground_material.hpp"
#include "myriad/vegetation/plant/plant_mesh.hpp"

namespace myriad::vegetation {

struct GroundPad {
  glm::dvec2 min{0.0}, max{0.0};  // XZ rectangle
  float blend = 30.0f;            // metres outside it over which the ground returns to its own height
  float height = 0.0f;            // a flat pad's height
  // A block of 1 m columns standing on the area instead (columns.x * columns.y surface heights, x
  // fastest, from `min`): outside, the ground meets the nearest edge column's top; inside, it sinks
  // under the block within a few metres of the edge.
  glm::uvec2 columns{0};
  std::vector<float> tops;

  // The height the pad asks for at (x, z), and how far (x, z) lies outside the rectangle (0 inside).
  float target(double x, double z, double& outside) const;
};

// A block's pad from its columns' surface heights: each edge height is the lowest top within
// `smooth` columns along the edge, so ground interpolated between coarse grid vertices stays at or
// under the block's edge (a low step of the block shows; the ground never covers its rim).
GroundPad block_pad(glm::dvec2 min, glm::uvec2 columns, std::span<const float> tops, float blend,
                    std::uint32_t smooth);

// `height` (the noise ground at (x, z)) with each pad applied in order, blended by a smoothstep.
float level_ground(float height, double x, double z, std::span<const GroundPad> pads);

// Text that changes whenever a pad does (caches of baked fields key on it).
std::string pads_signature(std::span<const GroundPad> pads);

inline constexpr std::uint32_t kGroundLods = 4;

struct GroundTileOptions {
  double tile_size = 256.0;                                                     // metres
  std::array<double, kGroundLods> spacing{8.0, 16.0, 32.0, 64.0};               // grid spacing per level
  std::array<float, kGroundLods - 1> switch_distance{400.0f, 900.0f, 2000.0f};  // level l beyond [l-1]
  float skirt = 6.0f;       // metres the tile edges hang down (plus the level's spacing / 4)
  GroundMaterial material;  // how the tiles are textured (shaders/ground.frag)

  // Throws myriad::Error naming the first invalid field (make_ground_tiles calls it): sizes finite and
  // positive, switch distances increasing, the material's fields.
  void validate() const;
};

struct GroundTile {
  Aabb bounds;  // of the finest level, skirts excluded
  std::array<PlantMesh, kGroundLods> lods;
};

using GroundHeightFn = std::function<float(double x, double z)>;

// Tiles covering [min, max] (the last row and column may be narrower). Vertices are `origin`-relative;
// normals come from central differences 1 m apart.
std::vector<GroundTile> make_ground_tiles(const GroundHeightFn& height, glm::dvec2 min, glm::dvec2 max,
                                          glm::dvec3 origin, const GroundTileOptions& options = {});

// Per tile: the level to draw (by the distance from `eye` to its bounds), or -1 when its bounds miss
// `frustum`. Bounds and eye in the same (origin-relative) frame.
void pick_ground_lods(std::span<const GroundTile> tiles, const Frustum& frustum, glm::vec3 eye,
                      const GroundTileOptions& options, std::vector<int>& levels);

}  // namespace myriad::vegetation
