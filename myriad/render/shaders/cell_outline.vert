#version 460
// The picked cell's outline (voxel editing): its 12 edges, pushed a little outward so they win the depth
// test against the faces they lie on, then a square inset in the picked face. Line list of 32 vertices
// made from gl_VertexIndex: no buffers.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "cell_outline_layout.h"

layout(push_constant, scalar) uniform Push { CellOutlinePush pc; };
layout(location = 0) flat out vec3 out_color;

out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[1];
};

// Corner i of the unit cube at (i & 1, i >> 2 & 1, i >> 1 & 1), as voxel::corner_offset.
vec3 corner(uint i) { return vec3(float(i & 1u), float((i >> 2) & 1u), float((i >> 1) & 1u)); }

void main() {
  // The 12 edges as corner pairs.
  const uint kEdges[24] = uint[](0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u,   // along x
                                 0u, 2u, 1u, 3u, 4u, 6u, 5u, 7u,   // along z
                                 0u, 4u, 1u, 5u, 2u, 6u, 3u, 7u);  // along y
  uint v = uint(gl_VertexIndex);
  const float grow = 0.004;
  vec3 local;
  if (v < 24u) {
    local = (corner(kEdges[v]) - 0.5) * (1.0 + 2.0 * grow) + 0.5;
    out_color = pc.color.rgb;
  } else {
    // The face's square at 80 % of the side, just outside it: side axis a, in-plane axes p and q.
    uint k = (v - 24u) >> 1, end = (v - 24u) & 1u;  // edge k of the square, its end
    uint s = (k + end) & 3u;                          // square corner 0..3 around the face
    vec2 pq = vec2(s == 1u || s == 2u ? 0.9 : 0.1, s >= 2u ? 0.9 : 0.1);
    uint axis = pc.face >> 1;
    float side = (pc.face & 1u) != 0u ? 1.0 + grow : -grow;
    local = axis == 0u ? vec3(side, pq.x, pq.y) : axis == 1u ? vec3(pq.x, side, pq.y) : vec3(pq.x, pq.y, side);
    out_color = pc.face_color.rgb;
  }
  vec3 world = pc.cell.xyz + local * pc.cell.w;
  gl_Position = pc.view_proj * vec4(world, 1.0);
  gl_ClipDistance[0] = pc.slice_height - world.y;
}
