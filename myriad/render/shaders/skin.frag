#version 460
// Skinned avatar parts, each in its glTF material (base-colour factor x COLOR_0 x base-colour texture,
// alpha mask, double-sided), multiplied by the instance's tint (skin tone or clothing tint) on parts the
// kit marks tintable and on items; lit by the frame's sun, shadowed by the scene's shadow map. Clothing draws
// its pattern (property `pattern`: 0 plain, 1 horizontal stripes, 2 checks, 3 dots) in that colour and a
// second colour that contrasts with it; body parts have no pattern. anim/kit/material.hpp is the CPU
// reference of the colour rules.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "skin_layout.h"
#define SHADOW_BINDING 7
#include "lighting.glsl"
#include "dither.glsl"
#include "uv_wrap.glsl"

layout(push_constant, scalar) uniform Push { SkinPush pc; };

layout(binding = 5, scalar) readonly buffer Materials { SkinMaterial materials[]; };
layout(binding = 6) uniform sampler2DArray skin_textures;

layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec4 in_color;
layout(location = 4) flat in vec2 in_pattern;  // x: pattern id; y: 1 when the cells come from UVs
layout(location = 5) in vec3 in_pattern_cell;
layout(location = 6) in vec2 in_uv;
layout(location = 7) in vec4 in_vertex_color;
layout(location = 8) flat in uvec2 in_material;
layout(location = 9) in vec3 in_world;
layout(location = 10) flat in uint in_fade;
layout(location = 0) out vec4 out_color;

// Dot radius in cells. UV cells are 2D (skin.vert puts them at a cell centre in z): round dots a third
// of the cell's area. Positions cut a 3D lattice of balls, whose sections are smaller on average: a
// larger radius keeps them about as visible (a third of the surface covered, 4/3 pi r^3).
const float kDotUv = 0.35, kDotPosition = 0.42;

// 1 where pattern `id` shows its second colour at cell coordinate c, else 0. Stripes run across the
// cell grid's y (height for positions, along the bone for UVs); checks and dots are 3D, so positions
// need no projection onto the surface.
float pattern_mask(int id, vec3 c, float dot_radius) {
  if (id == 1) return mod(floor(c.y), 2.0);
  if (id == 2) return mod(floor(c.x) + floor(c.y) + floor(c.z), 2.0);
  return length(fract(c) - 0.5) < dot_radius ? 1.0 : 0.0;
}

void main() {
  // Derivatives in uniform control flow, before any branch: how many cells one pixel spans.
  const vec3 w = fwidth(in_pattern_cell);
  const SkinMaterial material = materials[in_material.x];
  // Sampled unconditionally (implicit derivatives need uniform control flow); layer 0 stands in. A
  // clamped or mirrored texture reads its folded UV with the unfolded UV's gradients (the fold would
  // otherwise pick the smallest mip along a mirror line).
  const vec2 uv_dx = dFdx(in_uv), uv_dy = dFdy(in_uv);
  const float layer = float(material.texture_layer == SKIN_NO_TEXTURE ? 0u : material.texture_layer);
  const vec2 size = vec2(textureSize(skin_textures, 0).xy);
  const vec4 texel =
      material.wrap == 0u
          ? texture(skin_textures, vec3(in_uv, layer))
          : textureGrad(skin_textures, vec3(uv_wrap(in_uv, material.wrap, size), layer), uv_dx, uv_dy);
  vec4 surface = material.base_color * in_vertex_color;
  if (material.texture_layer != SKIN_NO_TEXTURE) surface *= texel;
  if (material.alpha_cutoff >= 0.0 && surface.a < material.alpha_cutoff) discard;
  // An avatar in a LOD cross-fade band draws two levels with complementary dither masks.
  if (!dither_keep(gl_FragCoord.xy, in_fade & 0xffu, (in_fade & 0x100u) != 0u)) discard;
  const vec3 tint = in_material.y != 0u ? in_color.rgb : vec3(1.0);
  const vec3 coloured = linear_to_srgb(surface.rgb) * tint;
  const int id = int(in_pattern.x + 0.5);
  vec3 base = coloured;
  if (id != 0) {
    // A darker second colour on light cloth, a lighter one on dark cloth: visible on any colour.
    const float luma = dot(coloured, vec3(0.299, 0.587, 0.114));
    const vec3 second = luma > 0.3 ? coloured * 0.45 : mix(coloured, vec3(1.0), 0.5);
    const bool uv = in_pattern.y > 0.5;
    const float radius = uv ? kDotUv : kDotPosition;
    // Cells narrower than about two pixels along the pattern's axes alias (shimmer, moire): fade to
    // the share of a cell the second colour covers on average.
    const float cells_per_pixel = id == 1 ? w.y : max(w.x, max(w.y, w.z));
    const float average =
        id == 3 ? (uv ? 3.14159 * radius * radius : 4.18879 * radius * radius * radius) : 0.5;
    const float m =
        mix(pattern_mask(id, in_pattern_cell, radius), average, smoothstep(0.3, 0.6, cells_per_pixel));
    base = mix(coloured, second, m);
  }
  // The frame's light (lighting.glsl) and the scene's shadow map. Back faces (drawn only for double-sided
  // materials) are lit from their own side.
  const vec3 normal = gl_FrontFacing ? normalize(in_normal) : -normalize(in_normal);
  out_color = shade(base, normal, pc.to_light.xyz, shadow_visibility(in_world, normal), 1.0, vec3(0.0));
}
