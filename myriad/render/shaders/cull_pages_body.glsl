// CullPages (V11): one thread per page slot; AABB against the frustum (near and far included) and the
// slice height, the two-phase Hi-Z rule (hiz.glsl; the pyramid only in cull_pages_hiz.comp); each
// survivor's id is appended to its draw group's visible list and counted as one more instance of that
// group's indirect command. cull_pages_reference (page_cull.cpp) is the exact CPU reference.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "page_layout.h"
#include "frustum.glsl"
#include "bounded_append.glsl"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Pages { PageGpu pages[]; };
layout(binding = 1, scalar) readonly buffer Groups { DrawGroupGpu groups[]; };
layout(binding = 2, scalar) buffer Draws { DrawCommand draws[]; };  // one per draw group
layout(binding = 3, scalar) writeonly buffer Visible { uint visible[]; };
layout(binding = 4, scalar) buffer Overflow { uint overflow; };
#define HIZ_FIRST_BINDING 5  // visibility, counters [, pyramid, Hi-Z parameters]
#include "hiz.glsl"

layout(push_constant, scalar) uniform Push { CullPagesPush pc; };

void main() {
  // Every index is bounded by the buffers it reads, not only by the CPU's counts. No early return:
  // the two-phase rule counts with subgroup operations.
  uint id = gl_GlobalInvocationID.x;
  bool in_range = id < min(min(pc.page_count, uint(pages.length())), uint(visibility.length()));
  uint group_count = min(pc.group_count, min(uint(groups.length()), uint(draws.length())));
  PageGpu page = PageGpu(vec3(0.0), 0xffffffffu, vec3(0.0), 0u, 0u, 0u, 0u, 0u);
  bool passed = false;
  if (in_range) {
    page = pages[id];
    passed = page.group != 0xffffffffu && page.group < group_count && !(page.aabb_min.y > pc.slice_height) &&
             frustum_intersects_aabb(pc.planes, page.aabb_min, page.aabb_max);
  }
  // Empty slots are not candidates: they count nowhere.
  bool candidate = in_range && page.group != 0xffffffffu;
  if (!hiz_phase_keep(pc.phase, candidate, id, passed, page.aabb_min, page.aabb_max)) return;
  // A group's list runs from its visible_base to the next group's (the last one's to the list's end).
  uint size = min(pc.visible_capacity, uint(visible.length()));
  uint first = min(groups[page.group].visible_base, size);
  uint end = page.group + 1u < group_count ? min(groups[page.group + 1u].visible_base, size) : size;
  uint capacity = end - min(first, end);
  uint slot;
  BOUNDED_APPEND(draws[page.group].instance_count, 1u, capacity, slot);
  if (slot < capacity) visible[first + slot] = id;
}
