// The trampling splat's push constants (interaction_field.comp), shared by C++ and GLSL.
#ifndef MYRIAD_INTERACTION_FIELD_LAYOUT_H
#define MYRIAD_INTERACTION_FIELD_LAYOUT_H

#include "shared_types.h"
#ifdef __cplusplus
#include "myriad/core/motion/plant_motion_layout.h"
#else
#include "core/motion/plant_motion_layout.h"
#endif

MYRIAD_SHADER_NAMESPACE_BEGIN
#ifdef __cplusplus
using InteractionGrid = myriad::InteractionGrid;
#endif
// The grid of this frame, the interactors to splat and the cells each side of a foot's own cell it
// visits (threads: count * (2 reach + 1)²).
struct InteractionSplatPush {
  InteractionGrid grid;
  uint count;
  uint reach;
  uint pad0;
  uint pad1;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(InteractionSplatPush, 48, grid, 0, count, 32, reach, 36, pad0, 40, pad1, 44);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
