#version 460
// Voxel terrain shading (V5, V6, V8). Greedy quads read one surface-atlas record for the cell under
// the fragment and interpolate its four corner lights over the cell's two triangles (split along the
// record's diagonal), exactly as the unmerged mesh's vertices would; plain polygons use their
// interpolated vertex light. Texture coordinates come from the world position on the polygon's
// light-sampling side in both paths, mirrored and turned per cell by the cell's tile variation (atlas meta
// bits 4-6, a plain polygon's base index bits 10-12); base tile + up to 3 transition layers blended by
// edge masks computed here from the cell's edge bits (no mask textures). Tiles are the layers of one array
// texture (layer = tile id). Magnified surfaces (and tiles without a mip chain, the built-in ones) read
// level 0 texel by texel, exactly; minified ones sample the mip chain at the pixel's footprint (nearest
// texel in the two levels around it, blended), through the sampler: lavapipe's texelFetch goes wrong when
// neighbouring pixels fetch from different levels.
// Back faces are drawn only while a slice cuts the world (V14): seen through the cut, they are the inside
// of solid ground (or the world's floor, terrain_floor.vert), shaded as the cut's face (the cell's base
// tile laid flat, facing up, in daylight) so a sliced world reads solid instead of showing what lies
// under it.
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "terrain_layout.h"
#include "voxel/mesh/voxel_layout.h"
#include "core/layout/packing.glsl"
#define SHADOW_BINDING 5
#include "lighting.glsl"

layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer AtlasArena { AtlasRecord r[]; };

layout(binding = 3, scalar) readonly buffer Arenas { ArenaAddressGpu arena_addresses[]; };
layout(binding = 4) uniform sampler2DArray tiles;  // layer t = tile t; square, power-of-two side
layout(push_constant, scalar) uniform Push { TerrainPush pc; };

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_light;
layout(location = 3) in vec2 in_quad_uv;
layout(location = 4) flat in uvec4 in_surface;
layout(location = 0) out vec4 out_color;

// The axis of the light-sampling side: the dominant normal component (ties prefer Y, then X, then Z).
int sampling_axis(vec3 n) {
  vec3 a = abs(n);
  if (a.y >= a.x && a.y >= a.z) return 1;
  return a.x >= a.z ? 0 : 2;
}

// Texture coordinates (in tiles) of a world position on a side of `axis`: vertical sides keep +Y up.
vec2 side_uv(vec3 p, int axis) {
  if (axis == 0) return vec2(p.z, -p.y);
  if (axis == 1) return vec2(p.x, p.z);
  return vec2(p.x, -p.y);
}

// Cell-local coordinates in the quad frame of a side (u x v = outward normal), for transition masks.
vec2 frame_uv(vec3 p, vec3 n, int axis) {
  int pa = (axis + 1) % 3, qa = (axis + 2) % 3;
  bool positive = n[axis] > 0.0;
  return fract(positive ? vec2(p[pa], p[qa]) : vec2(p[qa], p[pa]));
}

// The texel of a size x size tile that texel t of the transformed tile shows: x mirrored (bit 2), then
// turned by quarter turns (bits 0-1). voxel/mesh/tile_variation.hpp's transform_texel is its CPU twin.
uvec2 transform_texel(uvec2 t, uint size, uint transform) {
  uint m = size - 1u;
  if ((transform & 4u) != 0u) t.x = m - t.x;
  uint turns = transform & 3u;
  if (turns == 1u) return uvec2(m - t.y, t.x);
  if (turns == 2u) return uvec2(m - t.x, m - t.y);
  if (turns == 3u) return uvec2(t.y, m - t.x);
  return t;
}

// transform_texel on cell-local coordinates (0..1) instead of texels: the same texel for every point
// inside one.
vec2 transform_uv(vec2 f, uint transform) {
  if ((transform & 4u) != 0u) f.x = 1.0 - f.x;
  uint turns = transform & 3u;
  if (turns == 1u) return vec2(1.0 - f.y, f.x);
  if (turns == 2u) return vec2(1.0) - f;
  if (turns == 3u) return vec2(f.y, 1.0 - f.x);
  return f;
}

// The mip level a pixel's footprint (world units = tiles) asks for; <= 0 magnifies. Tiles without a mip
// chain always read level 0 (-1 here).
float tile_lod(float footprint) {
  if (textureQueryLevels(tiles) == 1) return -1.0;
  return log2(footprint * float(textureSize(tiles, 0).x));
}

vec3 tile_texel(uint tile, vec2 uv, uint transform, float lod) {
  vec2 f = fract(uv);
  if (lod <= 0.0) {
    uint size = uint(textureSize(tiles, 0).x);
    uvec2 t = min(uvec2(f * float(size)), uvec2(size - 1u));
    t = transform_texel(t, size, transform);
    return texelFetch(tiles, ivec3(ivec2(t), int(tile)), 0).rgb;
  }
  return textureLod(tiles, vec3(transform_uv(f, transform), float(tile)), lod).rgb;
}

