// Layouts of the sphere-culling pass (cull_spheres.comp), shared by C++ and GLSL.
#ifndef MYRIAD_CULL_LAYOUT_H
#define MYRIAD_CULL_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// One thread per sphere: frustum test against 6 planes (xyz normal inward, w distance), survivors
// compacted into one DrawIndexedCommand each (first_instance = sphere index), count in a u32.
struct CullSpheresPush {
  vec4 planes[6];
  uint sphere_count;
  uint index_count;  // of the mesh each survivor draws
  uint first_index;
  uint command_capacity;  // DrawIndexedCommands the commands buffer holds
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(CullSpheresPush, 112, planes, 0, sphere_count, 96, index_count, 100, first_index, 104,
                    command_capacity, 108);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
