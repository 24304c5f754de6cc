#version 460
// CullPages (V11): one thread per page slot; AABB against the frustum (near and far included) and the
// slice height; each survivor's id is appended to its arena's visible list and counted as one more
// instance of that arena's indirect draw.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "page_layout.h"
#include "frustum.glsl"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Pages { PageGpu pages[]; };
layout(binding = 1, scalar) readonly buffer Arenas { ArenaCullGpu arenas[]; };
layout(binding = 2, scalar) buffer Draws { DrawCommand draws[]; };  // one per arena
layout(binding = 3, scalar) writeonly buffer Visible { uint visible[]; };

layout(push_constant, scalar) uniform Push { CullPagesPush pc; };

void main() {
  uint id = gl_GlobalInvocationID.x;
  if (id >= pc.page_count) return;
  PageGpu page = pages[id];
  if (page.arena == 0xffffffffu || page.arena >= pc.arena_count) return;
  if (page.aabb_min.y > pc.slice_height) return;
  if (!frustum_intersects_aabb(pc.planes, page.aabb_min, page.aabb_max)) return;
  uint slot = atomicAdd(draws[page.arena].instance_count, 1u);
  visible[arenas[page.arena].visible_base + slot] = id;
}
