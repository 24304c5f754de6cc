// Bit packing shared by CPU writers and GPU readers: octahedral normals, unorm/snorm, half floats,
// RGBA8 colours and light (R, G, B lamp + sun, one byte each). Every packer has the matching unpacker
// here and in GLSL (myriad/core/layout/packing.glsl); layouts are little-endian with the first component in
// the lowest bits.
#pragma once

#include "myriad/core/math/math.hpp"

#include <cstdint>

namespace myriad {

// Octahedral normal in 2 x 16-bit snorm (x in bits 0-15, y in bits 16-31). `n` need not be unit;
// the decoded vector is unit length. Round-trip angular error <= kOctahedralMaxErrorRadians.
// The encoder keeps the best of the 4 surrounding grid points, so the error is the grid's covering
// radius, worst at the octahedron's face centres: sqrt(2)/32767 = 4.32e-5 rad (measured: 4.33e-5
// over 1e6 random normals, the excess being float rounding in the decoder). The constant is that
// bound with a little margin. A zero or non-finite vector encodes +Z.
// GLSL decoder: unpack_octahedral() in myriad/core/layout/packing.glsl.
std::uint32_t pack_octahedral(glm::vec3 n);
glm::vec3 unpack_octahedral(std::uint32_t packed);
inline constexpr float kOctahedralMaxErrorRadians = 5e-5f;

// Values are clamped to the representable range, then rounded to nearest (halves away from zero);
// NaN packs to 0. The snorm unpackers map the spare most negative code to -1, like GLSL.
std::uint8_t pack_unorm8(float v);
std::uint16_t pack_unorm16(float v);
std::int8_t pack_snorm8(float v);
std::int16_t pack_snorm16(float v);
inline float unpack_unorm8(std::uint8_t v) { return float(v) / 255.0f; }
inline float unpack_unorm16(std::uint16_t v) { return float(v) / 65535.0f; }
float unpack_snorm8(std::int8_t v);
float unpack_snorm16(std::int16_t v);

// IEEE 754 binary16, round to nearest even; infinities and NaN preserved.
std::uint16_t pack_half(float v);
float unpack_half(std::uint16_t h);

// RGBA8 in one u32: r in bits 0-7 ... a in bits 24-31 (matches VK_FORMAT_R8G8B8A8_UNORM in memory).
std::uint32_t pack_rgba8(glm::vec4 rgba);
glm::vec4 unpack_rgba8(std::uint32_t packed);
constexpr std::uint32_t pack_rgba8_bytes(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  return std::uint32_t(r) | std::uint32_t(g) << 8 | std::uint32_t(b) << 16 | std::uint32_t(a) << 24;
}

// Light: R, G, B lamp light and sun light, 0..255 each: r bits 0-7, g 8-15, b 16-23, sun 24-31.
struct Light {
  std::uint8_t r = 0, g = 0, b = 0, sun = 0;
  friend bool operator==(const Light&, const Light&) = default;
};
constexpr std::uint32_t pack_light(Light l) { return pack_rgba8_bytes(l.r, l.g, l.b, l.sun); }
constexpr Light unpack_light(std::uint32_t p) {
  return {std::uint8_t(p & 0xffu), std::uint8_t(p >> 8 & 0xffu), std::uint8_t(p >> 16 & 0xffu),
          std::uint8_t(p >> 24)};
}

}  // namespace myriad
