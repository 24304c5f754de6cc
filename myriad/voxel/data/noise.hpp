// Seeded hash and value noise for the generator: the lattice hash and the generator's flavour of core's
// value noise (quintic fade, lattice values in [-1, 1]) in 2D and 3D. Pure functions of (seed,
// coordinates), so generation is the same on any thread.
#pragma once

#include <cstdint>

#include "myriad/core/math/noise.hpp"

namespace myriad::voxel {

// mix64 and hash_unit come from core (myriad::mix64, myriad::hash_unit).
constexpr std::uint64_t hash3(std::uint64_t seed, int x, int y, int z) {
  return mix64(seed ^ mix64(std::uint64_t(std::uint32_t(x)) ^ (std::uint64_t(std::uint32_t(y)) << 21) ^
                            (std::uint64_t(std::uint32_t(z)) << 42)));
}

float value_noise2(std::uint64_t seed, float x, float z);           // in [-1, 1]
float value_noise3(std::uint64_t seed, float x, float y, float z);  // in [-1, 1]
// Fractal sum of `octaves` octaves (frequency x2, amplitude x0.5), normalised to about [-1, 1].
float fbm2(std::uint64_t seed, float x, float z, int octaves);
float fbm3(std::uint64_t seed, float x, float y, float z, int octaves);

}  // namespace myriad::voxel
