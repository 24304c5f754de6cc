// Layouts of the page-slot culling pass (cull_pages.comp, V11) shared by C++ and GLSL.
#ifndef MYRIAD_PAGE_LAYOUT_H
#define MYRIAD_PAGE_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// One per page slot. group = the page's draw group (its indirect command: arena x buckets per arena +
// draw bucket), 0xffffffff for an empty slot. Each group is one non-indexed indirect command of
// bucket-size vertices per visible page: the vertex shader reads the page's own indices
// (first_index + gl_VertexIndex) and discards those at or past index_count (V12).
struct PageGpu {
  vec3 aabb_min;
  uint group;
  vec3 aabb_max;
  uint index_count;
  uint first_index;
  uint first_vertex;
  uint pad0;
  uint pad1;
};
// One per draw group: where its visible page ids start in the visible list, and its vertex count.
struct DrawGroupGpu {
  uint visible_base;
  uint bucket_size;
};
struct CullPagesPush {
  vec4 planes[6];
  float slice_height;  // pages whose aabb_min.y is above it are dropped (V14)
  uint page_count;
  uint group_count;
  uint visible_capacity;  // entries of the visible list buffer
  uint phase;             // CULL_PHASE_*
  uint pad0;
  uint pad1;
  uint pad2;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(PageGpu, 48, aabb_min, 0, group, 12, aabb_max, 16, index_count, 28, first_index, 32,
                    first_vertex, 36, pad0, 40, pad1, 44);
MYRIAD_CHECK_LAYOUT(DrawGroupGpu, 8, visible_base, 0, bucket_size, 4);
MYRIAD_CHECK_LAYOUT(CullPagesPush, 128, planes, 0, slice_height, 96, page_count, 100, group_count, 104,
                    visible_capacity, 108, phase, 112, pad0, 116, pad1, 120, pad2, 124);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
