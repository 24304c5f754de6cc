#version 460
// Every slot of a vegetation pool expanded to its RuntimeInstance (matrix rows, tint, LOD hash, radius)
// and bounding sphere, as the culling and vertex shaders expand it (veg_expand.glsl): the GPU side of the
// bit-for-bit comparison with vegetation::expand_plant, and a read-back path for tools. Free and unused
// slots are written as zeros.
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "veg_cull_layout.h"
#include "vegetation/runtime/vegetation_gpu_layout.h"

layout(local_size_x = 64) in;

layout(binding = 0, scalar) readonly buffer Records { PlantRecord records[]; };
layout(binding = 1, scalar) readonly buffer Pages { PlantPage pages[]; };
layout(binding = 2, scalar) readonly buffer Decode { float decode[]; };
layout(binding = 3, scalar) readonly buffer Params { VegCullParams params; };
layout(binding = 4, scalar) writeonly buffer Out { vec4 expanded[]; };  // 5 per slot: rows, spare, sphere

#include "veg_expand.glsl"

void main() {
  uint slot = gl_GlobalInvocationID.x;
  uint page_index = slot / VEG_PAGE_SLOTS;
  if (5u * slot + 4u >= uint(expanded.length())) return;
  bool live = page_index < uint(pages.length()) && slot < uint(records.length()) &&
              slot % VEG_PAGE_SLOTS < pages[page_index].count;
  vec4 rows[5] = vec4[5](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
  if (live) {
    PlantPage page = pages[page_index];
    PlantMatrix m = expand_plant_matrix(records[slot], page);
    vec4 s = plant_sphere(m, page, params.sphere_mid, params.sphere_radius);
    float hash = plant_lod_hash(page.tile_x, page.tile_z, page.group, page.group_first + slot % VEG_PAGE_SLOTS);
    rows = vec4[5](m.row0, m.row1, m.row2, vec4(uintBitsToFloat(m.tint), hash, s.w, 1.0), s);
  }
  for (uint i = 0u; i < 5u; ++i) expanded[5u * slot + i] = rows[i];
}
