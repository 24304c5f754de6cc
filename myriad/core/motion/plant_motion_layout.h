// What every plant shader reads to move its plants, defined once for C++ and GLSL
// (core/layout/gpu_layout.h): the wind's parameters, the placement of the trampling grid, the grid's
// cells and the interactors (feet) splatted into it. One GPU buffer holds a PlantMotionHeader followed
// by the grid's cells; core/motion/plant_motion.hpp is the CPU twin of the shaders that read and write
// it (render/shaders/wind.glsl, plant_motion.glsl, interaction_field.comp).
#ifndef MYRIAD_CORE_PLANT_MOTION_LAYOUT_H
#define MYRIAD_CORE_PLANT_MOTION_LAYOUT_H

#ifdef __cplusplus
#include "myriad/core/layout/gpu_layout.h"
namespace myriad {
#else
#include "core/layout/gpu_layout.h"
#endif

// A cell's push and press are fixed point: this many units per 1.0. Interactors add integers, so the
// sum does not depend on their order (the GPU's atomics and the CPU's loop give the same bits).
#define MYRIAD_INTERACTION_ONE 65536.0
// The wind's lean never exceeds this (tip displacement per metre of plant height): it bounds how far a
// swaying vertex can leave its plant's bounds (plant_motion.hpp: sway_bounds).
#define MYRIAD_MAX_WIND_BEND 0.4
// A fully pressed plant leans its tip this far sideways per metre of height before its length is
// restored (about 72 degrees from upright: flattened).
#define MYRIAD_TRAMPLE_BEND 3.0

// The wind (plant_motion.hpp: wind_bend): a steady lean along `direction` plus gust fronts that travel
// along it at `gust_speed`, `gust_scale` metres apart, with small ripples riding them. Bends are tip
// displacements per metre of plant height.
struct WindParams {
  MYRIAD_GPU_TYPES
  vec2 direction MYRIAD_INIT(vec2(0.8f, 0.6f));  // unit XZ vector the wind blows towards
  float strength MYRIAD_INIT(0.05f);             // steady lean
  float gust_strength MYRIAD_INIT(0.16f);        // extra lean at a gust's crest
  float gust_speed MYRIAD_INIT(5.0f);            // metres per second
  float gust_scale MYRIAD_INIT(28.0f);           // metres between gust fronts
  float flutter MYRIAD_INIT(0.025f);             // ripple amplitude (along and across the wind)
  float pad MYRIAD_INIT(0.0f);
};

// The trampling grid: resolution x resolution square cells, cell (0, 0)'s corner at `min` (XZ,
// relative to the render origin); cell (i, j) is index j * resolution + i. resolution 0: no grid.
struct InteractionGrid {
  MYRIAD_GPU_TYPES
  vec2 min MYRIAD_INIT(vec2(0.0f));
  float cell MYRIAD_INIT(0.5f);
  float inv_cell MYRIAD_INIT(2.0f);
  uint resolution MYRIAD_INIT(0u);
  uint pad0 MYRIAD_INIT(0u);
  uint pad1 MYRIAD_INIT(0u);
  uint pad2 MYRIAD_INIT(0u);
};

// The head of the motion buffer; the cells follow it. `origin`: the render origin's XZ, added to
// positions before the wind (a world-space field) is evaluated.
struct PlantMotionHeader {
  MYRIAD_GPU_TYPES
  WindParams wind;
  InteractionGrid grid;
  vec2 origin MYRIAD_INIT(vec2(0.0f));
  vec2 pad MYRIAD_INIT(vec2(0.0f));
};

// One cell: the summed push (XZ, away from the interactors) and press (how hard the cell is trodden,
// 1 = flattened), in MYRIAD_INTERACTION_ONE units.
struct InteractionCell {
  int push_x MYRIAD_INIT(0);
  int push_z MYRIAD_INIT(0);
  int press MYRIAD_INIT(0);
  int pad MYRIAD_INIT(0);
};

// One foot (an entity's or avatar's ground point): XZ relative to the render origin, 1 / its radius
// (the reciprocal computed once on the CPU, so the GPU divides nothing) and a strength in [0, 1].
struct Interactor {
  MYRIAD_GPU_TYPES
  vec2 position MYRIAD_INIT(vec2(0.0f));
  float inv_radius MYRIAD_INIT(1.0f);
  float strength MYRIAD_INIT(1.0f);
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(WindParams, 32, direction, 0, strength, 8, gust_strength, 12, gust_speed, 16, gust_scale,
                    20, flutter, 24, pad, 28);
MYRIAD_CHECK_LAYOUT(InteractionGrid, 32, min, 0, cell, 8, inv_cell, 12, resolution, 16, pad0, 20, pad1, 24,
                    pad2, 28);
MYRIAD_CHECK_LAYOUT(PlantMotionHeader, 80, wind, 0, grid, 32, origin, 64, pad, 72);
MYRIAD_CHECK_LAYOUT(InteractionCell, 16, push_x, 0, push_z, 4, press, 8, pad, 12);
MYRIAD_CHECK_LAYOUT(Interactor, 16, position, 0, inv_radius, 8, strength, 12);
}  // namespace myriad
#endif

#endif  // MYRIAD_CORE_PLANT_MOTION_LAYOUT_H
