#version 460
// Batch renderer occlusion, late pass of two-phase occlusion: batch_cull_body.glsl with the Hi-Z test.
#extension GL_GOOGLE_include_directive : require
#define HIZ_TEST 1
#include "batch_cull_body.glsl"
