#version 460
// Batch renderer occlusion: batch_cull_body.glsl without the pyramid (single and early passes).
#extension GL_GOOGLE_include_directive : require
#include "batch_cull_body.glsl"
