// Layouts of the vegetation draw (veg_plant.vert/.frag), shared by C++ and GLSL.
#ifndef MYRIAD_VEG_PLANT_LAYOUT_H
#define MYRIAD_VEG_PLANT_LAYOUT_H

#include "shared_types.h"

#define VEG_DRAW_DIRECT 1u  // instance = gl_InstanceIndex, no list, no fade (ground, occluders)
#define VEG_DRAW_IDS 2u     // colour = instance id + 1 in RGB (24 bits), LOD in A, unlit
#define VEG_DRAW_SHADOW 4u  // depth from the light: a fading instance casts once, with its outgoing LOD

MYRIAD_SHADER_NAMESPACE_BEGIN
// A generated plant mesh vertex (metres, base at the origin, +Y up).
struct VegPlantVertex {
  vec3 position;
  float pad0;
  vec3 normal;
  float pad1;
};
// One draw: view-projection relative to the render origin (the frame of the instance matrices), the
// light direction (towards the light) with the ambient term in w, where the fade words start in the
// lists buffer, VEG_DRAW_* flags, the id of the type's instance 0 and the LOD drawn (for VEG_DRAW_IDS).
struct VegPlantPush {
  mat4 view_proj;
  vec4 light;
  uint fade_offset;
  uint flags;
  uint id_base;
  uint lod;
};
MYRIAD_SHADER_NAMESPACE_END

#ifdef __cplusplus
static_assert(sizeof(myriad::render::shader::VegPlantVertex) == 32);
static_assert(sizeof(myriad::render::shader::VegPlantPush) == 96);
#endif

#endif
