// Seeded hash and value noise for the generator: integer hashing (splitmix64) and smooth value noise in
// 2D and 3D. Pure functions of (seed, coordinates), so generation is the same on any thread.
#pragma once

#include <cstdint>

namespace myriad::voxel {

constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
constexpr std::uint64_t hash3(std::uint64_t seed, int x, int y, int z) {
  return mix64(seed ^ mix64(std::uint64_t(std::uint32_t(x)) ^ (std::uint64_t(std::uint32_t(y)) << 21) ^
                            (std::uint64_t(std::uint32_t(z)) << 42)));
}
// Uniform in [0, 1).
constexpr float hash_unit(std::uint64_t h) { return float(h >> 40) * (1.0f / 16777216.0f); }

float value_noise2(std::uint64_t seed, float x, float z);           // in [-1, 1]
float value_noise3(std::uint64_t seed, float x, float y, float z);  // in [-1, 1]
// Fractal sum of `octaves` octaves (frequency x2, amplitude x0.5), normalised to about [-1, 1].
float fbm2(std::uint64_t seed, float x, float z, int octaves);
float fbm3(std::uint64_t seed, float x, float y, float z, int octaves);

}  // namespace myriad::voxel
