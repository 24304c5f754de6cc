// Quadtree traversal, the flat sphere loop and batching. The portable flat loop first computes a byte
// mask per block with straight-line arithmetic the compiler vectorizes, then compacts indices
// branch-free; the AVX2 loop tests 8 spheres per step and compacts them in registers (a permutation
// table indexed by the 8-bit visibility mask), touching each input byte once.
#include "myriad/vegetation/cull/cpu_cull.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define MYRIAD_VEG_AVX2 1
#endif

#include "myriad/core/layout/packing.hpp"

namespace myriad::vegetation {
namespace {

void emit(std::vector<VisibleRange>& out, std::uint32_t first, std::uint32_t count, std::uint32_t lod) {
  if (!out.empty()) {
    VisibleRange& last = out.back();
    if (last.lod == lod && last.first + last.count == first) {
      last.count += count;
      return;
    }
  }
  out.push_back({first, count, lod});
}

float distance(glm::vec3 a, glm::vec3 b) {
  const glm::vec3 d = a - b;
  return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define MYRIAD_VEG_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MYRIAD_VEG_CLONES
#endif

MYRIAD_VEG_CLONES
void sphere_mask(const float* planes, const float* __restrict x, const float* __restrict y,
                 const float* __restrict z, const float* __restrict r, std::size_t n,
                 std::uint8_t* __restrict mask) {
  const float ax = planes[0], ay = planes[1], az = planes[2], ad = planes[3];
  const float bx = planes[4], by = planes[5], bz = planes[6], bd = planes[7];
  const float cx = planes[8], cy = planes[9], cz = planes[10], cd = planes[11];
  const float dx = planes[12], dy = planes[13], dz = planes[14], dd = planes[15];
  const float ex = planes[16], ey = planes[17], ez = planes[18], ed = planes[19];
  const float fx = planes[20], fy = planes[21], fz = planes[22], fd = planes[23];
  for (std::size_t i = 0; i < n; ++i) {
    const float nr = -r[i];
    const float px = x[i], py = y[i], pz = z[i];
    // Same operands and order as Plane::distance: n.x*p.x + n.y*p.y + n.z*p.z + d.
    const int v =
        int(!(ax * px + ay * py + az * pz + ad < nr)) & int(!(bx * px + by * py + bz * pz + bd < nr)) &
        int(!(cx * px + cy * py + cz * pz + cd < nr)) & int(!(dx * px + dy * py + dz * pz + dd < nr)) &
        int(!(ex * px + ey * py + ez * pz + ed < nr)) & int(!(fx * px + fy * py + fz * pz + fd < nr));
    mask[i] = static_cast<std::uint8_t>(v);
  }
}

#ifdef MYRIAD_VEG_AVX2
// kCompact[m]: the lanes of the set bits of m, in order (the rest zero), for _mm256_permutevar8x32.
struct CompactTable {
  alignas(32) std::uint32_t lanes[256][8];
  constexpr CompactTable() : lanes{} {
    for (std::uint32_t m = 0; m < 256; ++m) {
      std::uint32_t k = 0;
      for (std::uint32_t b = 0; b < 8; ++b)
        if (m >> b & 1u) lanes[m][k++] = b;
    }
  }
};
constexpr CompactTable kCompact;

__attribute__((target("avx2"))) std::size_t cull_flat_avx2(const float* planes, const float* x,
                                                           const float* y, const float* z, const float* r,
                                                           std::size_t n, std::uint32_t* out) {
  __m256 px[6], py[6], pz[6], pd[6];
  for (int p = 0; p < 6; ++p) {
    px[p] = _mm256_set1_ps(planes[p * 4 + 0]);
    py[p] = _mm256_set1_ps(planes[p * 4 + 1]);
    pz[p] = _mm256_set1_ps(planes[p * 4 + 2]);
    pd[p] = _mm256_set1_ps(planes[p * 4 + 3]);
  }
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  std::size_t count = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 cx = _mm256_loadu_ps(x + i), cy = _mm256_loadu_ps(y + i), cz = _mm256_loadu_ps(z + i);
    const __m256 nr = _mm256_xor_ps(_mm256_loadu_ps(r + i), sign);
    __m256 keep = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
    for (int p = 0; p < 6; ++p) {
      // ((nx*x + ny*y) + nz*z) + d, separate multiplies and adds: the scalar expression exactly.
      const __m256 dist =
          _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(px[p], cx), _mm256_mul_ps(py[p], cy)),
                                      _mm256_mul_ps(pz[p], cz)),
                        pd[p]);
      keep = _mm256_and_ps(keep, _mm256_cmp_ps(dist, nr, _CMP_NLT_UQ));  // !(dist < -r), NaN kept
    }
    const auto mask = static_cast<std::uint32_t>(_mm256_movemask_ps(keep));
    if (mask == 0) continue;
    const __m256i base = _mm256_add_epi32(lane, _mm256_set1_epi32(static_cast<int>(i)));
    // 8 slots from `count` are free: count <= i and i + 8 <= n.
    __m256i* dst = reinterpret_cast<__m256i*>(out + count);
    if (mask == 0xFFu) {
      _mm256_storeu_si256(dst, base);
      count += 8;
      continue;
    }
    const __m256i perm = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompact.lanes[mask]));
    _mm256_storeu_si256(dst, _mm256_permutevar8x32_epi32(base, perm));
    count += static_cast<std::size_t>(__builtin_popcount(mask));
  }
  for (; i < n; ++i) {
    const float nr = -r[i];
    bool keep = true;
    for (int p = 0; p < 6; ++p)
      keep = keep && !(planes[p * 4] * x[i] + planes[p * 4 + 1] * y[i] + planes[p * 4 + 2] * z[i] +
                           planes[p * 4 + 3] <
                       nr);
    out[count] = static_cast<std::uint32_t>(i);
    count += keep ? 1 : 0;
  }
  return count;
}
#endif

}  // namespace

