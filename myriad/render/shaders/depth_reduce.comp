#version 460
// One level of the depth pyramid: each texel is the MIN of the 2x2 source texels below it (3 wide
// or tall at the last texel when the source size is odd), read through a MIN-reduction sampler at
// texel corners. With reverse-Z, MIN keeps the farthest depth: conservative for occlusion tests.
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
  vec2 inv = 1.0 / vec2(pc.source_size);
  // Corner between source texels 2p and 2p+1; with an odd source the last texel also takes 2p+2
  // (the corner 2p+3 clamps to it).
  bool extra_x = pos.x == pc.destination_size.x - 1 && (pc.source_size.x & 1u) == 1u && pc.source_size.x > 1u;
  bool extra_y = pos.y == pc.destination_size.y - 1 && (pc.source_size.y & 1u) == 1u && pc.source_size.y > 1u;
  vec2 corner = vec2(2 * pos + 1);
  float d = texture(source, corner * inv).x;
  if (extra_x) d = min(d, texture(source, (corner + vec2(2, 0)) * inv).x);
  if (extra_y) d = min(d, texture(source, (corner + vec2(0, 2)) * inv).x);
  if (extra_x && extra_y) d = min(d, texture(source, (corner + vec2(2, 2)) * inv).x);
  imageStore(destination, ivec2(pos), vec4(d));
}
