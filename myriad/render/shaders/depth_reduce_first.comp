#version 460
// Level 0 of the depth pyramid, read straight from the depth buffer with texelFetch: depth formats
// need not support linear filtering, so the MIN sampler (depth_reduce.comp) starts at level 1.
// The footprint rule is the same: 2x2 texels, widened to 3 at the last texel of an odd size.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "depth_reduce_layout.h"

layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0) uniform sampler2D source;
layout(binding = 1, r32f) uniform writeonly image2D destination;

layout(push_constant, scalar) uniform Push { DepthReducePush pc; };

void main() {
  uvec2 pos = gl_GlobalInvocationID.xy;
  // Bounded by the image itself too, not only by the CPU's size.
  uvec2 bound = min(pc.destination_size, uvec2(imageSize(destination)));
  if (pos.x >= bound.x || pos.y >= bound.y) return;
  uvec2 lo = min(2 * pos, pc.source_size - 1);
  uvec2 hi = min(2 * pos + 1, pc.source_size - 1);
  if (pos.x == pc.destination_size.x - 1) hi.x = pc.source_size.x - 1;
  if (pos.y == pc.destination_size.y - 1) hi.y = pc.source_size.y - 1;
  float d = texelFetch(source, ivec2(lo), 0).x;
  for (uint y = lo.y; y <= hi.y; ++y) {
    for (uint x = lo.x; x <= hi.x; ++x) d = min(d, texelFetch(source, ivec2(x, y), 0).x);
  }
  imageStore(destination, ivec2(pos), vec4(d));
}
