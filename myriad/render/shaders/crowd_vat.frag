#version 460
// VAT crowd fragment shader: the baked base-colour atlas × the entity's tint, or a flat colour per LOD
// level (diagnostics), shaded by the frame's light (lighting.glsl). An entity inside a cross-fade band is drawn by two LODs with complementary dither
// masks (dither.glsl), so the LOD colours show the band as a dithered mix of its two levels' colours.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "crowd_layout.h"
#define SHADOW_BINDING 7
#include "lighting.glsl"
#include "dither.glsl"

layout(binding = 6) uniform sampler2D base_color;

layout(push_constant, scalar) uniform Push { CrowdDrawPush pc; };

layout(location = 0) in vec2 in_uv;
layout(location = 1) in vec3 in_normal;
layout(location = 2) flat in uint in_tint;
layout(location = 3) in vec3 in_world;
layout(location = 4) flat in uint in_fade;  // bits 0..7: q, bit 8: incoming
layout(location = 0) out vec4 out_color;

const vec3 kLodColors[3] = vec3[3](vec3(0.2, 0.85, 0.3), vec3(0.95, 0.8, 0.2), vec3(0.9, 0.3, 0.25));

void main() {
  if (!dither_keep(gl_FragCoord.xy, in_fade & 0xffu, (in_fade & 0x100u) != 0u)) discard;
  // A select, not a branch on the push constant (see shadow.glsl: lavapipe's per-draw variants).
  vec3 textured = texture(base_color, in_uv).rgb * unpackUnorm4x8(in_tint).rgb;
  vec3 albedo = mix(textured, kLodColors[min(pc.lod, 2u)], bvec3(pc.lod_colors != 0u));
  vec3 n = normalize(in_normal);
  out_color = shade(albedo, n, pc.to_light.xyz, shadow_visibility(in_world, n), 1.0, vec3(0.0));
}
