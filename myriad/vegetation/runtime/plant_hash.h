// The per-instance LOD hash, one definition for C++ (vegetation::lod_hash) and GLSL (the culling pass):
// integer mixing of the instance's tile, group and index, then the top 24 bits as a float in [0, 1) —
// only integer operations and one exact conversion, so both sides give the same bits. Included by C++
// as "myriad/vegetation/runtime/plant_hash.h" and by GLSL as "vegetation/runtime/plant_hash.h".
#ifndef MYRIAD_VEGETATION_PLANT_HASH_H
#define MYRIAD_VEGETATION_PLANT_HASH_H

#ifdef __cplusplus
#include <cstdint>
namespace myriad::vegetation::shared {
using uint = std::uint32_t;
#define MYRIAD_PLANT_HASH_INLINE inline
#else
#define MYRIAD_PLANT_HASH_INLINE
#endif

MYRIAD_PLANT_HASH_INLINE float plant_lod_hash(int tile_x, int tile_z, uint group, uint index) {
  uint h = uint(tile_x) * 0x9e3779b1u ^ uint(tile_z) * 0x85ebca77u;
  h ^= group * 0xc2b2ae3du + index * 0x27d4eb2fu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  h *= 0x297a2d39u;
  h ^= h >> 15;
  return float(h >> 8) * (1.0f / 16777216.0f);
}

#undef MYRIAD_PLANT_HASH_INLINE
#ifdef __cplusplus
}  // namespace myriad::vegetation::shared
#endif

#endif  // MYRIAD_VEGETATION_PLANT_HASH_H
