#version 460
// Vegetation culling with Hi-Z occlusion (see veg_cull_body.glsl): frustum + hashed LOD as veg_cull.comp,
// then the conservative pyramid test. Run as the late pass of two-phase occlusion culling.
#extension GL_GOOGLE_include_directive : require
#define HIZ_TEST 1
#include "veg_cull_body.glsl"
