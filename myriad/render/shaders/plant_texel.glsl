// A plant surface's texel (white when untextured): the array layer is the low 16 bits of the vertex's
// `layer`, the texture's wrap modes the bits above (uv_wrap.glsl). A clamped or mirrored texture reads
// its folded UV with the unfolded UV's gradients. `packed` is flat per primitive, so the branches are
// uniform within a pixel quad.
#ifndef MYRIAD_PLANT_TEXEL_GLSL
#define MYRIAD_PLANT_TEXEL_GLSL

#include "uv_wrap.glsl"

vec4 plant_texel(sampler2DArray textures, vec2 uv, uint packed) {
  const uint layer = packed & 0xFFFFu;
  const uint wrap = packed >> 16;
  if (layer == VEG_NO_TEXTURE) return vec4(1.0);
  if (wrap == 0u) return texture(textures, vec3(uv, float(layer)));
  const vec2 size = vec2(textureSize(textures, 0).xy);
  return textureGrad(textures, vec3(uv_wrap(uv, wrap, size), float(layer)), dFdx(uv), dFdy(uv));
}

#endif
