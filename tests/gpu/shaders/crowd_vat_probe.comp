#version 460
// Samples VAT positions and normals for a list of (column, clip, time) probes with the crowd shaders'
// own sampling code, so tests can compare the GPU path with crowd::vat_sample_position.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "crowd_layout.h"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Texels { uint vat_texels[]; };
layout(binding = 1, scalar) readonly buffer Clips { VatClipRuntime clips[]; };
layout(binding = 2, scalar) readonly buffer Probes { CrowdVatProbe probes[]; };
layout(binding = 3, scalar) writeonly buffer Out { vec4 results[]; };  // position, then normal

layout(push_constant, scalar) uniform Push { CrowdVatProbePush pc; };

#include "crowd_vat.glsl"

void main() {
  uint id = gl_GlobalInvocationID.x;
  if (id >= pc.probe_count) return;
  CrowdVatProbe probe = probes[id];
  VatClipRuntime clip = clips[probe.clip];
  VatFrame frame = vat_frame(clip, probe.local_time);
  results[id * 2u] = vec4(vat_sample_position(clip, frame, probe.column, pc.columns), 1.0);
  results[id * 2u + 1u] = vec4(vat_sample_normal(frame, probe.column, pc.columns), 0.0);
}
