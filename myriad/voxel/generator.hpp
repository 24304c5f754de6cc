// Procedural world generation: seeded value-noise terrain with hills, caves, several materials, lamps in
// caves and on the surface, and cut shapes that round the terrain's top edges into slopes and corners.
// Deterministic: the same seed gives the same bytes on any number of threads.
#pragma once

#include <cstdint>

#include "myriad/voxel/world.hpp"

namespace myriad::voxel {

struct GeneratorParams {
  std::uint64_t seed = 1;
  bool round_edges = true;  // false: full cubes only (formByte 255)
  bool caves = true;
  float lamp_chance = 1.0f / 400.0f;  // per cave floor cell; surface lamps are 20x rarer
};

// The reference world of the article: 256 x 64 x 256 voxels = 1024 sections.
inline constexpr glm::ivec3 kReferenceWorldSize{256, 64, 256};

// Generates materials and forms (light is left at zero: run compute_light next).
// Throws myriad::Error for sizes World rejects.
World generate_world(glm::ivec3 size, const GeneratorParams& params);

}  // namespace myriad::voxel
