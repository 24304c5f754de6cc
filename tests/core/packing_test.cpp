// Octahedral normals (error bound over a million normals and every special direction), unorm/snorm
// clamping and rounding, RGBA8 and light layouts.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "myriad/core/layout/packing.hpp"

namespace myriad {
namespace {

// Angle between two directions in double, accurate for tiny angles (atan2 of |cross| and dot).
double angle_between(glm::dvec3 a, glm::dvec3 b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

double octahedral_error(glm::vec3 n) {
  const glm::vec3 decoded = unpack_octahedral(pack_octahedral(n));
  return angle_between(glm::normalize(glm::dvec3(n)), glm::dvec3(decoded));
}

TEST(Octahedral, ErrorBoundOverRandomAndSpecialNormals) {
  std::vector<glm::vec3> normals;
  // Axes, the 8 diagonals, the 12 edge midpoints, and points just off the fold lines.
  for (int x = -1; x <= 1; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z)
        if (x || y || z)
          normals.emplace_back(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z));
  for (float eps : {1e-7f, 1e-5f, 1e-3f}) {
    normals.emplace_back(1.0f, 1.0f, -eps);
    normals.emplace_back(-1.0f, 1.0f, eps);
    normals.emplace_back(eps, -1.0f, -1.0f);
    normals.emplace_back(-eps, 1.0f, -1.0f);
    normals.emplace_back(1.0f, -eps, -1.0f);
    normals.emplace_back(eps, eps, -1.0f);
  }
  std::mt19937 rng(99);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  for (int i = 0; i < 1'000'000; ++i) {
    const glm::vec3 n(gauss(rng), gauss(rng), gauss(rng));
    if (glm::length(n) > 1e-3f) normals.push_back(n);
  }
  double worst = 0.0;
  for (const glm::vec3& n : normals) worst = std::max(worst, octahedral_error(n));
  std::cout << "octahedral max round-trip error over " << normals.size() << " normals: " << worst << " rad\n";
  RecordProperty("octahedral_max_error_rad", std::to_string(worst));
  EXPECT_LE(worst, static_cast<double>(kOctahedralMaxErrorRadians));
  // The constant is meant to be a tight bound, not a loose one.
  EXPECT_GE(worst, 0.5 * static_cast<double>(kOctahedralMaxErrorRadians));
}

TEST(Octahedral, AxesAreExactAndOutputIsUnit) {
  const glm::vec3 axes[] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const glm::vec3& a : axes) EXPECT_EQ(unpack_octahedral(pack_octahedral(a)), a);
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 100'000; ++i) {
    EXPECT_NEAR(glm::length(unpack_octahedral(bits(rng))), 1.0f, 2e-7f);
  }
}

TEST(Octahedral, NonUnitAndDegenerateInput) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 10'000; ++i) {
    const glm::vec3 n(u(rng), u(rng), u(rng));
    if (glm::length(n) < 1e-3f) continue;
    EXPECT_LE(octahedral_error(n * 1000.0f), static_cast<double>(kOctahedralMaxErrorRadians));
    EXPECT_LE(octahedral_error(n * 1e-3f), static_cast<double>(kOctahedralMaxErrorRadians));
  }
  // No direction to keep: +Z, never NaN.
  EXPECT_EQ(unpack_octahedral(pack_octahedral(glm::vec3(0.0f))), glm::vec3(0.0f, 0.0f, 1.0f));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(unpack_octahedral(pack_octahedral(glm::vec3(nan, 1.0f, 0.0f))), glm::vec3(0.0f, 0.0f, 1.0f));
}

TEST(Octahedral, BitLayoutIsSnorm16Pair) {
  // +X maps to octahedral (1, 0): x = 32767 in the low half, y = 0 in the high half.
  EXPECT_EQ(pack_octahedral({1.0f, 0.0f, 0.0f}), 0x00007fffu);
  EXPECT_EQ(pack_octahedral({0.0f, -1.0f, 0.0f}), 0x80010000u);  // y = -32767
  EXPECT_EQ(pack_octahedral({0.0f, 0.0f, 1.0f}), 0u);
}

