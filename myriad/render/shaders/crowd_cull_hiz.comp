#version 460
// Crowd culling, late pass of two-phase occlusion: crowd_cull_body.glsl with the Hi-Z test.
#extension GL_GOOGLE_include_directive : require
#define HIZ_TEST 1
#include "crowd_cull_body.glsl"
