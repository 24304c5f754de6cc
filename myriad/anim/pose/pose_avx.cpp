// local_to_model and build_palette in 256-bit AVX lanes (x86-64, chosen at run time). Local transforms
// are composed eight joints at a time (one joint per lane; the scale product is skipped when every
// scale of the block is exactly 1, as for skeletons without scale keys), then each joint's product runs
// two matrix columns (or rows) per register, so a joint takes half the multiplies and adds of the 4-wide
// form and the broadcasts become in-lane permutes or broadcast loads. The lane expressions are those of
// compose, affine_mul and the portable palette, term for term (-ffp-contract=off), so the results are
// bit-identical; an added -0.0f stands for "no translation term" (x + -0 == x).
#include "myriad/anim/pose/pose_kernels.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

#include <algorithm>
#include <cstring>

#define MYRIAD_AVX __attribute__((target("avx")))
#define MYRIAD_AVX_INLINE __attribute__((target("avx"), always_inline)) inline

namespace myriad::anim::kernels {
namespace {

typedef float V4 __attribute__((vector_size(16)));

MYRIAD_AVX_INLINE __m256 broadcast4(const float* p) {
  return _mm256_broadcast_ps(reinterpret_cast<const __m128*>(p));
}

// Eight packed vec3 (24 floats) to x, y, z lanes: joints 0-3 in the low half, 4-7 in the high half.
// Per half the rows are a = x0 y0 z0 x1, b = y1 z1 x2 y2, c = z2 x3 y3 z3; seven in-lane shuffles.
MYRIAD_AVX_INLINE void transpose3x8(const float* p, __m256& x, __m256& y, __m256& z) {
  const __m256 a = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm_loadu_ps(p + 12), 1);
  const __m256 b = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 4)), _mm_loadu_ps(p + 16), 1);
  const __m256 c = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 8)), _mm_loadu_ps(p + 20), 1);
  const __m256 b2c1 = _mm256_shuffle_ps(b, c, _MM_SHUFFLE(0, 1, 0, 2));  // b2 b0 c1 c0
  x = _mm256_shuffle_ps(a, b2c1, _MM_SHUFFLE(2, 0, 3, 0));               // a0 a3 b2 c1
  const __m256 a1b0 = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 0, 1));  // a1 a0 b0 b0
  const __m256 b3c2 = _mm256_shuffle_ps(b, c, _MM_SHUFFLE(0, 2, 0, 3));  // b3 b0 c2 c0
  y = _mm256_shuffle_ps(a1b0, b3c2, _MM_SHUFFLE(2, 0, 2, 0));            // a1 b0 b3 c2
  const __m256 a2b1 = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(0, 1, 0, 2));  // a2 a0 b1 b0
  z = _mm256_shuffle_ps(a2b1, c, _MM_SHUFFLE(3, 0, 2, 0));               // a2 b1 c0 c3
}

// One block of eight joints, local transforms in lanes (SoA; joints 0-3 low half, 4-7 high half):
// compose()'s expressions per lane.
struct Block {
  __m256 m[9];  // rotation-scale, m[column * 3 + row]
  __m256 t[3];  // translation x, y, z
};

// Scales of all eight joints exactly 1: then "* s" leaves every entry as it is (x * 1 == x) and is
// skipped, with the scale transpose. Skeletons without scale keys take this path.
MYRIAD_AVX_INLINE bool unit_scales(const float* s) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 eq = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(_mm256_loadu_ps(s), one, _CMP_EQ_OQ),
                                                _mm256_cmp_ps(_mm256_loadu_ps(s + 8), one, _CMP_EQ_OQ)),
                                  _mm256_cmp_ps(_mm256_loadu_ps(s + 16), one, _CMP_EQ_OQ));
  return _mm256_movemask_ps(eq) == 0xFF;
}

