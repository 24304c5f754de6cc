// Layouts of the avatar blob shadows (SPEC B9), shared by C++ and GLSL.
#ifndef MYRIAD_AVATAR_BLOB_LAYOUT_H
#define MYRIAD_AVATAR_BLOB_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// One soft disc on the ground: centre on the ground plane, radius in world units, strength = the
// alpha (darkening) at the centre.
struct AvatarBlob {
  vec3 centre;
  float radius;
  float strength;
};
struct AvatarBlobPush {
  mat4 view_proj;
  vec4 params;  // x: lift along +Y so the disc wins the depth test against the ground it lies on
};
MYRIAD_SHADER_NAMESPACE_END

#ifdef __cplusplus
static_assert(sizeof(myriad::render::shader::AvatarBlob) == 20);
static_assert(sizeof(myriad::render::shader::AvatarBlobPush) == 80);
#endif

#endif
