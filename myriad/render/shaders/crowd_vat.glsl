// VAT sampling for crowd shaders: the same operations, in the same order, as crowd/vat_sampling.cpp,
// with `precise` so no FMA contraction changes the rounding. Texels are two u32 each (x | y << 16,
// z | octahedral normal << 16) in a storage buffer bound as `vat_texels`. VatClipRuntime and VatFrame come
// from crowd/crowd_gpu_layout.h (through crowd_layout.h).
#ifndef MYRIAD_CROWD_VAT_GLSL
#define MYRIAD_CROWD_VAT_GLSL

VatFrame vat_frame(VatClipRuntime clip, float local_time) {
  precise float cycles = floor(local_time * clip.inv_duration);
  precise float t = clamp(local_time - cycles * clip.duration, 0.0, clip.duration);
  precise float f = t * clip.fps;
  float whole = floor(f);
  uint last = clip.frames - 1u;
  uint f0 = min(uint(whole), last);
  uint f1 = min(f0 + 1u, last);
  precise float blend = f - whole;
  return VatFrame(clip.first_row + f0, clip.first_row + f1, blend);
}

vec3 vat_decode_position(uvec2 texel, VatClipRuntime clip) {
  vec3 q = vec3(float(texel.x & 0xffffu), float(texel.x >> 16), float(texel.y & 0xffffu));
  precise vec3 p = clip.origin + q * clip.step;
  return p;
}

vec3 vat_decode_normal(uvec2 texel) {
  uint packed = texel.y >> 16;
  vec2 e = max(vec2(float(int(packed << 24) >> 24), float(int(packed << 16) >> 24)) / 127.0, vec2(-1.0));
  vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
  if (n.z < 0.0) n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
  return normalize(n);
}

// `column` may carry a base offset into a shared buffer (texel_offset + column); `columns` is the
// width of that VAT.
uvec2 vat_texel(uint row, uint column, uint columns) {
  uint i = (row * columns + column) * 2u;
  return uvec2(vat_texels[i], vat_texels[i + 1u]);
}

vec3 vat_sample_position(VatClipRuntime clip, VatFrame frame, uint column, uint columns) {
  vec3 p0 = vat_decode_position(vat_texel(frame.row0, column, columns), clip);
  vec3 p1 = vat_decode_position(vat_texel(frame.row1, column, columns), clip);
  precise vec3 p = p0 + (p1 - p0) * frame.blend;
  return p;
}

vec3 vat_sample_normal(VatFrame frame, uint column, uint columns) {
  vec3 n0 = vat_decode_normal(vat_texel(frame.row0, column, columns));
  vec3 n1 = vat_decode_normal(vat_texel(frame.row1, column, columns));
  return normalize(mix(n0, n1, frame.blend));
}

#endif
