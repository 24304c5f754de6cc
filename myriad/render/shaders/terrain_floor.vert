#version 460
// The world's floor under a slice (V14): one quad at y = 0 over the world's extent, facing down, drawn only
// while a slice is set. The mesher leaves the bottom of the world open (the cells below count as solid
// stone), so without it a column that is solid down to the floor would show what lies under the world
// through the cut. Seen from above it is a back face, which terrain.frag shades as the cut's face. Here
// pc.arena carries the floor's texture tile: the surface is never an atlas record, so no arena is read.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "terrain_layout.h"

layout(push_constant, scalar) uniform Push { TerrainPush pc; };

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_light;
layout(location = 3) out vec2 out_quad_uv;
layout(location = 4) flat out uvec4 out_surface;

out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[1];
};

void main() {
  const uint kCorner[6] = uint[](0u, 1u, 2u, 2u, 1u, 3u);
  uint c = kCorner[uint(gl_VertexIndex) % 6u];
  vec3 world = vec3((c & 1u) != 0u ? pc.floor_rect.z : pc.floor_rect.x, 0.0,
                    (c & 2u) != 0u ? pc.floor_rect.w : pc.floor_rect.y);
  gl_Position = pc.view_proj * vec4(world, 1.0);
  gl_ClipDistance[0] = pc.slice_height - world.y;
  out_world = world;
  out_normal = vec3(0.0, -1.0, 0.0);
  out_light = vec4(0.0);
  out_quad_uv = vec2(0.0);
  out_surface = uvec4(pc.arena, 0u, 0u, 0u);
}
