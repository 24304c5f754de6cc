#version 460
// The flat ground plane: one quad (a four-vertex strip) spanning the push constants' rectangle at the
// plane's height, facing up.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "ground_plane_layout.h"

layout(push_constant, scalar) uniform Push { GroundPlanePush pc; };

layout(location = 0) out vec3 out_world;

void main() {
  vec2 corner = vec2(float(gl_VertexIndex & 1), float((gl_VertexIndex >> 1) & 1)) * 2.0 - 1.0;
  vec2 xz = pc.rect.xy + corner * pc.rect.zw;
  out_world = vec3(xz.x, pc.height, xz.y);
  gl_Position = pc.view_proj * vec4(out_world, 1.0);
}
