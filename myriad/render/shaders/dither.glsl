// The dithered LOD cross-fade's screen pattern, shared by vegetation, the VAT crowd and the skinned avatars:
// an 8x8 ordered dither value per pixel, and the complementary masks of the two LODs of a fading instance.
// Both entries of the instance carry the same threshold q (0..255): the incoming (farther) LOD keeps the
// pixels whose value is below q, the outgoing one those at or above it, so every pixel goes to exactly
// one of them (nothing drawn twice, nothing missed) and the incoming share grows with q.
#ifndef MYRIAD_DITHER_GLSL
#define MYRIAD_DITHER_GLSL

// 8x8 Bayer matrix: bit-reversed interleave of (x ^ y, y), a permutation of 0..63.
uint bayer8(uvec2 p) {
  uint x = p.x & 7u, y = p.y & 7u, z = x ^ y;
  return ((z & 1u) << 5) | ((y & 1u) << 4) | ((z & 2u) << 2) | ((y & 2u) << 1) | ((z & 4u) >> 1) |
         ((y & 4u) >> 2);
}

// Whether the fragment at `frag` survives for the entry with threshold q (q = 0 and outgoing: always).
bool dither_keep(vec2 frag, uint q, bool incoming) {
  uint d = bayer8(uvec2(frag)) * 4u + 2u;  // centred in its 1/64 step of 0..255
  return incoming ? d < q : d >= q;
}

#endif
