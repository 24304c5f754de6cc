// Hashing and value noise for procedural content (voxel terrain, vegetation scatter): the splitmix64
// mix, 24-bit unit floats, value noise on an integer lattice whose corner values the caller supplies,
// and fractal sums. Pure functions of their inputs, so results are the same on any thread; baked data
// depends on every bit (tests/voxel/noise_test.cpp and tests/vegetation/baker_test.cpp pin them).
#pragma once

#include <cmath>
#include <cstdint>

namespace myriad {

// The splitmix64 finalizer: a bijective mix of all 64 bits.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The top 24 bits of a hash as a float uniform in [0, 1) (every value exact).
constexpr float hash_unit(std::uint64_t h) { return float(h >> 40) * (1.0f / 16777216.0f); }

// How the fraction t in [0, 1) between two lattice points is eased before the corners are blended.
enum class NoiseFade {
  kCubic,    // 3t² - 2t³ (smoothstep): continuous slope
  kQuintic,  // 6t⁵ - 15t⁴ + 10t³: continuous curvature too
};

constexpr float noise_fade(NoiseFade fade, float t) {
  return fade == NoiseFade::kCubic ? t * t * (3.0f - 2.0f * t) : t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
}

constexpr float noise_lerp(float a, float b, float t) { return a + (b - a) * t; }

// One coordinate on the lattice: the cell at or below it and its eased fraction. Floor and fraction
// are taken in double and the fraction rounded to float once (exact for float coordinates).
struct LatticeCoord {
  std::int64_t cell = 0;
  float t = 0.0f;
};
inline LatticeCoord lattice_coord(double x, NoiseFade fade) {
  const double f = std::floor(x);
  return {static_cast<std::int64_t>(f), noise_fade(fade, static_cast<float>(x - f))};
}

// Value noise at (x, z): `corner(ix, iz)` gives the lattice values (a hash of the caller's seed), the
// four around the point are blended along x, then z.
template <class Corner>
float value_noise2(double x, double z, NoiseFade fade, Corner&& corner) {
  const LatticeCoord cx = lattice_coord(x, fade), cz = lattice_coord(z, fade);
  const float a = noise_lerp(corner(cx.cell, cz.cell), corner(cx.cell + 1, cz.cell), cx.t);
  const float b = noise_lerp(corner(cx.cell, cz.cell + 1), corner(cx.cell + 1, cz.cell + 1), cx.t);
  return noise_lerp(a, b, cz.t);
}

// The same in 3D with `corner(ix, iy, iz)`: blended along x, then z, then y.
template <class Corner>
float value_noise3(double x, double y, double z, NoiseFade fade, Corner&& corner) {
  const LatticeCoord cx = lattice_coord(x, fade), cy = lattice_coord(y, fade), cz = lattice_coord(z, fade);
  float v[2];
  for (int dy = 0; dy < 2; ++dy) {
    const std::int64_t iy = cy.cell + dy;
    const float a = noise_lerp(corner(cx.cell, iy, cz.cell), corner(cx.cell + 1, iy, cz.cell), cx.t);
    const float b = noise_lerp(corner(cx.cell, iy, cz.cell + 1), corner(cx.cell + 1, iy, cz.cell + 1), cx.t);
    v[dy] = noise_lerp(a, b, cz.t);
  }
  return noise_lerp(v[0], v[1], cy.t);
}

// Fractal sum of `octaves` octaves: octave o is `octave(o, frequency)` with frequency 2^o (the caller
// scales its coordinates by it, exactly) and weighs first_amplitude / 2^o; the sum is divided by the
// sum of the weights, so it keeps the range of one octave.
template <class Octave>
float fbm(int octaves, float first_amplitude, Octave&& octave) {
  float sum = 0.0f, amp = first_amplitude, norm = 0.0f;
  double frequency = 1.0;
  for (int o = 0; o < octaves; ++o) {
    sum += amp * octave(o, frequency);
    norm += amp;
    amp *= 0.5f;
    frequency *= 2.0;
  }
  return sum / norm;
}

}  // namespace myriad
