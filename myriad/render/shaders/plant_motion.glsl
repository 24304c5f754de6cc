// Plant motion for vertex shaders (core/motion/plant_motion.hpp is the CPU twin, function for function):
// the motion buffer (a PlantMotionHeader, then the trampling grid's cells; an InteractionField's, or a
// renderer's stand-in without a grid) reached through its device address, the wind's and the
// trampling's bend of a plant at its root (one cell fetched), and a vertex bent by it. The including
// shader enables GL_EXT_buffer_reference, GL_EXT_buffer_reference_uvec2 and GL_EXT_scalar_block_layout.
// Nothing here branches on push constants alone (see shadow.glsl): selects only.
#include "core/motion/plant_motion_layout.h"
#include "wind.glsl"

layout(buffer_reference, scalar, buffer_reference_align = 16) readonly buffer PlantMotion {
  PlantMotionHeader header;
  InteractionCell cells[];
};

// Wind and trampling weights of a plant `height` metres tall (plant_sway_weight, plant_trample_weight).
float plant_sway_weight(float height) { return 1.0 / (1.0 + 0.25 * height); }
float plant_trample_weight(float height) { return clamp((2.0 - height) * 2.0, 0.0, 1.0); }

// The trampling at `xz` (relative to the render origin): xy the push's unit direction (the wind's where
// it cancels), z the amount in [0, 1]; nothing outside the grid.
vec3 trample_at(PlantMotion m, vec2 xz) {
  InteractionGrid g = m.header.grid;
  vec2 f = floor((xz - g.min) * g.inv_cell);
  float res = float(g.resolution);
  bool inside = f.x >= 0.0 && f.y >= 0.0 && f.x < res && f.y < res;
  uint index = inside ? uint(f.y) * g.resolution + uint(f.x) : 0u;
  InteractionCell c = m.cells[index];
  vec2 push = vec2(float(c.push_x), float(c.push_z)) * (1.0 / MYRIAD_INTERACTION_ONE);
  float len = length(push);
  vec2 dir = len > 1e-5 ? push / len : m.header.wind.direction;
  float amount = min(float(c.press) * (1.0 / MYRIAD_INTERACTION_ONE), 1.0);
  return vec3(inside ? dir : m.header.wind.direction, inside ? amount : 0.0);
}

// The bend of a plant rooted at `root_xz` (relative to the render origin) at `time`: the wind's scaled
// by `sway`, giving way to the trampling's as `trample` times its amount grows.
vec2 plant_bend(PlantMotion m, vec2 root_xz, float time, float sway, float trample) {
  vec2 wind = wind_bend(m.header.wind, root_xz + m.header.origin, time) * sway;
  vec3 t = trample_at(m, root_xz);
  return mix(wind, t.xy * MYRIAD_TRAMPLE_BEND, t.z * trample);
}

// A vertex `rel` (relative to the root) at height fraction `h01` of a plant `height` metres tall, bent by
// `bend` (bend * height * h01², then scaled back to its distance from the root).
vec3 bend_vertex(vec3 rel, float h01, float height, vec2 bend) {
  float f = h01 * h01;
  vec3 bent = rel + vec3(bend.x, 0.0, bend.y) * (height * f);
  vec3 kept = bent * (length(rel) / max(length(bent), 1e-20));
  return f > 0.0 ? kept : rel;
}