MYRIAD_AVX_INLINE void compose_block(const float* q, const float* s, const float* t, Block& b) {
  // Quaternions j and j + 4 share a register, then an in-lane 4 x 4 transpose.
  const __m256 q01 = _mm256_loadu_ps(q), q23 = _mm256_loadu_ps(q + 8);
  const __m256 q45 = _mm256_loadu_ps(q + 16), q67 = _mm256_loadu_ps(q + 24);
  const __m256 r0 = _mm256_permute2f128_ps(q01, q45, 0x20), r1 = _mm256_permute2f128_ps(q01, q45, 0x31);
  const __m256 r2 = _mm256_permute2f128_ps(q23, q67, 0x20), r3 = _mm256_permute2f128_ps(q23, q67, 0x31);
  const __m256 lo01 = _mm256_unpacklo_ps(r0, r1),
               hi01 = _mm256_unpackhi_ps(r0, r1);  // x0 x1 y0 y1, z0 z1 w0 w1
  const __m256 lo23 = _mm256_unpacklo_ps(r2, r3), hi23 = _mm256_unpackhi_ps(r2, r3);
  const __m256 qx = _mm256_shuffle_ps(lo01, lo23, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 qy = _mm256_shuffle_ps(lo01, lo23, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 qz = _mm256_shuffle_ps(hi01, hi23, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 qw = _mm256_shuffle_ps(hi01, hi23, _MM_SHUFFLE(3, 2, 3, 2));
  transpose3x8(t, b.t[0], b.t[1], b.t[2]);
  const __m256 one = _mm256_set1_ps(1.0f), two = _mm256_set1_ps(2.0f);
  const __m256 xx = _mm256_mul_ps(qx, qx), yy = _mm256_mul_ps(qy, qy), zz = _mm256_mul_ps(qz, qz);
  const __m256 xy = _mm256_mul_ps(qx, qy), xz = _mm256_mul_ps(qx, qz), yz = _mm256_mul_ps(qy, qz);
  const __m256 wx = _mm256_mul_ps(qw, qx), wy = _mm256_mul_ps(qw, qy), wz = _mm256_mul_ps(qw, qz);
  b.m[0] = _mm256_sub_ps(one, _mm256_mul_ps(two, _mm256_add_ps(yy, zz)));
  b.m[1] = _mm256_mul_ps(two, _mm256_add_ps(xy, wz));
  b.m[2] = _mm256_mul_ps(two, _mm256_sub_ps(xz, wy));
  b.m[3] = _mm256_mul_ps(two, _mm256_sub_ps(xy, wz));
  b.m[4] = _mm256_sub_ps(one, _mm256_mul_ps(two, _mm256_add_ps(xx, zz)));
  b.m[5] = _mm256_mul_ps(two, _mm256_add_ps(yz, wx));
  b.m[6] = _mm256_mul_ps(two, _mm256_add_ps(xz, wy));
  b.m[7] = _mm256_mul_ps(two, _mm256_sub_ps(yz, wx));
  b.m[8] = _mm256_sub_ps(one, _mm256_mul_ps(two, _mm256_add_ps(xx, yy)));
  if (unit_scales(s)) return;
  __m256 sv[3];
  transpose3x8(s, sv[0], sv[1], sv[2]);
  for (int k = 0; k < 9; ++k) b.m[k] = _mm256_mul_ps(b.m[k], sv[k / 3]);
}

// Local row k of the joints of half H as column pairs: pairs[k] = (B(k,0) | B(k,1)),
// pairs[3 + k] = (B(k,2) | t_k); lane j of each half belongs to joint 4H + j.
template <int H>
MYRIAD_AVX_INLINE void pair_rows(const Block& b, __m256 pairs[6]) {
  constexpr int kHalves = H == 0 ? 0x20 : 0x31;
  for (int k = 0; k < 3; ++k) {
    pairs[k] = _mm256_permute2f128_ps(b.m[k], b.m[3 + k], kHalves);
    pairs[3 + k] = _mm256_permute2f128_ps(b.m[6 + k], b.t[k], kHalves);
  }
}

// Joint J of the block: model = model[parent] * local, columns 0|1 and 2|3 per register.
template <int J>
MYRIAD_AVX_INLINE void joint(const __m256 pairs[6], std::int16_t parent, const float* model, float* out) {
  if (parent == kNoParent) {  // compose() itself: rotation-scale columns with 0, then (t, 1)
    alignas(32) float f[6][8];
    for (int k = 0; k < 6; ++k) _mm256_store_ps(f[k], pairs[k]);
    for (int c = 0; c < 3; ++c) {
      const float* column = c == 2 ? f[3] : f[0] + 4 * c;  // B(k, c) at column[k * 8 + J]
      _mm_storeu_ps(out + 4 * c, _mm_setr_ps(column[J], column[8 + J], column[16 + J], 0.0f));
    }
    _mm_storeu_ps(out + 12, _mm_setr_ps(f[3][4 + J], f[4][4 + J], f[5][4 + J], 1.0f));
    return;
  }
  constexpr int kLane = J * 0x55;  // broadcast lane J within each 128-bit half
  const float* a = model + std::size_t(parent) * 16;
  const __m256 a0 = broadcast4(a), a1 = broadcast4(a + 4), a2 = broadcast4(a + 8);
  const __m256 a3 = _mm256_insertf128_ps(_mm256_set1_ps(-0.0f), _mm_loadu_ps(a + 12), 1);
  const __m256 c01 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a0, _mm256_permute_ps(pairs[0], kLane)),
                                                 _mm256_mul_ps(a1, _mm256_permute_ps(pairs[1], kLane))),
                                   _mm256_mul_ps(a2, _mm256_permute_ps(pairs[2], kLane)));
  const __m256 c23 =
      _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a0, _mm256_permute_ps(pairs[3], kLane)),
                                                _mm256_mul_ps(a1, _mm256_permute_ps(pairs[4], kLane))),
                                  _mm256_mul_ps(a2, _mm256_permute_ps(pairs[5], kLane))),
                    a3);
  _mm256_storeu_ps(out, c01);
  _mm256_storeu_ps(out + 8, c23);
}

