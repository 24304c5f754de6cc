#version 460
// Compaction of the batch renderer's draw list (render::BatchOcclusion): one invocation per list
// entry; an entry whose renderer batch_cull*.comp kept this phase appends its batch slot to its
// draw's part of the output list and counts in the draw's indirect command. The order within a draw
// is not defined (atomics); each draw owns as many output entries as it has list entries.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "batch_cull_layout.h"
#include "bounded_append.glsl"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Entries { BatchListEntry entries[]; };
layout(binding = 1, scalar) readonly buffer Keep { uint keep[]; };
layout(binding = 2, scalar) buffer Commands { BatchDrawCommand commands[]; };
layout(binding = 3, scalar) writeonly buffer Slots { uint slots[]; };
layout(binding = 4, scalar) buffer Overflow { uint overflow; };

layout(push_constant, scalar) uniform Push { BatchCullPush pc; };

void main() {
  // Every index is bounded by the buffers it reads, not only by the CPU's counts.
  uint id = gl_GlobalInvocationID.x;
  if (id >= min(pc.entry_count, uint(entries.length()))) return;
  BatchListEntry e = entries[id];
  if (e.renderer >= min(pc.renderer_count, uint(keep.length())) || keep[e.renderer] == 0u) return;
  if (e.draw >= min(pc.draw_count, uint(commands.length()))) return;
  uint first = commands[e.draw].command.first_instance;
  uint size = uint(slots.length());
  uint capacity = min(commands[e.draw].capacity, size - min(first, size));
  uint index;
  BOUNDED_APPEND(commands[e.draw].command.instance_count, 1u, capacity, index);
  if (index < capacity) slots[first + index] = e.slot;
}
