#version 460
// Vegetation culling, one workgroup per live pool page and one thread per slot: the pooled record is
// expanded (veg_expand.glsl), hashed distance LOD (the draw distance culls), frustum test on the
// bounding sphere, then append to that LOD's list with one reservation per subgroup and LOD; an instance
// inside a LOD's cross-fade band is appended to that LOD and the next one with complementary dither
// words. Exact CPU reference: myriad::vegetation::expand_plant + pick_lod_hashed +
// Frustum::intersects(Sphere) (same expressions, `precise`).
#extension GL_GOOGLE_include_directive : require
#include "veg_cull_body.glsl"
