// Value noise with quintic fade (C2-continuous), lattice values from hash3.
#include "myriad/voxel/noise.hpp"

#include <cmath>

namespace myriad::voxel {
namespace {

inline float fade(float t) { return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f); }
inline float lerp(float a, float b, float t) { return a + (b - a) * t; }
inline float lattice(std::uint64_t seed, int x, int y, int z) {
  return hash_unit(hash3(seed, x, y, z)) * 2.0f - 1.0f;
}

}  // namespace

float value_noise2(std::uint64_t seed, float x, float z) {
  const float fx = std::floor(x), fz = std::floor(z);
  const int ix = int(fx), iz = int(fz);
  const float tx = fade(x - fx), tz = fade(z - fz);
  const float a = lerp(lattice(seed, ix, 0, iz), lattice(seed, ix + 1, 0, iz), tx);
  const float b = lerp(lattice(seed, ix, 0, iz + 1), lattice(seed, ix + 1, 0, iz + 1), tx);
  return lerp(a, b, tz);
}

float value_noise3(std::uint64_t seed, float x, float y, float z) {
  const float fx = std::floor(x), fy = std::floor(y), fz = std::floor(z);
  const int ix = int(fx), iy = int(fy), iz = int(fz);
  const float tx = fade(x - fx), ty = fade(y - fy), tz = fade(z - fz);
  float v[2];
  for (int dy = 0; dy < 2; ++dy) {
    const float a = lerp(lattice(seed, ix, iy + dy, iz), lattice(seed, ix + 1, iy + dy, iz), tx);
    const float b = lerp(lattice(seed, ix, iy + dy, iz + 1), lattice(seed, ix + 1, iy + dy, iz + 1), tx);
    v[dy] = lerp(a, b, tz);
  }
  return lerp(v[0], v[1], ty);
}

float fbm2(std::uint64_t seed, float x, float z, int octaves) {
  float sum = 0.0f, amp = 1.0f, norm = 0.0f;
  for (int o = 0; o < octaves; ++o) {
    sum += amp * value_noise2(seed + std::uint64_t(o) * 0x632BE59BD9B4E019ull, x, z);
    norm += amp;
    amp *= 0.5f;
    x *= 2.0f;
    z *= 2.0f;
  }
  return sum / norm;
}

float fbm3(std::uint64_t seed, float x, float y, float z, int octaves) {
  float sum = 0.0f, amp = 1.0f, norm = 0.0f;
  for (int o = 0; o < octaves; ++o) {
    sum += amp * value_noise3(seed + std::uint64_t(o) * 0x632BE59BD9B4E019ull, x, y, z);
    norm += amp;
    amp *= 0.5f;
    x *= 2.0f;
    y *= 2.0f;
    z *= 2.0f;
  }
  return sum / norm;
}

}  // namespace myriad::voxel
