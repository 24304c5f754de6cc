// The ground material's parameters (vegetation::GroundMaterial), shared by C++ and GLSL: one uniform
// block the ground pass binds beside its four detail textures (shaders/ground.frag).
#ifndef MYRIAD_GROUND_LAYOUT_H
#define MYRIAD_GROUND_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
struct GroundMaterialGpu {
  vec4 heights;  // x: sand below (m), y: sand blend (m), z: rock above (m), w: unused
  vec4 rules;    // x: rock slope (1 - n.y), y: dirt share, z: 1 / detail metres, w: 1 / variation metres
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(GroundMaterialGpu, 32, heights, 0, rules, 16);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
