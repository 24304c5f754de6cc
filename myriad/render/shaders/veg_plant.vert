#version 460
// Vegetation plants (G6): one instanced indexed draw per LOD from the culling pass's lists, pooled
// records expanded here (see veg_plant_body.glsl).
#extension GL_GOOGLE_include_directive : require
#include "veg_plant_body.glsl"
