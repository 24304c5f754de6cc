#version 460
// Vegetation meshes placed by RuntimeInstances as they are (ground, occluders; see veg_plant_body.glsl).
#extension GL_GOOGLE_include_directive : require
#define VEG_DIRECT 1
#include "veg_plant_body.glsl"
