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

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(AvatarBlob, 20, centre, 0, radius, 12, strength, 16);
MYRIAD_CHECK_LAYOUT(AvatarBlobPush, 80, view_proj, 0, params, 64);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
