// The vegetation records the GPU reads as they are, defined once for C++ and GLSL (core/layout/gpu_layout.h):
// a plant instance in expanded form (RuntimeInstance: what draw_direct takes and the CPU expansion
// yields) and the compact pooled form streaming keeps resident (PlantRecord in pages of
// VEG_PAGE_SLOTS slots, one PlantPage table entry per page), which the cull and vertex shaders expand
// exactly as vegetation::expand_plant does (shaders/veg_expand.glsl).
#ifndef MYRIAD_VEGETATION_VEGETATION_GPU_LAYOUT_H
#define MYRIAD_VEGETATION_VEGETATION_GPU_LAYOUT_H

#ifdef __cplusplus
#include "myriad/core/layout/gpu_layout.h"
namespace myriad::vegetation {
#else
#include "core/layout/gpu_layout.h"
#endif

// Slots per pool page: a page holds a run of one group's instances (a tile's group takes whole pages).
#define VEG_PAGE_SLOTS 64u
// The decode table: VEG_DECODE_STEPS floats each of q / 65535 (position dequantization), then
// cos and sin of the yaw q / 65536 turns, as the CPU computes them (division and trigonometry are not
// exact on GPUs; table lookups are).
#define VEG_DECODE_STEPS 65536u
// A culling list entry: one word per listed instance, its pool slot in the low VEG_SLOT_BITS bits,
// VEG_FADE_IN and the 8-bit fade threshold q (0..255) above (render/shaders/veg_cull_layout.h says how
// the lists are laid out; the GPU pass and vegetation::cull_pool_cpu write the same words).
#define VEG_SLOT_BITS 23u
#define VEG_SLOT_MASK 0x7FFFFFu
#define VEG_FADE_IN 0x800000u
#define VEG_FADE_Q_SHIFT 24u

// Rows 0..2: the affine local-to-(world - render origin) matrix, row-major (x' = dot(row0, (p, 1))).
// spare: x = tint as RGBA8 bits (r in the low byte, a = 0) stored in a float slot (read with
// floatBitsToUint), y = per-instance LOD hash in [0, 1), z = bounding-sphere radius, w = 1.
struct RuntimeInstance {
  MYRIAD_GPU_TYPES
  vec4 row0, row1, row2, spare;
};

// One pooled plant: the disk record's 14 bytes (vegetation::InstanceRecord, little-endian) and two
// zero bytes. pos_xy: quantized x | y << 16; pos_z_yaw: z | yaw << 16; scale_tint: half scale | tint r
// << 16 | tint g << 24; tint_b: tint b (upper bytes 0).
struct PlantRecord {
  MYRIAD_GPU_TYPES
  uint pos_xy, pos_z_yaw, scale_tint, tint_b;
};

// A pool page: `count` instances (slots 0..count-1) of group `group` of tile (tile_x, tile_z),
// starting at group-local index `group_first`. `offset` = tile origin - render origin (float), the
// group's quantization box is pos_min/pos_extent. count == 0: a free page.
struct PlantPage {
  MYRIAD_GPU_TYPES
  vec3 offset;
  int tile_x;
  vec3 pos_min;
  int tile_z;
  vec3 pos_extent;
  uint group;
  uint group_first;
  uint count;
  uint pad0;
  uint pad1;
};

#ifdef __cplusplus
MYRIAD_CHECK_LAYOUT(RuntimeInstance, 64, row0, 0, row1, 16, row2, 32, spare, 48);
MYRIAD_CHECK_LAYOUT(PlantRecord, 16, pos_xy, 0, pos_z_yaw, 4, scale_tint, 8, tint_b, 12);
MYRIAD_CHECK_LAYOUT(PlantPage, 64, offset, 0, tile_x, 12, pos_min, 16, tile_z, 28, pos_extent, 32, group, 44,
                    group_first, 48, count, 52, pad0, 56, pad1, 60);
}  // namespace myriad::vegetation
#endif

#endif  // MYRIAD_VEGETATION_VEGETATION_GPU_LAYOUT_H
