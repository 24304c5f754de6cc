#version 460
// The heightfield ground's terrain material (vegetation::GroundMaterial): grass, dirt, rock and sand
// detail textures blended by slope, height and world-space noise, each read at two scales (the far one
// turned) so no repeat shows; large-scale noise varies the brightness so wide views do not read as one
// colour. Normals are the heightfield's (central differences, ground.cpp). Shaded by the frame's light
// (lighting.glsl). Instance ids for the ID pass, as veg_plant.frag.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "veg_plant_layout.h"
#include "ground_layout.h"
#define SHADOW_BINDING 7
#include "lighting.glsl"

layout(binding = 5) uniform sampler2DArray ground_textures;  // GroundLayer order
layout(binding = 6, std140) uniform GroundUniform { GroundMaterialGpu ground; };

layout(push_constant, scalar) uniform Push { VegPlantPush pc; };

layout(location = 0) in vec3 in_normal;
layout(location = 1) flat in vec3 in_tint;
layout(location = 3) flat in uint in_id;
layout(location = 4) in vec3 in_world;
layout(location = 0) out vec4 out_color;

const uint kGrass = 0u, kDirt = 1u, kRock = 2u, kSand = 3u;

float hash(vec2 cell) { return fract(sin(dot(cell, vec2(127.1, 311.7))) * 43758.5453); }

// Value noise on the unit lattice, smooth (cubic fade), in [0, 1].
float value_noise(vec2 p) {
  vec2 i = floor(p), f = fract(p);
  f = f * f * (3.0 - 2.0 * f);
  float a = hash(i), b = hash(i + vec2(1.0, 0.0)), c = hash(i + vec2(0.0, 1.0)), d = hash(i + vec2(1.0));
  return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

// Texture coordinates of the two scales, the near one and one 3.7 times larger turned by about 37°, with
// their screen derivatives (taken in uniform control flow, so layers can be read inside branches).
struct DetailUv {
  vec2 near_uv, near_dx, near_dy, far_uv, far_dx, far_dy;
};

DetailUv detail_uv(vec2 xz) {
  DetailUv d;
  d.near_uv = xz * ground.rules.z;
  d.far_uv = mat2(0.8, 0.6, -0.6, 0.8) * xz * (ground.rules.z / 3.7);
  d.near_dx = dFdx(d.near_uv);
  d.near_dy = dFdy(d.near_uv);
  d.far_dx = dFdx(d.far_uv);
  d.far_dy = dFdy(d.far_uv);
  return d;
}

// A layer's texture at both scales.
vec3 layer(uint l, DetailUv d) {
  vec3 a = textureGrad(ground_textures, vec3(d.near_uv, float(l)), d.near_dx, d.near_dy).rgb;
  vec3 b = textureGrad(ground_textures, vec3(d.far_uv, float(l)), d.far_dx, d.far_dy).rgb;
  return mix(a, b, 0.45);
}

void main() {
  vec3 n = normalize(in_normal);
  vec2 xz = in_world.xz;
  vec2 q = xz * ground.rules.w;
  float patches = value_noise(q) * 0.65 + value_noise(q * 3.1 + 17.0) * 0.35;
  float fine = value_noise(q * 9.0 + 5.0);
  float slope = 1.0 - n.y;
  // Rock on steep slopes and above rock_above, with ragged edges from the noise.
  float rock = max(smoothstep(ground.rules.x, ground.rules.x + 0.15, slope + (fine - 0.5) * 0.12),
                   smoothstep(ground.heights.z, ground.heights.z + 4.0, in_world.y + (patches - 0.5) * 6.0));
  // Sand in the low ground.
  float sand = smoothstep(ground.heights.x + ground.heights.y, ground.heights.x - ground.heights.y,
                          in_world.y + (patches - 0.5) * 2.0 * ground.heights.y);
  // Dirt in noise patches covering about dirt_share of flat ground, more on moderate slopes.
  float dirt_edge = 1.0 - ground.rules.y;
  float dirt = smoothstep(dirt_edge - 0.12, dirt_edge + 0.12, patches * 0.7 + fine * 0.3 + slope * 0.8) * 0.85;
  // Most of the ground is one layer: the others are read only where they show.
  DetailUv d = detail_uv(xz);
  vec3 albedo = rock < 1.0 ? layer(kGrass, d) : vec3(0.0);
  if (dirt > 0.0) albedo = mix(albedo, layer(kDirt, d), dirt);
  if (sand > 0.0) albedo = mix(albedo, layer(kSand, d), sand);
  if (rock > 0.0) albedo = mix(albedo, layer(kRock, d), rock);
  albedo *= 0.8 + 0.4 * patches;  // wide brightness variation
  // Flat shading is the look (and cost) before the material: the instance's one ground colour. A
  // specialisation constant: the flat pipeline compiles without the texture reads.
  if (kShadingMode == MYRIAD_SHADING_FLAT) albedo = in_tint;
  uint v = in_id + 1u;
  vec4 id_color = vec4(float(v & 255u), float((v >> 8) & 255u), float((v >> 16) & 255u), float(pc.lod)) / 255.0;
  vec4 lit = shade(albedo, n, pc.light.xyz, shadow_visibility(in_world, n), 1.0, vec3(0.0));
  out_color = mix(lit, id_color, bvec4((pc.flags & VEG_DRAW_IDS) != 0u));
}
