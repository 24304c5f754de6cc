#version 460
// Vegetation culling, one thread per instance of a group segment: hashed distance LOD (the draw
// distance culls), frustum test on the bounding sphere, then append to that LOD's list with one atomic
// per subgroup and LOD into the LOD's indirect args (instance_count); an instance inside a LOD's
// cross-fade band is appended to that LOD and the next one with complementary dither words. Exact CPU
// reference: myriad::vegetation::pick_lod_hashed + Frustum::intersects(Sphere) (same expressions,
// `precise`).
#extension GL_GOOGLE_include_directive : require
#include "veg_cull_body.glsl"
