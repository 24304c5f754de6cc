#version 460
// Voxel tree culling: voxel_tree_cull_body.glsl without the pyramid (single and early passes).
#extension GL_GOOGLE_include_directive : require
#include "voxel_tree_cull_body.glsl"
