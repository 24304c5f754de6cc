// Runtime form of loaded vegetation (G4, G5): instances expanded to camera-relative 3x4 matrices (tile
// origins in double, so 10 km from the world origin has no jitter) with tint, hashed LOD offset and
// bounding radius in the spare fourth row, and all loaded groups of one plant type merged into one
// runtime type (identity = its LOD resources) that owns the arrays culling and drawing read.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "myriad/vegetation/cpu_cull.hpp"
#include "myriad/vegetation/tile_format.hpp"
#include "myriad/vegetation/vegetation_gpu_layout.h"

namespace myriad::vegetation {

// RuntimeInstance (3x4 matrix rows + tint, LOD hash and radius; what the GPU reads) is in
// vegetation_gpu_layout.h.
inline constexpr std::size_t kRuntimeBytesPerInstance = sizeof(RuntimeInstance) + 4 * sizeof(float);

struct TileKey {
  std::int32_t x = 0;
  std::int32_t z = 0;
  friend auto operator<=>(const TileKey&, const TileKey&) = default;
};

// Deterministic per-instance value in [0, 1): offsets LOD switch distances per instance so LOD changes
// are scattered instead of forming a ring that follows the camera.
float lod_hash(TileKey tile, std::uint32_t group, std::uint32_t index);

// Expands instances [first, first + count) of tile.groups[group] relative to `render_origin`.
void expand_instances(const Tile& tile, std::uint32_t group, std::uint32_t first, std::uint32_t count,
                      glm::dvec3 render_origin, RuntimeInstance* out, SphereArrays& spheres);

// Two prefabs are the same runtime type when their LOD resources (mesh, material, distance) match.
bool same_runtime_type(const Prefab& a, const Prefab& b);

class RuntimeWorld {
 public:
  // A run of one group's instances inside a type's arrays.
  struct Segment {
    TileKey tile;
    std::uint32_t group = 0;
    std::uint32_t group_first = 0;  // first instance within the group
    std::uint32_t first = 0;        // index in the type's arrays
    std::uint32_t count = 0;
    Aabb bounds;  // the group's AABB relative to the render origin
  };
  struct Type {
    Prefab prefab;
    std::vector<RuntimeInstance> instances;
    SphereArrays spheres;  // centre relative to the render origin, radius
    std::vector<Segment> segments;
  };

  explicit RuntimeWorld(glm::dvec3 render_origin = glm::dvec3(0.0)) : origin_(render_origin) {}

  // Expands and appends instances [first, first + count) of a group of `tile` (kept alive for rebasing).
  void append(const std::shared_ptr<const Tile>& tile, std::uint32_t group, std::uint32_t first,
              std::uint32_t count);
  // Removes every instance of the tile; a type left empty is dropped with its memory.
  void remove_tile(TileKey key);
  // Moves the render origin (e.g. when the camera has travelled far) and re-expands everything.
  void rebase(glm::dvec3 render_origin);

  glm::dvec3 render_origin() const { return origin_; }
  const std::vector<Type>& types() const { return types_; }
  std::size_t instance_count() const;
  // Bytes held for runtime arrays (by size, plus the retained tiles' disk form): 0 when empty.
  std::size_t resident_bytes() const;

 private:
  glm::dvec3 origin_;
  std::vector<Type> types_;
  std::vector<std::shared_ptr<const Tile>> tiles_;  // one entry per tile with instances here
};

}  // namespace myriad::vegetation
