// IEEE binary16: every half round-trips bit for bit, rounding boundaries between every pair of
// neighbouring halves go to nearest-even, known values, and (where the compiler has _Float16) a
// comparison with the compiler's own conversion over millions of floats.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "myriad/core/layout/packing.hpp"

namespace myriad {
namespace {

bool is_half_nan(std::uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

TEST(Half, EveryHalfRoundTripsExactly) {
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const auto h = static_cast<std::uint16_t>(i);
    const float f = unpack_half(h);
    ASSERT_EQ(pack_half(f), h) << std::hex << i;
    ASSERT_EQ(std::isnan(f), is_half_nan(h)) << std::hex << i;
  }
}

TEST(Half, KnownValues) {
  EXPECT_EQ(pack_half(0.0f), 0x0000);
  EXPECT_EQ(pack_half(-0.0f), 0x8000);
  EXPECT_EQ(pack_half(1.0f), 0x3c00);
  EXPECT_EQ(pack_half(-2.0f), 0xc000);
  EXPECT_EQ(pack_half(0.5f), 0x3800);
  EXPECT_EQ(pack_half(0.1f), 0x2e66);
  EXPECT_EQ(pack_half(1.0f / 3.0f), 0x3555);
  EXPECT_EQ(pack_half(65504.0f), 0x7bff);   // largest finite
  EXPECT_EQ(pack_half(65519.99f), 0x7bff);  // just under the halfway point to 65536
  EXPECT_EQ(pack_half(65520.0f), 0x7c00);   // halfway: ties to even = infinity
  EXPECT_EQ(pack_half(1e10f), 0x7c00);
  EXPECT_EQ(pack_half(-1e10f), 0xfc00);
  EXPECT_EQ(pack_half(0x1p-14f), 0x0400);         // smallest normal
  EXPECT_EQ(pack_half(0x1p-24f), 0x0001);         // smallest subnormal
  EXPECT_EQ(pack_half(0x1p-25f), 0x0000);         // halfway to the smallest subnormal: even = 0
  EXPECT_EQ(pack_half(0x1.000002p-25f), 0x0001);  // just above halfway
  EXPECT_EQ(pack_half(0x3p-25f), 0x0002);         // 1.5 * 2^-24: tie, to even (2)
  EXPECT_EQ(pack_half(0x1.ff8p-15f), 0x03ff);     // largest subnormal
  EXPECT_EQ(pack_half(0x1.ffcp-15f), 0x0400);     // tie above it rounds up into the smallest normal
  EXPECT_EQ(pack_half(-0x1p-30f), 0x8000);        // underflow keeps the sign
  EXPECT_EQ(pack_half(1.0f + 0x1p-11f), 0x3c00);  // tie, to even
  EXPECT_EQ(pack_half(1.0f + 0x3p-11f), 0x3c02);  // tie, to even (up)
  EXPECT_EQ(pack_half(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(pack_half(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_TRUE(is_half_nan(pack_half(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(is_half_nan(pack_half(std::bit_cast<float>(0x7f800001u))));  // payload only in low bits
  EXPECT_EQ(unpack_half(0x3c00), 1.0f);
  EXPECT_EQ(unpack_half(0x7bff), 65504.0f);
  EXPECT_EQ(unpack_half(0x0001), 0x1p-24f);
  EXPECT_EQ(unpack_half(0x03ff), 0x3ffp-24f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(unpack_half(0x8000)), 0x80000000u);
  EXPECT_EQ(unpack_half(0xfc00), -std::numeric_limits<float>::infinity());
}

// Between neighbours a < b (consecutive halves, same sign), the midpoint is exact in binary32:
// below it -> a, above it -> b, on it -> the one with an even mantissa.
TEST(Half, RoundingBoundariesBetweenAllNeighbours) {
  for (std::uint32_t sign : {0u, 0x8000u}) {
    for (std::uint32_t i = 0; i < 0x7c00u; ++i) {
      const auto a = static_cast<std::uint16_t>(sign | i);
      const auto b = static_cast<std::uint16_t>(sign | (i + 1));  // 0x7c00 (inf) follows 65504
      const double fa = static_cast<double>(unpack_half(a));
      const double fb = i + 1 == 0x7c00u ? (sign ? -65536.0 : 65536.0) : static_cast<double>(unpack_half(b));
      const auto mid = static_cast<float>((fa + fb) / 2.0);
      ASSERT_EQ(static_cast<double>(mid), (fa + fb) / 2.0);
      const float toward_a = std::nextafter(mid, static_cast<float>(fa));
      const float toward_b = std::nextafter(mid, static_cast<float>(fb));
      ASSERT_EQ(pack_half(toward_a), a) << std::hex << a;
      ASSERT_EQ(pack_half(toward_b), b) << std::hex << a;
      ASSERT_EQ(pack_half(mid), (a & 1u) ? b : a) << std::hex << a;
    }
  }
}

#if defined(__FLT16_MAX__)
TEST(Half, MatchesCompilerFloat16Conversion) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<std::uint32_t> bits;
  int compared = 0;
  for (int i = 0; i < 4'000'000; ++i) {
    // Half the samples in the range where halves live, half anywhere.
    std::uint32_t b = bits(rng);
    if (i & 1) b = (b & 0x80ffffffu) | ((0x60u + (b >> 24 & 0x3fu)) << 23);
    const float f = std::bit_cast<float>(b);
    if (std::isnan(f)) continue;
    const auto ref = std::bit_cast<std::uint16_t>(static_cast<_Float16>(f));
    ASSERT_EQ(pack_half(f), ref) << std::hexfloat << f;
    ++compared;
  }
  EXPECT_GT(compared, 3'900'000);
}
#endif

}  // namespace
}  // namespace myriad