// Joints first..3 of half H of a block, in order (first <= 3).
template <int H>
MYRIAD_AVX_INLINE void half(const Block& b, const std::int16_t* parents, std::size_t first,
                            const float* model, float* out) {
  __m256 pairs[6];
  pair_rows<H>(b, pairs);
  if (first == 0) joint<0>(pairs, parents[0], model, out);
  if (first <= 1) joint<1>(pairs, parents[1], model, out + 16);
  if (first <= 2) joint<2>(pairs, parents[2], model, out + 32);
  joint<3>(pairs, parents[3], model, out + 48);
}

// Joints first..7 of the block at joint base (first <= 7).
MYRIAD_AVX_INLINE void block(const float* qs, const float* ss, const float* ts, const std::int16_t* parents,
                             std::size_t base, std::size_t first, float* model) {
  Block b;
  compose_block(qs + base * 4, ss + base * 3, ts + base * 3, b);
  if (first < 4) half<0>(b, parents + base, first, model, model + base * 16);
  half<1>(b, parents + base + 4, first < 4 ? 0 : first - 4, model, model + (base + 4) * 16);
}

}  // namespace

bool avx_available() {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") != 0;
  }();
  return available;
}

MYRIAD_AVX void local_to_model_avx(std::span<const std::int16_t> parents, const LocalPose& local,
                                   std::span<glm::mat4> model) {
  const std::size_t n = parents.size();
  if (n == 0) return;
  const float* const ts = &local.translation[0].x;
  const float* const qs = &local.rotation[0].x;
  const float* const ss = &local.scale[0].x;
  const std::int16_t* const ps = parents.data();
  float* const m = &model[0][0][0];
  if (n >= 8) {
    std::size_t base = 0;
    for (; base + 8 <= n; base += 8) block(qs, ss, ts, ps, base, 0, m);
    // The rest as the last eight joints, of which the first ones are done already.
    if (base < n) block(qs, ss, ts, ps, n - 8, 8 - (n - base), m);
    return;
  }
  // Fewer than eight joints: a padded copy whose lanes past the end repeat the last joint.
  float q8[32], s8[24], t8[24], out[8 * 16] = {};  // zeroed: parents are read from it
  std::int16_t p8[8];
  for (std::size_t j = 0; j < 8; ++j) {
    const std::size_t k = std::min(j, n - 1);
    std::memcpy(q8 + 4 * j, qs + 4 * k, 4 * sizeof(float));
    std::memcpy(s8 + 3 * j, ss + 3 * k, 3 * sizeof(float));
    std::memcpy(t8 + 3 * j, ts + 3 * k, 3 * sizeof(float));
    p8[j] = ps[k];
  }
  block(q8, s8, t8, p8, 0, 0, out);
  std::memcpy(m, out, n * 16 * sizeof(float));
}

