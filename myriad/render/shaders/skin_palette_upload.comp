#version 460
// Palette upload by compute (SPEC B7): copies one range of palette rows (vec4) from the mapped
// staging ring into the global palette buffer, one row per invocation. The staging copy
// (vkCmdCopyBuffer) does the same; SkinPalette offers both and benchmarks compare them.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "skin_layout.h"

layout(local_size_x = 64) in;
layout(binding = 0, scalar) readonly buffer Staging { vec4 staging_rows[]; };
layout(binding = 1, scalar) writeonly buffer Palette { vec4 palette_rows[]; };
layout(push_constant, scalar) uniform Push { SkinPaletteUploadPush pc; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  // Bounded by both buffers, not only by the CPU's row range.
  const uint src = pc.src_row + i, dst = pc.dst_row + i;
  if (i < pc.row_count && src < uint(staging_rows.length()) && dst < uint(palette_rows.length()))
    palette_rows[dst] = staging_rows[src];
}
