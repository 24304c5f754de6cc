// The live ranges of a voxel vegetation pass (VoxelVegetationRanges): thread t of a dispatch over the
// live instances finds the slot of the t-th one. Define VEGETATION_RANGES_BINDING first.
#ifndef MYRIAD_VOXEL_VEGETATION_RANGES_GLSL
#define MYRIAD_VOXEL_VEGETATION_RANGES_GLSL

layout(binding = VEGETATION_RANGES_BINDING, scalar) readonly buffer Ranges {
  VoxelVegetationRanges range_head;
  uvec2 ranges[];  // {first slot, live instances before this range}
};

// Whether thread `t` has a live instance; its slot in `slot`.
bool live_slot(uint t, out uint slot) {
  slot = 0u;
  uint count = min(range_head.count, uint(ranges.length()));
  if (t >= range_head.live || count == 0u) return false;
  uint lo = 0u, hi = count;  // the last entry whose prefix is <= t
  while (hi - lo > 1u) {
    uint mid = (lo + hi) / 2u;
    if (ranges[mid].y <= t)
      lo = mid;
    else
      hi = mid;
  }
  slot = ranges[lo].x + (t - ranges[lo].y);
  return true;
}

#endif
