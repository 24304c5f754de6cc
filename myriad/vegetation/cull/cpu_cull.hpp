// CPU culling of vegetation (the fallback where compute culling is unavailable, and the reference of
// the GPU path): quadtree traversal with plane/AABB tests where wholly-inside nodes accept their range
// untested and LOD is chosen per visible leaf from its centre's distance; a flat branch-free sphere loop
// over SoA arrays; and batching of visible ranges into draws of at most 1023 instances (or unlimited).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/vegetation/bake/tile_format.hpp"

namespace myriad::vegetation {

// A frustum given relative to the camera (view matrix with the eye at the origin), re-expressed in the
// frame of a tile: d' = d + n . (tile_origin - camera), computed in double and rounded once, so tiles
// 10 km away are culled with full float precision.
Frustum local_frustum(const Frustum& camera_relative, glm::dvec3 tile_origin, glm::dvec3 camera);

// Index of the first LOD whose switch distance exceeds `distance`; lods.size() = beyond draw distance.
std::uint32_t select_lod(float distance, std::span<const LodLevel> lods);

// The article's CPU rule: every instance of a visible quadtree leaf takes the LOD its leaf's box centre
// gets (select_lod of the centre's distance from `camera`, both in one frame), so LOD changes leaf by
// leaf. cull_group_tree and vegetation::cull_pool_cpu_per_leaf both pick LODs with it.
std::uint32_t leaf_lod(const Aabb& leaf_bounds, glm::vec3 camera, std::span<const LodLevel> lods);

// Per-instance LOD of the GPU path (and its exact CPU reference): the squared distance from the camera
// scaled by f^2, f = 1 + band * (hash - 0.5), against squared switch distances, so each instance
// switches at its own distance within +-band/2 and no LOD ring follows the camera. Evaluated as
// d2 = o.x*o.x + o.y*o.y + o.z*o.z; e = d2 * f * f (left to right, no FMA), like veg_cull.comp.
//
// Dithered cross-fade: `fade` is the width of a band just below each switch distance, as a fraction of
// it. An instance whose scaled squared distance e lies in [fade_start_sq[l], switch_sq[l]) is drawn at
// LOD l fading out and at LOD l + 1 fading in (past the last switch it fades out to nothing); the
// renderer splits its pixels between the two with complementary screen-space dither masks.
inline constexpr std::uint32_t kGpuMaxLods = 4;
struct HashedLod {
  float switch_sq[kGpuMaxLods] = {};
  float fade_start_sq[kGpuMaxLods] = {};  // (switch * (1 - fade))^2; == switch_sq when fade is 0
  float fade_inv[kGpuMaxLods] = {};       // 1 / (switch_sq - fade_start_sq); 0 without a band
  std::uint32_t count = 0;
  float band = 0.0f;
};
HashedLod make_hashed_lod(std::span<const LodLevel> lods, float band, float fade = 0.0f);
std::uint32_t select_lod_hashed(glm::vec3 offset, float hash, const HashedLod& lod);
struct LodPick {
  std::uint32_t lod = 0;  // count = beyond the draw distance
  bool fading = false;    // inside LOD `lod`'s cross-fade band: also drawn at lod + 1 (if it exists)
  std::uint32_t q = 0;    // fading: the dither threshold 0..255, linear in e across the band
};
LodPick pick_lod_hashed(glm::vec3 offset, float hash, const HashedLod& lod);
// Group test before any per-instance work: the box intersects the frustum and its nearest point is
// within the farthest distance any instance of it can be drawn at.
bool group_visible(const Frustum& frustum, const Aabb& bounds, glm::vec3 camera, const HashedLod& lod);

struct VisibleRange {
  std::uint32_t first = 0;  // group-local instance index
  std::uint32_t count = 0;
  std::uint32_t lod = 0;
  friend bool operator==(const VisibleRange&, const VisibleRange&) = default;
};

struct TreeCullStats {
  std::uint64_t nodes_tested = 0;      // nodes that needed plane tests
  std::uint64_t instances_tested = 0;  // instances tested one by one (partially visible leaves)
};

// Appends the group's visible instance ranges to `out` (adjacent runs of one LOD merged, LOD per leaf:
// leaf_lod). `frustum`
// and `camera` are in the tile's frame. An instance is visible exactly when
// frustum.intersects(instance_bounds(...)) holds (wholly-inside nodes imply it), and its leaf is
// within the draw distance. `stack` is caller-owned scratch (no allocation in steady state).
TreeCullStats cull_group_tree(const Group& group, const Prefab& prefab, const Frustum& frustum,
                              glm::vec3 camera, std::vector<VisibleRange>& out,
                              std::vector<std::uint32_t>& stack);

// Structure-of-arrays bounding spheres: 16 bytes per instance, the memory floor of a flat cull.
struct SphereArrays {
  std::vector<float> x, y, z, r;
  std::size_t size() const { return x.size(); }
  void push_back(const Sphere& s) {
    x.push_back(s.center.x);
    y.push_back(s.center.y);
    z.push_back(s.center.z);
    r.push_back(s.radius);
  }
  void clear() { x.clear(), y.clear(), z.clear(), r.clear(); }
};

// Writes the indices i (ascending) of spheres with frustum.intersects(sphere_i) into `out` (room for n)
// and returns their number. Bit-identical to Frustum::intersects (same expression order, no FMA).
// kAuto takes the AVX2 loop where the CPU has it (checked at run time), else the portable one; kAvx2
// on a CPU without AVX2 also runs the portable loop.
enum class FlatCullPath { kAuto, kPortable, kAvx2 };
std::size_t cull_spheres_flat(const Frustum& frustum, const float* x, const float* y, const float* z,
                              const float* r, std::size_t n, std::uint32_t* out,
                              FlatCullPath path = FlatCullPath::kAuto);
bool flat_cull_has_avx2();

// The article's DrawMeshInstanced limit, kept as a compatibility mode.
inline constexpr std::uint32_t kCompatBatchLimit = 1023;

struct Batch {
  std::uint32_t lod = 0;
  std::uint32_t first_range = 0;  // into the split ranges
  std::uint32_t range_count = 0;
  std::uint32_t instance_count = 0;
};

// Groups `visible` by LOD (ascending, input order within a LOD) into batches of at most
// `max_instances` (0 = unlimited), splitting ranges where a batch fills up. Clears both outputs.
void make_batches(std::span<const VisibleRange> visible, std::uint32_t lod_count, std::uint32_t max_instances,
                  std::vector<VisibleRange>& ranges, std::vector<Batch>& batches);

}  // namespace myriad::vegetation
