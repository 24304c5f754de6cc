// Layout of the depth-pyramid reduction (depth_reduce.comp, depth_reduce_first.comp), shared by C++ and
// GLSL.
#ifndef MYRIAD_DEPTH_REDUCE_LAYOUT_H
#define MYRIAD_DEPTH_REDUCE_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// One level: the size of the level read and of the level written, in texels.
struct DepthReducePush {
  uvec2 source_size;
  uvec2 destination_size;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(DepthReducePush, 16, source_size, 0, destination_size, 8);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
