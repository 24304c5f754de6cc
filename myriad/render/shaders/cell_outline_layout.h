// The picked cell's outline (voxel editing): push constants shared by C++ and GLSL.
#ifndef MYRIAD_CELL_OUTLINE_LAYOUT_H
#define MYRIAD_CELL_OUTLINE_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
struct CellOutlinePush {
  mat4 view_proj;
  vec4 cell;        // xyz: the cell's low corner in world units; w: its edge length
  vec4 color;       // of the cell's edges (rgb; a unused)
  vec4 face_color;  // of the picked face's inset square
  uint face;        // voxel::Face of the picked face
  float slice_height;
  uint pad0;
  uint pad1;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(CellOutlinePush, 128, view_proj, 0, cell, 64, color, 80, face_color, 96, face, 112,
                    slice_height, 116);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
