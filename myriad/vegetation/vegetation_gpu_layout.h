// The vegetation record the GPU reads as it is, defined once for C++ and GLSL (core/gpu_layout.h): a
// plant instance in runtime form (veg_plant.vert draws it; runtime.hpp expands tiles into it).
#ifndef MYRIAD_VEGETATION_VEGETATION_GPU_LAYOUT_H
#define MYRIAD_VEGETATION_VEGETATION_GPU_LAYOUT_H

#ifdef __cplusplus
#include "myriad/core/gpu_layout.h"
namespace myriad::vegetation {
#else
#include "core/gpu_layout.h"
#endif

// Rows 0..2: the affine local-to-(world - render origin) matrix, row-major (x' = dot(row0, (p, 1))).
// spare: x = tint as RGBA8 bits (r in the low byte, a = 0) stored in a float slot (read with
// floatBitsToUint), y = per-instance LOD hash in [0, 1), z = bounding-sphere radius, w = 1.
struct RuntimeInstance {
  MYRIAD_GPU_TYPES
  vec4 row0, row1, row2, spare;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(RuntimeInstance, 64, row0, 0, row1, 16, row2, 32, spare, 48);
}  // namespace myriad::vegetation
#endif

#endif  // MYRIAD_VEGETATION_VEGETATION_GPU_LAYOUT_H
