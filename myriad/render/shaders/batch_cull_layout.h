// Layouts of the batch renderer's GPU occlusion (render::BatchOcclusion: batch_cull*.comp and
// batch_compact.comp), shared by C++ and GLSL. The CPU culls renderers by layer, LOD and frustum and
// builds the draw list; the GPU tests what passed against the depth pyramid (two-phase Hi-Z) and
// compacts each draw's instances into an indirect command.
#ifndef MYRIAD_BATCH_CULL_LAYOUT_H
#define MYRIAD_BATCH_CULL_LAYOUT_H

#include "shared_types.h"

MYRIAD_SHADER_NAMESPACE_BEGIN
// One per renderer index, staged each frame: its world bounding sphere and whether the CPU's layer,
// LOD and frustum tests passed it (1) or not (0: not a candidate; its visibility word becomes 0).
struct BatchCullRenderer {
  vec3 center;
  float radius;
  uint passed;
};
// One per instance of the CPU draw list, in list order: the batch slot the vertex shader reads, the
// draw it belongs to and the renderer whose occlusion decides it.
struct BatchListEntry {
  uint slot;
  uint draw;
  uint renderer;
};
// One per draw of the list: the indirect command (instance_count counted by the compaction,
// first_instance = the draw's first list entry) and how many list entries the draw owns.
struct BatchDrawCommand {
  DrawIndexedCommand command;
  uint capacity;
};
// Both passes' push constants.
struct BatchCullPush {
  uint renderer_count;
  uint entry_count;
  uint draw_count;
  uint phase;  // CULL_PHASE_* (batch_cull*.comp)
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(BatchCullRenderer, 20, center, 0, radius, 12, passed, 16);
MYRIAD_CHECK_LAYOUT(BatchListEntry, 12, slot, 0, draw, 4, renderer, 8);
MYRIAD_CHECK_LAYOUT(BatchDrawCommand, 24, command, 0, capacity, 20);
MYRIAD_CHECK_LAYOUT(BatchCullPush, 16, renderer_count, 0, entry_count, 4, draw_count, 8, phase, 12);
#endif
MYRIAD_SHADER_NAMESPACE_END

#endif
