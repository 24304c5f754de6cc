// Layouts of the vegetation draw (veg_plant.vert/.frag), shared by C++ and GLSL.
#ifndef MYRIAD_VEG_PLANT_LAYOUT_H
#define MYRIAD_VEG_PLANT_LAYOUT_H

#include "shared_types.h"
// The instance (RuntimeInstance) is the vegetation module's own record.
#ifdef __cplusplus
#include "myriad/vegetation/runtime/vegetation_gpu_layout.h"
#else
#include "vegetation/runtime/vegetation_gpu_layout.h"
#endif

#define VEG_DRAW_IDS 2u  // colour = instance id + 1 in RGB (24 bits), LOD in A, unlit
#define VEG_DRAW_SHADOW 4u
#define VEG_NO_TEXTURE \
  0xFFFFu  // VegPlantVertex::layer of untextured surfaces  // depth from the light: a fading instance casts
           // once, with its outgoing LOD

MYRIAD_SHADER_NAMESPACE_BEGIN
// A plant mesh vertex (metres, base at the origin, +Y up) with its surface: texture coordinates as
// two halves, the base colour in RGB with the alpha cutoff in A (0 = opaque), the array-texture layer
// in the low 16 bits (VEG_NO_TEXTURE = untextured) and its wrap modes above them
// (UvWrapModes::packed(), uv_wrap.glsl).
struct VegPlantVertex {
  vec3 position;
  uint uv;
  vec3 normal;
  uint color;
  uint layer;
};
// One draw: view-projection relative to the render origin (the frame of the instance matrices), the
// light direction (towards the light; w unused) for the shading model (lighting.glsl), VEG_DRAW_* flags, the
// id of the type's slot 0 and the LOD drawn (for VEG_DRAW_IDS). Plant motion (plant_motion.glsl): the type's
// height at scale 1 (vertices bend by their height over it), the motion buffer's device address, the
// scene clock and the type's wind and trampling weights (core/motion/plant_motion.hpp:
// plant_motion_type). Direct draws (ground, occluders) do not move.
struct VegPlantPush {
  mat4 view_proj;
  vec4 light;
  float plant_height;
  uint flags;
  uint id_base;
  uint lod;
  uvec2 motion;
  float time;
  float sway;
  float trample;
  uint pad0;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(VegPlantVertex, 36, position, 0, uv, 12, normal, 16, color, 28, layer, 32);
MYRIAD_CHECK_LAYOUT(VegPlantPush, 120, view_proj, 0, light, 64, plant_height, 80, flags, 84, id_base, 88, lod,
                    92, motion, 96, time, 104, sway, 108, trample, 112, pad0, 116);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
