// Core noise: the splitmix64 mix, unit floats, fade curves, lattice blending and fractal sums.
#include <gtest/gtest.h>

#include <vector>

#include "myriad/core/math/noise.hpp"

namespace myriad {
namespace {

TEST(Noise, Mix64IsSplitmix64) {
  // splitmix64's first outputs from state 0 (the state advances by the golden-ratio increment).
  EXPECT_EQ(mix64(0), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(mix64(0x9E3779B97F4A7C15ull), 0x6E789E6AA1B965F4ull);
  static_assert(mix64(1) != mix64(2));
}

TEST(Noise, HashUnitCoversZeroToOneExclusive) {
  EXPECT_EQ(hash_unit(0), 0.0f);
  EXPECT_EQ(hash_unit(~0ull), 1.0f - 0x1p-24f);
  EXPECT_EQ(hash_unit(1ull << 63), 0.5f);
}

TEST(Noise, FadesEaseFromZeroToOne) {
  for (NoiseFade f : {NoiseFade::kCubic, NoiseFade::kQuintic}) {
    EXPECT_EQ(noise_fade(f, 0.0f), 0.0f);
    EXPECT_EQ(noise_fade(f, 0.5f), 0.5f);
    EXPECT_EQ(noise_fade(f, 1.0f), 1.0f);
  }
  EXPECT_EQ(noise_fade(NoiseFade::kCubic, 0.25f), 0.15625f);
  EXPECT_LT(noise_fade(NoiseFade::kQuintic, 0.25f), noise_fade(NoiseFade::kCubic, 0.25f));
}

TEST(Noise, LatticeCoordFloorsNegativeCoordinates) {
  const LatticeCoord c = lattice_coord(-2.75, NoiseFade::kCubic);
  EXPECT_EQ(c.cell, -3);
  EXPECT_EQ(c.t, noise_fade(NoiseFade::kCubic, 0.25f));
}

TEST(Noise, ValueNoiseBlendsTheCornersAroundThePoint) {
  // Corner values that encode their cell: on a lattice point the noise is that corner's value.
  const auto corner2 = [](std::int64_t x, std::int64_t z) { return float(x * 10 + z); };
  EXPECT_EQ(value_noise2(3.0, -4.0, NoiseFade::kQuintic, corner2), 26.0f);
  // Halfway in x (fade(0.5) = 0.5) on a lattice line in z: the mean of the two corners.
  EXPECT_EQ(value_noise2(3.5, -4.0, NoiseFade::kCubic, corner2), 31.0f);
  const auto corner3 = [](std::int64_t x, std::int64_t y, std::int64_t z) {
    return float(x * 100 + y * 10 + z);
  };
  EXPECT_EQ(value_noise3(1.0, 2.0, 3.0, NoiseFade::kCubic, corner3), 123.0f);
  EXPECT_EQ(value_noise3(1.0, 2.5, 3.0, NoiseFade::kQuintic, corner3), 128.0f);
  // A constant lattice gives a constant field.
  const auto flat = [](auto...) { return 0.25f; };
  EXPECT_EQ(value_noise2(17.3, -0.9, NoiseFade::kQuintic, flat), 0.25f);
  EXPECT_EQ(value_noise3(17.3, -0.9, 4.4, NoiseFade::kCubic, flat), 0.25f);
}

TEST(Noise, FbmDoublesFrequencyHalvesAmplitudeAndNormalises) {
  std::vector<double> frequencies;
  const float constant = fbm(4, 1.0f, [&](int, double f) {
    frequencies.push_back(f);
    return 0.75f;
  });
  EXPECT_EQ(constant, 0.75f);
  EXPECT_EQ(frequencies, (std::vector<double>{1.0, 2.0, 4.0, 8.0}));
  // Octave values 1 and 0 with weights 1 and 1/2: (1 * 1 + 0.5 * 0) / 1.5.
  EXPECT_FLOAT_EQ(fbm(2, 1.0f, [](int o, double) { return o == 0 ? 1.0f : 0.0f; }), 2.0f / 3.0f);
  // The first amplitude only scales numerator and denominator alike.
  EXPECT_EQ(fbm(2, 0.5f, [](int o, double) { return o == 0 ? 1.0f : 0.0f; }),
            fbm(2, 1.0f, [](int o, double) { return o == 0 ? 1.0f : 0.0f; }));
}

}  // namespace
}  // namespace myriad
