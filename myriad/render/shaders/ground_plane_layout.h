// Push constants of the flat ground plane (render::GroundPlane, shaders/ground_plane.vert, .frag) and its
// albedo, written once for GLSL and the C++ reference (tests compare the plane's pixels with
// shade_reference of ground_plane_albedo).
#ifndef MYRIAD_GROUND_PLANE_LAYOUT_H
#define MYRIAD_GROUND_PLANE_LAYOUT_H

#include "shared_types.h"

#ifdef __cplusplus
#define MYRIAD_GROUND_PLANE_FN inline
MYRIAD_SHADER_NAMESPACE_BEGIN
using glm::floor;
using glm::mix;
MYRIAD_SHADER_NAMESPACE_END
#else
#define MYRIAD_GROUND_PLANE_FN
#endif

MYRIAD_SHADER_NAMESPACE_BEGIN
struct GroundPlanePush {
  mat4 view_proj;
  vec4 to_light;      // xyz: towards the sun (the view's), w: unused
  vec4 rect;          // xy: centre (world x, z), zw: half extent in x and z (metres)
  vec4 albedo_scale;  // rgb: sRGB albedo, w: the variation's scale (metres)
  float height;       // world y of the plane
  uint pad0, pad1, pad2;
};

// A hash of a lattice point to [0, 1].
MYRIAD_GROUND_PLANE_FN float ground_plane_hash(int x, int z) {
  uint h = uint(x) * 73856093u ^ uint(z) * 19349663u;
  h = (h ^ (h >> 13u)) * 1274126177u;
  h = h ^ (h >> 16u);
  return float(h & 1023u) / 1023.0f;
}

// Value noise on a lattice of `cell` metres: hashed corners, smoothly interpolated (no edges to alias
// at a distance).
MYRIAD_GROUND_PLANE_FN float ground_plane_noise(vec2 xz, float cell) {
  vec2 p = xz / cell;
  vec2 f = p - floor(p);
  int x = int(floor(p.x));
  int z = int(floor(p.y));
  vec2 s = f * f * (vec2(3.0f) - 2.0f * f);
  float a = mix(ground_plane_hash(x, z), ground_plane_hash(x + 1, z), s.x);
  float b = mix(ground_plane_hash(x, z + 1), ground_plane_hash(x + 1, z + 1), s.x);
  return mix(a, b, s.y);
}

// The plane's sRGB albedo at world (x, z): the base colour, brightened and darkened a little by value
// noise at two scales (`scale` metres and 6.1 times that), so a wide flat floor still shows distance and
// motion without a pattern that aliases far away.
MYRIAD_GROUND_PLANE_FN vec3 ground_plane_albedo(vec3 base, vec2 xz, float scale) {
  float n = 0.6f * ground_plane_noise(xz, scale) + 0.4f * ground_plane_noise(xz, scale * 6.1f);
  return base * (0.86f + 0.28f * n);
}

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(GroundPlanePush, 128, view_proj, 0, to_light, 64, rect, 80, albedo_scale, 96, height,
                    112);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
