// The compact pooled form of a plant (PlantRecord + its page's PlantPage) and its one expansion into
// the runtime form (3x4 camera-relative matrix, tint, LOD hash, bounding sphere). The cull and vertex
// shaders expand pooled records with the same operations in the same order (shaders/veg_expand.glsl:
// table lookups, float multiplies and adds, integer hashing), so GPU and CPU results are equal bit for
// bit; division and trigonometry come from the decode table computed here.
#pragma once

#include <cstdint>
#include <span>

#include "myriad/core/cull/bounds.hpp"
#include "myriad/vegetation/bake/tile_format.hpp"
#include "myriad/vegetation/runtime/vegetation_gpu_layout.h"

namespace myriad::vegetation {

inline constexpr std::uint32_t kPageSlots = VEG_PAGE_SLOTS;
inline constexpr std::uint32_t kDecodeSteps = VEG_DECODE_STEPS;

struct TileKey {
  std::int32_t x = 0;
  std::int32_t z = 0;
  friend auto operator<=>(const TileKey&, const TileKey&) = default;
};

// Deterministic per-instance value in [0, 1): offsets LOD switch distances per instance so LOD changes
// are scattered instead of forming a ring that follows the camera.
float lod_hash(TileKey tile, std::uint32_t group, std::uint32_t index);

// q / 65535 (dequantization), then cos and sin of q / 65536 turns: kDecodeSteps floats each, the
// exact values decode_instance uses (computed once).
std::span<const float> decode_table();

// A plant type's bounding sphere per unit scale, from its bounds (instance_sphere's terms): centre at
// y = position.y + scale * mid, radius scale * radius.
struct PlantSphereShape {
  float mid = 0.0f;
  float radius = 0.0f;
};
PlantSphereShape plant_sphere_shape(const Aabb& prefab_bounds);

// Culling spheres per LOD (G6 with each LOD's own bounds): an instance picked at LOD l is tested with
// lod[l] (from that LOD mesh's bounds), and while it cross-fades into LOD l + 1 with fade[l], the sphere
// enclosing both (the two are coaxial: the span of their vertical extents). The LOD itself is picked
// from the distance to the type's sphere (PlantSphereShape of the prefab's bounds), so the choice never
// depends on the result.
inline constexpr std::uint32_t kLodShapes = 4;  // == kGpuMaxLods
struct PlantLodShapes {
  PlantSphereShape lod[kLodShapes];
  PlantSphereShape fade[kLodShapes];
};
// From the bounds of each LOD mesh at scale 1, yaw 0 (LODs past the span take the last one's); an empty
// span gives `all` for every LOD.
PlantLodShapes make_lod_shapes(std::span<const Aabb> lod_bounds, const PlantSphereShape& all);
// The shape an instance is culled with at `lod` (fading into lod + 1 when `fading_in_next`).
inline const PlantSphereShape& cull_shape_at(const PlantLodShapes& s, std::uint32_t lod,
                                             bool fading_in_next) {
  return fading_in_next ? s.fade[lod] : s.lod[lod];
}

PlantRecord to_plant_record(const InstanceRecord& r);
// The page entry for instances [group_first, group_first + count) of `tile`'s group (count <=
// kPageSlots), relative to `render_origin`.
PlantPage make_plant_page(const Tile& tile, std::uint32_t group, std::uint32_t group_first,
                          std::uint32_t count, glm::dvec3 render_origin);

struct ExpandedPlant {
  RuntimeInstance instance;  // spare.y = LOD hash, spare.z = sphere radius
  Sphere sphere;             // relative to the render origin
};
// Slot `slot` (< page.count) of a page. Translation = page.offset + tile-local position in float (the
// offset is tile origin - render origin rounded once, so the result depends only on the camera-relative
// placement, never on the distance from the world origin).
ExpandedPlant expand_plant(const PlantRecord& record, const PlantPage& page, std::uint32_t slot,
                           const PlantSphereShape& shape);
// The instance's sphere for another shape (a LOD's own), as the culling pass computes it.
Sphere plant_sphere(const PlantRecord& record, const PlantPage& page, const PlantSphereShape& shape);

}  // namespace myriad::vegetation
