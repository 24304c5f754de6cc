// Expansion of a pooled plant (PlantRecord + its PlantPage) into its camera-relative 3x4 matrix, tint,
// LOD hash and bounding sphere: myriad::vegetation::expand_plant (vegetation/runtime/plant_expand.cpp) is the
// exact CPU reference, same operations in the same order, `precise` so nothing is fused. The including
// shader declares `float decode[]` (the decode table: q / 65535, cos, sin of q / 65536 turns).
#ifndef MYRIAD_VEG_EXPAND_GLSL
#define MYRIAD_VEG_EXPAND_GLSL

struct PlantMatrix {
  vec4 row0, row1, row2;
  vec3 local;   // tile-local position
  float scale;
  uint tint;    // RGBA8 bits, a = 0
};

PlantMatrix expand_plant_matrix(PlantRecord r, PlantPage page) {
  uint qx = r.pos_xy & 0xFFFFu, qy = r.pos_xy >> 16, qz = r.pos_z_yaw & 0xFFFFu, yaw = r.pos_z_yaw >> 16;
  PlantMatrix m;
  precise vec3 local = vec3(page.pos_min.x + page.pos_extent.x * decode[qx],
                            page.pos_min.y + page.pos_extent.y * decode[qy],
                            page.pos_min.z + page.pos_extent.z * decode[qz]);
  float scale = unpackHalf2x16(r.scale_tint & 0xFFFFu).x;
  precise float c = decode[VEG_DECODE_STEPS + yaw] * scale;
  precise float s = decode[2u * VEG_DECODE_STEPS + yaw] * scale;
  precise vec3 t = vec3(page.offset.x + local.x, page.offset.y + local.y, page.offset.z + local.z);
  m.row0 = vec4(c, 0.0, s, t.x);
  m.row1 = vec4(0.0, scale, 0.0, t.y);
  m.row2 = vec4(-s, 0.0, c, t.z);
  m.local = local;
  m.scale = scale;
  m.tint = (r.scale_tint >> 16) | ((r.tint_b & 0xFFu) << 16);
  return m;
}

#include "vegetation/runtime/plant_hash.h"  // plant_lod_hash, the one definition shared with C++

// The bounding sphere (xyz centre relative to the render origin, w radius) of the type's sphere shape
// per unit scale (centre height `mid`, radius `radius`).
vec4 plant_sphere(PlantMatrix m, PlantPage page, float mid, float radius) {
  precise float r = m.scale * radius;
  precise float cy = m.local.y + m.scale * mid;
  precise vec3 c = vec3(page.offset.x + m.local.x, page.offset.y + cy, page.offset.z + m.local.z);
  return vec4(c, r);
}

#endif
