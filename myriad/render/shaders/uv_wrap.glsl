// Texture addressing as myriad/core/image/uv_wrap.hpp does it on the CPU (glTF wrapS / wrapT), for a
// sampler that repeats: `modes` holds two bits per axis (s low; 0 repeat, 1 clamp to edge, 2 mirrored
// repeat). Clamped and mirrored coordinates stay within the outer texels' centres, so a bilinear tap never
// blends across the texture's edge.
#ifndef MYRIAD_UV_WRAP_GLSL
#define MYRIAD_UV_WRAP_GLSL

float uv_wrap_axis(float x, uint mode, float size) {
  if (mode == 0u) return x;
  if (mode == 2u) {
    x -= 2.0 * floor(0.5 * x);
    if (x > 1.0) x = 2.0 - x;
  }
  const float half_texel = size > 1.0 ? 0.5 / size : 0.5;
  return clamp(x, half_texel, 1.0 - half_texel);
}

vec2 uv_wrap(vec2 uv, uint modes, vec2 size) {
  return vec2(uv_wrap_axis(uv.x, modes & 3u, size.x), uv_wrap_axis(uv.y, (modes >> 2) & 3u, size.y));
}

#endif
