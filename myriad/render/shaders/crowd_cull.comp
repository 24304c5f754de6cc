#version 460
// Crowd culling: crowd_cull_body.glsl without the pyramid (single and early passes).
#extension GL_GOOGLE_include_directive : require
#include "crowd_cull_body.glsl"