// Rows 0|1 in one register: (A(0,k) | A(1,k)) from model column k by one in-lane permute; row 2 by
// broadcast loads. Terms as the portable palette: b0*A(r,0) + b1*A(r,1) + b2*A(r,2) + e3*A(r,3).
MYRIAD_AVX void build_palette_avx(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                                  std::span<const Mat3x4> inverse_binds, std::span<Mat3x4> palette) {
  if (joints.empty()) return;
  const float* const m = &model[0][0][0];
  const float* b = &inverse_binds[0].rows[0].x;
  float* out = &palette[0].rows[0].x;
  const __m256i rows01 = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
  const __m256 e3 = _mm256_setr_ps(0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
  const __m128 e3_row = _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f);
  for (std::size_t i = 0; i < joints.size(); ++i, b += 12, out += 12) {
    const float* const a = m + std::size_t{joints[i]} * 16;
    const __m256 b0 = broadcast4(b), b1 = broadcast4(b + 4), b2 = broadcast4(b + 8);
    const __m256 a0 = _mm256_permutevar_ps(broadcast4(a), rows01);
    const __m256 a1 = _mm256_permutevar_ps(broadcast4(a + 4), rows01);
    const __m256 a2 = _mm256_permutevar_ps(broadcast4(a + 8), rows01);
    const __m256 a3 = _mm256_permutevar_ps(broadcast4(a + 12), rows01);
    const __m256 r01 = _mm256_add_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(b0, a0), _mm256_mul_ps(b1, a1)), _mm256_mul_ps(b2, a2)),
        _mm256_mul_ps(e3, a3));
    const __m128 r2 =
        _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm256_castps256_ps128(b0), _mm_broadcast_ss(a + 2)),
                                         _mm_mul_ps(_mm256_castps256_ps128(b1), _mm_broadcast_ss(a + 6))),
                              _mm_mul_ps(_mm256_castps256_ps128(b2), _mm_broadcast_ss(a + 10))),
                   _mm_mul_ps(e3_row, _mm_broadcast_ss(a + 14)));
    _mm256_storeu_ps(out, r01);
    _mm_storeu_ps(out + 8, r2);
  }
}

}  // namespace myriad::anim::kernels

#else  // no AVX kernels on this architecture: the portable ones are always used

namespace myriad::anim::kernels {

bool avx_available() { return false; }
void local_to_model_avx(std::span<const std::int16_t> parents, const LocalPose& local,
                        std::span<glm::mat4> model) {
  local_to_model_portable(parents, local, model);
}
void build_palette_avx(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                       std::span<const Mat3x4> inverse_binds, std::span<Mat3x4> palette) {
  build_palette_portable(model, joints, inverse_binds, palette);
}

}  // namespace myriad::anim::kernels

#endif
