#version 460
// One quad per blob (triangle strip from gl_VertexIndex 0..3), lying on the ground plane y = centre.y
// (+ lift); the instance is the blob. The fragment shader gets the position in disc units.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "avatar_blob_layout.h"

layout(binding = 0, scalar) readonly buffer Blobs { AvatarBlob blobs[]; };
layout(push_constant, scalar) uniform Push { AvatarBlobPush pc; };

layout(location = 0) out vec2 out_disc;        // (-1..1)^2, |out_disc| = 1 on the rim
layout(location = 1) flat out float out_strength;

void main() {
  AvatarBlob b = blobs[gl_InstanceIndex];
  uint corner = uint(gl_VertexIndex);
  vec2 disc = vec2((corner & 1u) != 0u ? 1.0 : -1.0, (corner & 2u) != 0u ? 1.0 : -1.0);
  vec3 world = b.centre + vec3(disc.x * b.radius, pc.params.x, disc.y * b.radius);
  gl_Position = pc.view_proj * vec4(world, 1.0);
  out_disc = disc;
  out_strength = b.strength;
}
