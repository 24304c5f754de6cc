#version 460
// Voxel grass culling: voxel_grass_cull_body.glsl without the pyramid (single and early passes).
#extension GL_GOOGLE_include_directive : require
#include "voxel_grass_cull_body.glsl"
