// GLSL mirrors of the unpackers in packing.hpp, for shaders to #include (GL_GOOGLE_include_directive).
// Same bit layouts and the same expressions as the C++ side; results agree to float rounding
// (GLSL division and normalize are not required to be correctly rounded).
#ifndef MYRIAD_CORE_PACKING_GLSL
#define MYRIAD_CORE_PACKING_GLSL

float myriad_sign_not_zero(float v) { return v >= 0.0 ? 1.0 : -1.0; }

// Octahedral normal: x in bits 0-15, y in bits 16-31, 16-bit snorm each (= packSnorm2x16 layout).
vec3 unpack_octahedral(uint packed) {
  vec2 v = unpackSnorm2x16(packed);  // clamp(q / 32767.0, -1.0, 1.0), as unpack_snorm16
  float z = 1.0 - abs(v.x) - abs(v.y);
  if (z < 0.0) {
    v = vec2((1.0 - abs(v.y)) * myriad_sign_not_zero(v.x), (1.0 - abs(v.x)) * myriad_sign_not_zero(v.y));
  }
  return normalize(vec3(v, z));
}

// RGBA8 colour: r in bits 0-7 ... a in bits 24-31, each / 255.
vec4 unpack_rgba8(uint packed) { return unpackUnorm4x8(packed); }

// Light: (r, g, b) lamp light and sun light, 0..255 each (r bits 0-7, g 8-15, b 16-23, sun 24-31).
uvec4 unpack_light_bytes(uint packed) {
  return uvec4(packed & 0xffu, (packed >> 8) & 0xffu, (packed >> 16) & 0xffu, packed >> 24);
}
// The same light scaled to 0..1 (xyz = lamp rgb, w = sun).
vec4 unpack_light(uint packed) { return unpackUnorm4x8(packed); }

// One IEEE binary16 in the low 16 bits.
float unpack_half(uint h) { return unpackHalf2x16(h).x; }

#endif  // MYRIAD_CORE_PACKING_GLSL
