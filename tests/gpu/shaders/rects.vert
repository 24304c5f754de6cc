#version 460
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "rects_layout.h"

layout(binding = 0, scalar) readonly buffer Rects { TestRect rects[]; };
layout(push_constant, scalar) uniform Push { TestRectPush pc; };
layout(location = 0) flat out uint out_color;

void main() {
  // gl_InstanceIndex = the indirect command's first_instance = the rectangle the culling kept.
  TestRect r = rects[gl_InstanceIndex];
  uint corner = uint(gl_VertexIndex);
  vec2 p = vec2((corner & 1u) != 0u ? r.max.x : r.min.x, (corner & 2u) != 0u ? r.max.y : r.min.y);
  gl_Position = vec4(p / pc.target_size * 2.0 - 1.0, r.depth, 1.0);
  out_color = r.color;
}
