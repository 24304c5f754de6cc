#version 460
// The trampling field (core/motion/plant_motion.hpp: splat_interactions is its CPU twin, bit for bit):
// one thread per (interactor, cell of the (2 reach + 1)² around its own); a cell whose centre lies
// within the foot's radius gets push += u * w and press += w (u = (centre - foot) / radius, w = (1 -
// |u|²)² * strength), rounded to fixed point and added with integer atomics, so the sums do not depend on
// the threads' order. The cells were cleared before this pass.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "interaction_field_layout.h"

layout(local_size_x = 64) in;
layout(binding = 0, scalar) readonly buffer Interactors { Interactor interactors[]; };
layout(binding = 1, scalar) buffer Motion {
  PlantMotionHeader header;
  InteractionCell cells[];
};
layout(push_constant, scalar) uniform Push { InteractionSplatPush pc; };

void main() {
  uint side = 2u * pc.reach + 1u;
  uint footprint = side * side;
  uint thread = gl_GlobalInvocationID.x;
  uint j = thread / footprint, o = thread % footprint;
  if (j >= min(pc.count, uint(interactors.length()))) return;
  Interactor e = interactors[j];
  InteractionGrid g = pc.grid;
  int res = int(g.resolution);
  float far = float(res) + float(pc.reach) + 1.0;
  precise vec2 f = floor((e.position - g.min) * g.inv_cell);
  if (!(f.x > -far && f.y > -far && f.x < far && f.y < far)) return;
  int cx = int(f.x) + int(o % side) - int(pc.reach), cz = int(f.y) + int(o / side) - int(pc.reach);
  if (cx < 0 || cz < 0 || cx >= res || cz >= res) return;
  precise vec2 mid = g.min + (vec2(float(cx), float(cz)) + 0.5) * g.cell;
  precise vec2 u = (mid - e.position) * e.inv_radius;
  precise float q = u.x * u.x + u.y * u.y;
  if (!(q < 1.0)) return;
  precise float w = (1.0 - q) * (1.0 - q) * e.strength;
  uint index = uint(cz) * g.resolution + uint(cx);
  if (index >= uint(cells.length())) return;
  precise float px = u.x * w * MYRIAD_INTERACTION_ONE;
  precise float pz = u.y * w * MYRIAD_INTERACTION_ONE;
  precise float pw = w * MYRIAD_INTERACTION_ONE;
  atomicAdd(cells[index].push_x, int(roundEven(px)));
  atomicAdd(cells[index].push_z, int(roundEven(pz)));
  atomicAdd(cells[index].press, int(roundEven(pw)));
}
