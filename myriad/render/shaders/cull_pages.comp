#version 460
// CullPages: cull_pages_body.glsl without the pyramid (single and early passes).
#extension GL_GOOGLE_include_directive : require
#include "cull_pages_body.glsl"
