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
MYRIAD_SHADER_NAMESPACE_END

#ifdef __cplusplus
static_assert(sizeof(myriad::render::shader::CullSpheresPush) == 112);
static_assert(sizeof(myriad::render::shader::DrawIndexedCommand) == 20);
#endif

#endif
