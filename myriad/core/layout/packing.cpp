// Packers and unpackers of packing.hpp. Unpackers are written to be mirrored line by line in GLSL
// (packing.glsl); packers run once per vertex at bake time and may afford to be careful.
#include "myriad/core/layout/packing.hpp"

#include <bit>
#include <cmath>
#include <limits>

namespace myriad {
namespace {

// Clamps to [lo, hi] with NaN going to 0, so a NaN input packs to a defined value (not UB on the cast).
float clamp_or_zero(float v, float lo, float hi) {
  if (std::isnan(v)) return 0.0f;
  return v < lo ? lo : (v > hi ? hi : v);
}

float sign_not_zero(float v) { return v >= 0.0f ? 1.0f : -1.0f; }

constexpr float kSnorm16Max = 32767.0f;

// Octahedral decode from quantized components; the exact expressions of packing.glsl.
glm::vec3 decode_octahedral(float qx, float qy) {
  float x = std::fmax(qx / kSnorm16Max, -1.0f);
  float y = std::fmax(qy / kSnorm16Max, -1.0f);
  const float z = 1.0f - std::fabs(x) - std::fabs(y);
  if (z < 0.0f) {
    const float fx = (1.0f - std::fabs(y)) * sign_not_zero(x);
    const float fy = (1.0f - std::fabs(x)) * sign_not_zero(y);
    x = fx;
    y = fy;
  }
  return glm::normalize(glm::vec3(x, y, z));
}

// Orders candidate grid points by the cosine between their decoded direction and `target`
// (sign(cos) * cos^2 times |target|^2, which sorts the same): decode in double, no square root.
double octahedral_score(float qx, float qy, glm::dvec3 target) {
  constexpr double kInvMax = 1.0 / 32767.0;  // scoring only: need not match the decoder exactly
  double x = static_cast<double>(qx) * kInvMax;
  double y = static_cast<double>(qy) * kInvMax;
  const double z = 1.0 - std::fabs(x) - std::fabs(y);
  if (z < 0.0) {
    const double fx = (1.0 - std::fabs(y)) * (x >= 0.0 ? 1.0 : -1.0);
    const double fy = (1.0 - std::fabs(x)) * (y >= 0.0 ? 1.0 : -1.0);
    x = fx;
    y = fy;
  }
  const double dot = x * target.x + y * target.y + z * target.z;
  return dot * std::fabs(dot) / (x * x + y * y + z * z);
}

std::uint32_t pack_snorm16_pair(float qx, float qy) {
  const auto x = static_cast<std::uint16_t>(static_cast<std::int16_t>(qx));
  const auto y = static_cast<std::uint16_t>(static_cast<std::int16_t>(qy));
  return static_cast<std::uint32_t>(x) | static_cast<std::uint32_t>(y) << 16;
}

}  // namespace

std::uint32_t pack_octahedral(glm::vec3 n) {
  const float l1 = std::fabs(n.x) + std::fabs(n.y) + std::fabs(n.z);
  // Zero, denormal-tiny or non-finite input has no direction: encode +Z rather than garbage.
  if (!(l1 > 0.0f) || !std::isfinite(l1)) return pack_snorm16_pair(0.0f, 0.0f);
  // Project onto the octahedron |x| + |y| + |z| = 1, then fold the lower half over the diagonals.
  float u = n.x / l1;
  float v = n.y / l1;
  if (n.z < 0.0f) {
    const float fu = (1.0f - std::fabs(v)) * sign_not_zero(u);
    const float fv = (1.0f - std::fabs(u)) * sign_not_zero(v);
    u = fu;
    v = fv;
  }
  u = clamp_or_zero(u, -1.0f, 1.0f) * kSnorm16Max;
  v = clamp_or_zero(v, -1.0f, 1.0f) * kSnorm16Max;
  // Rounding each coordinate to nearest is not the best choice on the sphere (the map shears
  // across the octahedron's faces); try the four surrounding grid points and keep the closest
  // direction. Scored in double: float cosines cannot separate directions ~1e-5 rad apart.
  const glm::dvec3 target(n);
  const float u0 = std::floor(u), v0 = std::floor(v);
  float best_u = u0, best_v = v0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < 4; ++i) {
    const float cu = std::fmin(u0 + static_cast<float>(i & 1), kSnorm16Max);
    const float cv = std::fmin(v0 + static_cast<float>(i >> 1), kSnorm16Max);
    const double score = octahedral_score(cu, cv, target);
    if (score > best_score) {
      best_score = score;
      best_u = cu;
      best_v = cv;
    }
  }
  return pack_snorm16_pair(best_u, best_v);
}

