// Voxel picking (V13 edits): the first cell whose solid a ray enters, found by a voxel DDA (one cell per
// step, in the order the ray crosses them) over the same cells and form bytes the mesher reads. A cut
// shape is hit where the ray enters its convex hull (the shape LUT's planes), so a ray over a slope's open
// half passes on to the cell behind it; a baked model (voxel/model) is hit where the ray enters one of its
// boxes, so a ray between a fence's rails passes on. The hit names the face entered and the empty cell in
// front of it, where a placed voxel goes.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>

#include "myriad/core/math/math.hpp"

namespace myriad::voxel {

class World;
class StreamWorld;

enum class CellLookup : std::uint8_t { kCell, kUnloaded };

// The cells a pick walks: a world of `size` cells at [0, size) in world units (1 per cell); read() gives a
// cell's material and form, or kUnloaded where its data is not resident (the pick stops there).
struct PickCells {
  glm::ivec3 size{0};
  std::function<CellLookup(glm::ivec3 cell, std::uint8_t& material, std::uint8_t& form)> read;
  // A sliced view (V14) draws nothing of the cells wholly above its slice: they read as air (a cell the
  // slice cuts is drawn, cut open, and can be picked).
  double slice_height = std::numeric_limits<double>::infinity();
};
PickCells pick_cells(const World& world);
// A streamed world's resident, generated columns; the rest read as unloaded.
PickCells pick_cells(const StreamWorld& world);

enum class PickStop : std::uint8_t {
  kHit,       // `cell` holds a solid the ray entered
  kRange,     // nothing within max_distance
  kMissed,    // the ray leaves the world (or never enters it) without a hit
  kUnloaded,  // the ray reached a cell whose data is not resident
};
const char* pick_stop_name(PickStop stop);

struct PickResult {
  PickStop stop = PickStop::kMissed;
  glm::ivec3 cell{0};      // the hit cell (kHit), or the unloaded cell (kUnloaded)
  int face = 0;            // voxel::Face the ray entered through (an inner plane: its dominant side)
  glm::vec3 normal{0.0f};  // unit normal of the surface entered
  double distance = 0.0;   // along the unit ray, to the entry point
  glm::ivec3 place{0};     // the cell in front of the face: cell + face_direction(face)
  std::uint8_t material = 0, form = 0;
};

// Walks from `origin` along `direction` (any non-zero length; normalised here) for at most `max_distance`
// world units. Throws myriad::Error for a zero or non-finite direction, a non-finite origin, or a
// max_distance that is not positive and finite. A ray starting inside a solid hits it at distance 0.
PickResult pick_voxel(const PickCells& cells, glm::dvec3 origin, glm::dvec3 direction, double max_distance);

}  // namespace myriad::voxel
