// Two-phase Hi-Z occlusion of the batch renderer's renderers (render::BatchOcclusion): one invocation
// per renderer index. What the CPU passed (layer, LOD, frustum) goes through the two-phase rule of
// hiz.glsl with its bounding sphere's cube, the same box batch::cull tests as the CPU reference; the
// outcome is one word per renderer that batch_compact.comp reads.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "batch_cull_layout.h"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Renderers { BatchCullRenderer renderers[]; };
layout(binding = 1, scalar) writeonly buffer Keep { uint keep[]; };
#define HIZ_FIRST_BINDING 2  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"

layout(push_constant, scalar) uniform Push { BatchCullPush pc; };

void main() {
  // No early return: the two-phase rule counts with subgroup operations.
  uint id = gl_GlobalInvocationID.x;
  uint bound = min(min(pc.renderer_count, uint(renderers.length())), min(uint(keep.length()), uint(visibility.length())));
  bool in_range = id < bound;
  bool passed = false;
  vec4 sphere = vec4(0.0);
  if (in_range) {
    BatchCullRenderer r = renderers[id];
    passed = r.passed != 0u;
    sphere = vec4(r.center, r.radius);
  }
  precise vec3 lo = sphere.xyz - sphere.w;
  precise vec3 hi = sphere.xyz + sphere.w;
  bool draw = hiz_phase_keep(pc.phase, in_range, id, passed, lo, hi);
  if (in_range) keep[id] = draw ? 1u : 0u;
}