bool flat_cull_has_avx2() {
#ifdef MYRIAD_VEG_AVX2
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

Frustum local_frustum(const Frustum& rel, glm::dvec3 tile_origin, glm::dvec3 camera) {
  Frustum f = rel;
  const glm::dvec3 o = tile_origin - camera;
  for (Plane& p : f.planes) {
    if (p.d == std::numeric_limits<float>::max()) continue;  // infinite far plane stays infinite
    const double d =
        double(p.d) + double(p.normal.x) * o.x + double(p.normal.y) * o.y + double(p.normal.z) * o.z;
    p.d = static_cast<float>(d);
  }
  return f;
}

std::uint32_t select_lod(float dist, std::span<const LodLevel> lods) {
  std::uint32_t l = 0;
  while (l < lods.size() && !(dist < lods[l].switch_distance)) ++l;
  return l;
}

std::uint32_t leaf_lod(const Aabb& leaf_bounds, glm::vec3 camera, std::span<const LodLevel> lods) {
  return select_lod(distance(leaf_bounds.center(), camera), lods);
}

HashedLod make_hashed_lod(std::span<const LodLevel> lods, float band, float fade) {
  HashedLod h;
  h.count = static_cast<std::uint32_t>(std::min<std::size_t>(lods.size(), kGpuMaxLods));
  h.band = band;
  const float keep = 1.0f - std::clamp(fade, 0.0f, 1.0f);
  for (std::uint32_t i = 0; i < h.count; ++i) {
    h.switch_sq[i] = lods[i].switch_distance * lods[i].switch_distance;
    const float start = lods[i].switch_distance * keep;
    h.fade_start_sq[i] = fade > 0.0f ? start * start : h.switch_sq[i];
    const float width = h.switch_sq[i] - h.fade_start_sq[i];
    h.fade_inv[i] = width > 0.0f ? 1.0f / width : 0.0f;
  }
  return h;
}

LodPick pick_lod_hashed(glm::vec3 o, float hash, const HashedLod& p) {
  const float d2 = o.x * o.x + o.y * o.y + o.z * o.z;
  const float f = 1.0f + p.band * (hash - 0.5f);
  const float e = d2 * f * f;
  LodPick pick;
  while (pick.lod < p.count && !(e < p.switch_sq[pick.lod])) ++pick.lod;
  pick.fading = pick.lod < p.count && e >= p.fade_start_sq[pick.lod];
  if (pick.fading) {
    const float t = (e - p.fade_start_sq[pick.lod]) * p.fade_inv[pick.lod];
    pick.q = static_cast<std::uint32_t>(std::clamp(t, 0.0f, 1.0f) * 255.0f);
  }
  return pick;
}

std::uint32_t select_lod_hashed(glm::vec3 o, float hash, const HashedLod& p) {
  return pick_lod_hashed(o, hash, p).lod;
}

bool group_visible(const Frustum& frustum, const Aabb& bounds, glm::vec3 camera, const HashedLod& lod) {
  if (lod.count == 0 || !frustum.intersects(bounds)) return false;
  // Smallest f is 1 - band/2; the margin absorbs rounding so the test stays conservative.
  const float f = std::max(1.0f - 0.5f * lod.band, 1e-3f);
  const float reach = std::sqrt(lod.switch_sq[lod.count - 1]) / f * 1.001f + 0.01f;
  return bounds.distance_to(camera) <= reach;
}

TreeCullStats cull_group_tree(const Group& g, const Prefab& prefab, const Frustum& frustum, glm::vec3 camera,
                              std::vector<VisibleRange>& out, std::vector<std::uint32_t>& stack) {
  TreeCullStats stats;
  const CullShape shape = cull_shape(prefab.bounds);
  const auto lod_count = static_cast<std::uint32_t>(prefab.lods.size());
  const float draw_distance = prefab.lods.back().switch_distance * 1.001f + 0.01f;
  // Stack entries: node index << 1 | "wholly inside" flag.
  stack.clear();
  stack.push_back(0);
  while (!stack.empty()) {
    const std::uint32_t entry = stack.back();
    stack.pop_back();
    const std::uint32_t index = entry >> 1;
    bool inside = (entry & 1u) != 0;
    const QuadNode& node = g.nodes[index];
    // Beyond the draw distance: every leaf centre below is at least as far as the box's nearest point
    // (the small margin keeps the skip conservative against rounding), so the whole subtree is culled.
    if (node.bounds.distance_to(camera) > draw_distance) continue;
    if (!inside) {
      ++stats.nodes_tested;
      if (!frustum.intersects(node.bounds)) continue;
      inside = frustum.contains(node.bounds);
    }
    if (node.child_count == 0) {
      const std::uint32_t lod = leaf_lod(node.bounds, camera, prefab.lods);
      if (lod >= lod_count) continue;
      if (inside) {
        emit(out, node.first_instance, node.instance_count, lod);
        continue;
      }
      const std::uint32_t end = node.first_instance + node.instance_count;
      stats.instances_tested += node.instance_count;
      for (std::uint32_t k = node.first_instance; k < end; ++k) {
        const InstanceRecord& rec = g.instances[k];
        if (frustum.intersects(instance_bounds(decode_position(g, rec), unpack_half(rec.scale), shape)))
          emit(out, k, 1, lod);
      }
      continue;
    }
    // Reverse push so children pop in order and output stays in tree order.
    for (std::uint32_t c = node.child_count; c-- > 0;)
      stack.push_back(((node.first_child + c) << 1) | (inside ? 1u : 0u));
  }
  return stats;
}

std::size_t cull_spheres_flat(const Frustum& frustum, const float* x, const float* y, const float* z,
                              const float* r, std::size_t n, std::uint32_t* out, FlatCullPath path) {
  float planes[24];
  for (std::size_t p = 0; p < 6; ++p) {
    planes[p * 4 + 0] = frustum.planes[p].normal.x;
    planes[p * 4 + 1] = frustum.planes[p].normal.y;
    planes[p * 4 + 2] = frustum.planes[p].normal.z;
    planes[p * 4 + 3] = frustum.planes[p].d;
  }
#ifdef MYRIAD_VEG_AVX2
  if (path != FlatCullPath::kPortable && flat_cull_has_avx2())
    return cull_flat_avx2(planes, x, y, z, r, n, out);
#else
  (void)path;
#endif
  constexpr std::size_t kBlock = 2048;
  alignas(64) std::uint8_t mask[kBlock];
  std::size_t count = 0;
  for (std::size_t b = 0; b < n; b += kBlock) {
    const std::size_t len = std::min(kBlock, n - b);
    sphere_mask(planes, x + b, y + b, z + b, r + b, len, mask);
    // Tree-ordered data comes in long runs of all-visible or all-culled: skip or copy 8 at a time.
    std::size_t i = 0;
    for (; i + 8 <= len; i += 8) {
      std::uint64_t word;
      std::memcpy(&word, mask + i, 8);
      const auto base = static_cast<std::uint32_t>(b + i);
      if (word == 0) continue;
      if (word == 0x0101010101010101ull) {
        for (std::uint32_t k = 0; k < 8; ++k) out[count + k] = base + k;
        count += 8;
        continue;
      }
      for (std::uint32_t k = 0; k < 8; ++k) {
        out[count] = base + k;
        count += mask[i + k];
      }
    }
    for (; i < len; ++i) {
      out[count] = static_cast<std::uint32_t>(b + i);
      count += mask[i];
    }
  }
  return count;
}

void make_batches(std::span<const VisibleRange> visible, std::uint32_t lod_count, std::uint32_t max_instances,
                  std::vector<VisibleRange>& ranges, std::vector<Batch>& batches) {
  ranges.clear();
  batches.clear();
  const std::uint32_t limit = max_instances == 0 ? 0xffffffffu : max_instances;
  for (std::uint32_t lod = 0; lod < lod_count; ++lod) {
    Batch cur{lod, static_cast<std::uint32_t>(ranges.size()), 0, 0};
    for (const VisibleRange& v : visible) {
      if (v.lod != lod) continue;
      std::uint32_t first = v.first, left = v.count;
      while (left > 0) {
        if (cur.instance_count == limit) {
          batches.push_back(cur);
          cur = {lod, static_cast<std::uint32_t>(ranges.size()), 0, 0};
        }
        const std::uint32_t take = std::min(left, limit - cur.instance_count);
        ranges.push_back({first, take, lod});
        ++cur.range_count;
        cur.instance_count += take;
        first += take;
        left -= take;
      }
    }
    if (cur.instance_count > 0) batches.push_back(cur);
  }
}

}  // namespace myriad::vegetation