TEST(Unorm, ClampAndRoundToNearest) {
  EXPECT_EQ(pack_unorm8(0.0f), 0);
  EXPECT_EQ(pack_unorm8(1.0f), 255);
  EXPECT_EQ(pack_unorm8(-3.0f), 0);
  EXPECT_EQ(pack_unorm8(7.0f), 255);
  EXPECT_EQ(pack_unorm8(std::numeric_limits<float>::infinity()), 255);
  EXPECT_EQ(pack_unorm8(std::numeric_limits<float>::quiet_NaN()), 0);
  EXPECT_EQ(pack_unorm8(0.49f / 255.0f), 0);
  EXPECT_EQ(pack_unorm8(0.51f / 255.0f), 1);
  EXPECT_EQ(pack_unorm8(100.4f / 255.0f), 100);
  EXPECT_EQ(pack_unorm8(100.6f / 255.0f), 101);
  EXPECT_EQ(pack_unorm16(0.5f), 32768);  // 32767.5 rounds away from zero
  EXPECT_EQ(pack_unorm16(2.0f), 65535);
  EXPECT_EQ(pack_unorm16(-1.0f), 0);
  for (int v = 0; v < 256; ++v) EXPECT_EQ(pack_unorm8(unpack_unorm8(static_cast<std::uint8_t>(v))), v);
  for (int v = 0; v < 65536; ++v) {
    ASSERT_EQ(pack_unorm16(unpack_unorm16(static_cast<std::uint16_t>(v))), v);
  }
}

TEST(Snorm, ClampAndRoundToNearest) {
  EXPECT_EQ(pack_snorm8(-1.0f), -127);
  EXPECT_EQ(pack_snorm8(-5.0f), -127);
  EXPECT_EQ(pack_snorm8(1.0f), 127);
  EXPECT_EQ(pack_snorm8(0.0f), 0);
  EXPECT_EQ(pack_snorm8(std::numeric_limits<float>::quiet_NaN()), 0);
  EXPECT_EQ(pack_snorm16(-std::numeric_limits<float>::infinity()), -32767);
  EXPECT_EQ(pack_snorm8(10.4f / 127.0f), 10);
  EXPECT_EQ(pack_snorm8(-10.6f / 127.0f), -11);
  EXPECT_EQ(pack_snorm16(1.0f), 32767);
  EXPECT_EQ(pack_snorm16(-1.0f), -32767);
  EXPECT_EQ(unpack_snorm8(-128), -1.0f);
  EXPECT_EQ(unpack_snorm8(-127), -1.0f);
  EXPECT_EQ(unpack_snorm16(-32768), -1.0f);
  EXPECT_EQ(unpack_snorm16(32767), 1.0f);
  for (int v = -127; v <= 127; ++v) EXPECT_EQ(pack_snorm8(unpack_snorm8(static_cast<std::int8_t>(v))), v);
  for (int v = -32767; v <= 32767; ++v) {
    ASSERT_EQ(pack_snorm16(unpack_snorm16(static_cast<std::int16_t>(v))), v);
  }
}

TEST(Rgba8, LayoutAndRoundTrip) {
  EXPECT_EQ(pack_rgba8({1.0f, 0.0f, 0.0f, 0.0f}), 0x000000ffu);
  EXPECT_EQ(pack_rgba8({0.0f, 0.0f, 0.0f, 1.0f}), 0xff000000u);
  EXPECT_EQ(pack_rgba8({0.0f, 1.0f, 0.5f, 0.0f}), 0x0080ff00u);
  EXPECT_EQ(pack_rgba8_bytes(1, 2, 3, 4), 0x04030201u);
  std::mt19937 rng(8);
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 100'000; ++i) {
    const std::uint32_t p = bits(rng);
    ASSERT_EQ(pack_rgba8(unpack_rgba8(p)), p);
  }
  EXPECT_EQ(unpack_rgba8(0x04030201u), glm::vec4(1.0f, 2.0f, 3.0f, 4.0f) / 255.0f);
}

TEST(Light, LayoutAndRoundTrip) {
  const Light l{10, 20, 30, 240};
  EXPECT_EQ(pack_light(l), 0xf01e140au);
  EXPECT_EQ(unpack_light(pack_light(l)), l);
  static_assert(pack_light(Light{1, 2, 3, 4}) == 0x04030201u);
  static_assert(unpack_light(0x04030201u) == Light{1, 2, 3, 4});
  for (std::uint32_t p : {0u, 0xffffffffu, 0x12345678u, 0x80000001u})
    EXPECT_EQ(pack_light(unpack_light(p)), p);
}

}  // namespace
}  // namespace myriad
