#version 460
// CullPages, late pass of two-phase occlusion: cull_pages_body.glsl with the Hi-Z test.
#extension GL_GOOGLE_include_directive : require
#define HIZ_TEST 1
#include "cull_pages_body.glsl"
