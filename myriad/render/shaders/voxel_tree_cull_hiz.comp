#version 460
// Voxel tree culling, late pass of two-phase occlusion: voxel_tree_cull_body.glsl with the Hi-Z test.
#extension GL_GOOGLE_include_directive : require
#define HIZ_TEST 1
#include "voxel_tree_cull_body.glsl"
