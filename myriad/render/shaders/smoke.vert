#version 460
// Unit cube from gl_VertexIndex (24 vertices, 4 per face), placed per instance; the instance comes
// from the indirect command's first_instance, written by the culling pass.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "smoke_layout.h"

layout(binding = 0, scalar) readonly buffer Instances { SmokeInstance instances[]; };
layout(push_constant, scalar) uniform Push { SmokePush pc; };

layout(location = 0) out vec3 out_normal;
layout(location = 1) flat out uint out_color;

const vec3 kFaceNormals[6] = vec3[](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0), vec3(0, -1, 0),
                                    vec3(0, 0, 1), vec3(0, 0, -1));

void main() {
  uint face = uint(gl_VertexIndex) / 4u;
  uint corner = uint(gl_VertexIndex) % 4u;
  vec3 n = kFaceNormals[face];
  // Two tangents per face, ordered so (t, b, n) is right-handed and the quad winds counter-clockwise.
  vec3 t = abs(n.y) > 0.5 ? vec3(1, 0, 0) * n.y : vec3(-n.z, 0, n.x);
  vec3 b = cross(n, t);
  vec2 uv = vec2(corner & 1u, corner >> 1u) * 2.0 - 1.0;
  vec3 local = n + t * uv.x + b * uv.y;
  SmokeInstance inst = instances[gl_InstanceIndex];
  vec3 world = inst.center_half.xyz + local * inst.center_half.w;
  gl_Position = pc.view_proj * vec4(world, 1.0);
  out_normal = n;
  out_color = inst.color;
}