// Weight of a transition layer whose neighbour material lies across the edges in `mask`
// (bits: u-, u+, v-, v+ of the quad frame).
float transition_weight(uint mask, vec2 f) {
  float d = 1.0;
  if ((mask & 1u) != 0u) d = min(d, f.x);
  if ((mask & 2u) != 0u) d = min(d, 1.0 - f.x);
  if ((mask & 4u) != 0u) d = min(d, f.y);
  if ((mask & 8u) != 0u) d = min(d, 1.0 - f.y);
  return 1.0 - smoothstep(0.0, 0.45, d);
}

// The cell's layers at uv, every layer under the cell's tile variation `transform`.
vec3 albedo(uint tex01, uint tex23, vec2 uv, vec2 f, uint transform, float lod) {
  uint layers[4] = uint[](tex01 & 0xFFFFu, tex01 >> 16, tex23 & 0xFFFFu, tex23 >> 16);
  vec3 c = tile_texel(layers[0] & MYRIAD_VOXEL_TILE_MASK, uv, transform, lod);
  for (int i = 1; i < 4; ++i) {
    if (layers[i] == 0u) continue;
    float w = transition_weight(layers[i] >> MYRIAD_VOXEL_TILE_BITS, f);
    c = mix(c, tile_texel(layers[i] & MYRIAD_VOXEL_TILE_MASK, uv, transform, lod), w);
  }
  return c;
}

// Light inside a cell from its corners (quad-local order (0,0), (1,0), (1,1), (0,1)) on the same two
// triangles the unmerged quad is split into.
vec4 cell_light(AtlasRecord r, vec2 f) {
  vec4 c0 = unpack_light(r.light0), c1 = unpack_light(r.light1);
  vec4 c2 = unpack_light(r.light2), c3 = unpack_light(r.light3);
  if (((r.meta >> 7) & 1u) == 0u) {  // split along 0-2
    return f.x >= f.y ? c0 + (c1 - c0) * f.x + (c2 - c1) * f.y : c0 + (c2 - c3) * f.x + (c3 - c0) * f.y;
  }
  return f.x + f.y <= 1.0 ? c0 + (c1 - c0) * f.x + (c3 - c0) * f.y
                          : c2 + (c3 - c2) * (1.0 - f.x) + (c1 - c2) * (1.0 - f.y);
}

void main() {
  // The pixel's footprint on the surface, in world units (derivatives in uniform control flow).
  float footprint = max(length(dFdx(in_world)), length(dFdy(in_world)));
  vec3 n = normalize(in_normal);
  int axis = sampling_axis(n);
  vec2 uv = side_uv(in_world, axis);
  uint tex01 = in_surface.x, tex23 = in_surface.y;
  uint transform = (tex01 >> MYRIAD_VOXEL_TILE_BITS) & MYRIAD_VOXEL_UV_TRANSFORM_MASK;
  vec4 light;
  vec2 f;
  if ((tex01 & 0xFFFFu) == MYRIAD_VOXEL_ATLAS_MARKER) {
    uvec2 size = uvec2(tex23 & 0xFFu, (tex23 >> 8) & 0xFFu);
    uvec2 cell = min(uvec2(max(floor(in_quad_uv), vec2(0.0))), size - 1u);
    f = clamp(in_quad_uv - vec2(cell), 0.0, 1.0);
    ArenaAddressGpu a = arena_addresses[pc.arena];
    AtlasRecord r = AtlasArena(uvec2(a.vertices_lo, a.vertices_hi)).r[in_surface.z + cell.y * size.x + cell.x];
    light = cell_light(r, f);
    tex01 = r.tex01;
    tex23 = r.tex23;
    transform = (r.meta >> MYRIAD_VOXEL_META_UV_SHIFT) & MYRIAD_VOXEL_UV_TRANSFORM_MASK;
  } else {
    light = in_light;
    f = frame_uv(in_world, n, axis);
  }
  if (!gl_FrontFacing) {
    n = vec3(0.0, 1.0, 0.0);
    uv = side_uv(in_world, 1);
    tex01 &= 0xFFFFu;  // the solid's own tile, no transitions across a cut
    tex23 = 0u;
    light = vec4(vec3(0.25), 0.75);
  }
  // A select on the push constant, not a branch (see shadow.glsl).
  vec3 base = mix(albedo(tex01, tex23, uv, frame_uv(in_world, n, axis), transform, tile_lod(footprint)), vec3(0.8),
                  bvec3(pc.debug_mode == 1u));
  // The cell's sky light (AO already applied on the CPU) lets in the sky and the sun, which the shadow
  // map darkens where occluded; lamps add their RGB. A cut face lies at the slice, open to the sky: what
  // the shadow map says of the face under it does not apply. Fog is the shading model's (streamed worlds:
  // the far levels fade into the horizon).
  float visibility = shadow_visibility(in_world, n);  // in uniform control flow
  float sun = light.w * (gl_FrontFacing ? visibility : 1.0);
  out_color = shade(base, n, pc.to_light.xyz, sun, light.w, light.rgb);
}
