// Frustum tests for culling shaders: the same expressions, in the same order, as myriad::Frustum
// (core/cull/frustum.cpp), with `precise` so no FMA contraction changes the rounding.
#ifndef MYRIAD_FRUSTUM_GLSL
#define MYRIAD_FRUSTUM_GLSL

float plane_distance(vec4 p, vec3 v) {
  precise float d = p.x * v.x + p.y * v.y + p.z * v.z + p.w;
  return d;
}

bool frustum_intersects_aabb(vec4 planes[6], vec3 lo, vec3 hi) {
  for (int i = 0; i < 6; ++i) {
    vec4 p = planes[i];
    vec3 positive = vec3(p.x >= 0.0 ? hi.x : lo.x, p.y >= 0.0 ? hi.y : lo.y, p.z >= 0.0 ? hi.z : lo.z);
    if (plane_distance(p, positive) < 0.0) return false;
  }
  return true;
}

bool frustum_intersects_sphere(vec4 planes[6], vec4 s) {
  for (int i = 0; i < 6; ++i) {
    if (plane_distance(planes[i], s.xyz) < -s.w) return false;
  }
  return true;
}

#endif
