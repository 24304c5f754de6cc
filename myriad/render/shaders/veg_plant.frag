#version 460
// Vegetation plants: the tint shaded by the frame's light (lighting.glsl), or instance ids
// (VEG_DRAW_IDS) for tests. Dithered cross-fade: a fragment survives when the 8x8 ordered-dither value
// of its pixel is at or above the fade threshold (outgoing LOD) or below it (incoming LOD, VEG_FADE_IN). Both
// LODs of a fading instance carry the same threshold, so every pixel goes to exactly one of them: nothing is
// drawn twice and the share of the incoming LOD grows smoothly with distance (no pop).
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "veg_plant_layout.h"
#include "veg_cull_layout.h"
#define SHADOW_BINDING 6
#include "lighting.glsl"
#include "plant_texel.glsl"
#include "dither.glsl"

layout(binding = 5) uniform sampler2DArray plant_textures;

layout(push_constant, scalar) uniform Push { VegPlantPush pc; };

layout(location = 0) in vec3 in_normal;
layout(location = 1) flat in vec3 in_tint;
layout(location = 2) flat in uint in_fade;
layout(location = 3) flat in uint in_id;
layout(location = 4) in vec3 in_world;
layout(location = 5) in vec2 in_uv;
layout(location = 6) flat in vec4 in_surface;
layout(location = 7) flat in uint in_layer;
layout(location = 0) out vec4 out_color;

void main() {
  // The list entry's fade bits: bit 0 fading in, then the threshold.
  if (!dither_keep(gl_FragCoord.xy, in_fade >> 1, (in_fade & 1u) != 0u)) discard;
  // Base colour: the surface's, times its texture; alpha-tested leaves drop what is below the cutoff.
  vec4 texel = plant_texel(plant_textures, in_uv, in_layer);
  if (texel.a < in_surface.a) discard;
  vec3 base = in_tint * in_surface.rgb * texel.rgb;
  // The ID output is selected, not branched to, on the push constant (see shadow.glsl).
  uint v = in_id + 1u;
  vec4 id_color =
      vec4(float(v & 255u), float((v >> 8) & 255u), float((v >> 16) & 255u), float(pc.lod)) / 255.0;
  vec3 n = normalize(in_normal);
  if (!gl_FrontFacing) n = -n;
  vec4 lit = shade(base, n, pc.light.xyz, shadow_visibility(in_world, n), 1.0, vec3(0.0));
  out_color = mix(lit, id_color, bvec4((pc.flags & VEG_DRAW_IDS) != 0u));
}
