// Compile check for myriad/core/layout/packing.glsl (run by ctest as core.packing_glsl_compiles).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "myriad/core/layout/packing.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Packed { uint packed_values[]; };
layout(std430, binding = 1) writeonly buffer Unpacked { vec4 unpacked_values[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint p = packed_values[i];
  vec3 n = unpack_octahedral(p);
  vec4 c = unpack_rgba8(p);
  vec4 l = unpack_light(p) + vec4(unpack_light_bytes(p));
  unpacked_values[i] = vec4(n, unpack_half(p)) + c + l;
}