glm::vec3 unpack_octahedral(std::uint32_t packed) {
  const auto x = static_cast<std::int16_t>(static_cast<std::uint16_t>(packed & 0xffffu));
  const auto y = static_cast<std::int16_t>(static_cast<std::uint16_t>(packed >> 16));
  return decode_octahedral(static_cast<float>(x), static_cast<float>(y));
}

std::uint8_t pack_unorm8(float v) {
  return static_cast<std::uint8_t>(std::round(clamp_or_zero(v, 0.0f, 1.0f) * 255.0f));
}
std::uint16_t pack_unorm16(float v) {
  return static_cast<std::uint16_t>(std::round(clamp_or_zero(v, 0.0f, 1.0f) * 65535.0f));
}
std::int8_t pack_snorm8(float v) {
  return static_cast<std::int8_t>(std::round(clamp_or_zero(v, -1.0f, 1.0f) * 127.0f));
}
std::int16_t pack_snorm16(float v) {
  return static_cast<std::int16_t>(std::round(clamp_or_zero(v, -1.0f, 1.0f) * kSnorm16Max));
}
// -128 and -32768 are the spare codes; like GLSL's unpackSnorm they decode to -1.
float unpack_snorm8(std::int8_t v) { return std::fmax(static_cast<float>(v) / 127.0f, -1.0f); }
float unpack_snorm16(std::int16_t v) { return std::fmax(static_cast<float>(v) / kSnorm16Max, -1.0f); }

std::uint16_t pack_half(float v) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(v);
  const auto sign = static_cast<std::uint16_t>(bits >> 16 & 0x8000u);
  const std::uint32_t exponent = bits >> 23 & 0xffu;
  const std::uint32_t mantissa = bits & 0x7fffffu;

  if (exponent == 0xffu) {
    if (mantissa == 0) return static_cast<std::uint16_t>(sign | 0x7c00u);
    // NaN: keep the top payload bits (so every half NaN round-trips); never let it become inf.
    std::uint32_t payload = mantissa >> 13;
    if (payload == 0) payload = 0x200u;
    return static_cast<std::uint16_t>(sign | 0x7c00u | payload);
  }
  // Exponent re-biased for binary16 (bias 15 instead of 127).
  const int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65536: overflow to inf
  if (e <= 0) {
    // Subnormal half (or zero): value = m * 2^-24. Below 2^-25 everything rounds to zero.
    if (e < -10) return sign;
    const std::uint32_t full = mantissa | 0x800000u;  // implicit leading one
    const auto shift = static_cast<std::uint32_t>(14 - e);
    std::uint32_t m = full >> shift;
    const std::uint32_t rest = full & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (m & 1u))) ++m;  // may carry into the smallest normal
    return static_cast<std::uint16_t>(sign | m);
  }
  std::uint32_t h = static_cast<std::uint32_t>(e) << 10 | mantissa >> 13;
  const std::uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry bumps the exponent, up to inf
  return static_cast<std::uint16_t>(sign | h);
}

float unpack_half(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = h >> 10 & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in binary32.
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return std::bit_cast<float>(std::bit_cast<std::uint32_t>(magnitude) | sign);
  }
  if (exponent == 0x1fu) return std::bit_cast<float>(sign | 0x7f800000u | mantissa << 13);
  return std::bit_cast<float>(sign | (exponent - 15u + 127u) << 23 | mantissa << 13);
}

std::uint32_t pack_rgba8(glm::vec4 rgba) {
  return pack_rgba8_bytes(pack_unorm8(rgba.r), pack_unorm8(rgba.g), pack_unorm8(rgba.b), pack_unorm8(rgba.a));
}

glm::vec4 unpack_rgba8(std::uint32_t packed) {
  return {unpack_unorm8(static_cast<std::uint8_t>(packed & 0xffu)),
          unpack_unorm8(static_cast<std::uint8_t>(packed >> 8 & 0xffu)),
          unpack_unorm8(static_cast<std::uint8_t>(packed >> 16 & 0xffu)),
          unpack_unorm8(static_cast<std::uint8_t>(packed >> 24))};
}

}  // namespace myriad
