// local_to_model and build_palette in 256-bit AVX lanes (x86-64, chosen at run time). Each joint's
// product runs two matrix columns (or rows) per register, so a joint takes half the multiplies and
// adds of the 4-wide form and the broadcasts become in-lane permutes or broadcast loads. The lane
// expressions are those of affine_mul and the portable palette, term for term (-ffp-contract=off), so
// the results are bit-identical; an added -0.0f stands for "no translation term" (x + -0 == x).
#include "myriad/anim/pose_kernels.hpp"

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

// Four packed vec3 (12 floats) to x, y, z lanes.
MYRIAD_AVX_INLINE void transpose3(const float* p, __m128& x, __m128& y, __m128& z) {
  V4 a, b, c;
  std::memcpy(&a, p, sizeof a);      // x0 y0 z0 x1
  std::memcpy(&b, p + 4, sizeof b);  // y1 z1 x2 y2
  std::memcpy(&c, p + 8, sizeof c);  // z2 x3 y3 z3
  const V4 u = __builtin_shufflevector(a, b, 0, 3, 6, 7);
  const V4 v = __builtin_shufflevector(a, b, 1, 4, 7, 7);
  const V4 w = __builtin_shufflevector(a, b, 2, 5, 5, 5);
  x = __m128(__builtin_shufflevector(u, c, 0, 1, 2, 5));
  y = __m128(__builtin_shufflevector(v, c, 0, 1, 2, 6));
  z = __m128(__builtin_shufflevector(w, c, 0, 1, 4, 7));
}

// One block of four joints, local transforms in lanes (SoA): compose()'s expressions per lane.
struct Block {
  __m128 m[9];  // rotation-scale, m[column * 3 + row]
  __m128 t[3];  // translation x, y, z
};

MYRIAD_AVX_INLINE void compose_block(const float* q, const float* s, const float* t, Block& b) {
  __m128 qx = _mm_loadu_ps(q), qy = _mm_loadu_ps(q + 4), qz = _mm_loadu_ps(q + 8), qw = _mm_loadu_ps(q + 12);
  _MM_TRANSPOSE4_PS(qx, qy, qz, qw);
  __m128 sx, sy, sz;
  transpose3(s, sx, sy, sz);
  transpose3(t, b.t[0], b.t[1], b.t[2]);
  const __m128 one = _mm_set1_ps(1.0f), two = _mm_set1_ps(2.0f);
  const __m128 xx = _mm_mul_ps(qx, qx), yy = _mm_mul_ps(qy, qy), zz = _mm_mul_ps(qz, qz);
  const __m128 xy = _mm_mul_ps(qx, qy), xz = _mm_mul_ps(qx, qz), yz = _mm_mul_ps(qy, qz);
  const __m128 wx = _mm_mul_ps(qw, qx), wy = _mm_mul_ps(qw, qy), wz = _mm_mul_ps(qw, qz);
  b.m[0] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(yy, zz))), sx);
  b.m[1] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xy, wz)), sx);
  b.m[2] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xz, wy)), sx);
  b.m[3] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xy, wz)), sy);
  b.m[4] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, zz))), sy);
  b.m[5] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(yz, wx)), sy);
  b.m[6] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xz, wy)), sz);
  b.m[7] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(yz, wx)), sz);
  b.m[8] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, yy))), sz);
}

// Local row k of every joint in the block as column pairs: pairs[k] = (B(k,0) | B(k,1)),
// pairs[3 + k] = (B(k,2) | t_k); lane j of each half belongs to joint j.
MYRIAD_AVX_INLINE void pair_rows(const Block& b, __m256 pairs[6]) {
  for (int k = 0; k < 3; ++k) {
    pairs[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(b.m[k]), b.m[3 + k], 1);
    pairs[3 + k] = _mm256_insertf128_ps(_mm256_castps128_ps256(b.m[6 + k]), b.t[k], 1);
  }
}

// Joint J of the block: model = model[parent] * local, columns 0|1 and 2|3 per register.
template <int J>
MYRIAD_AVX_INLINE void joint(const Block& b, const __m256 pairs[6], std::int16_t parent, const float* model,
                             float* out) {
  if (parent == kNoParent) {  // compose() itself: rotation-scale columns with 0, then (t, 1)
    alignas(16) float f[12][4];
    for (int k = 0; k < 9; ++k) _mm_store_ps(f[k], b.m[k]);
    for (int k = 0; k < 3; ++k) _mm_store_ps(f[9 + k], b.t[k]);
    for (int c = 0; c < 3; ++c)
      _mm_storeu_ps(out + 4 * c, _mm_setr_ps(f[c * 3][J], f[c * 3 + 1][J], f[c * 3 + 2][J], 0.0f));
    _mm_storeu_ps(out + 12, _mm_setr_ps(f[9][J], f[10][J], f[11][J], 1.0f));
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
  std::size_t base = 0;
  for (; base + 4 <= n; base += 4) {
    Block b;
    compose_block(qs + base * 4, ss + base * 3, ts + base * 3, b);
    __m256 pairs[6];
    pair_rows(b, pairs);
    float* const out = m + base * 16;
    joint<0>(b, pairs, ps[base], m, out);
    joint<1>(b, pairs, ps[base + 1], m, out + 16);
    joint<2>(b, pairs, ps[base + 2], m, out + 32);
    joint<3>(b, pairs, ps[base + 3], m, out + 48);
  }
  if (base == n) return;
  // The last, partial block: lanes past the end repeat the last joint (their results are unused).
  const std::size_t count = n - base;
  float q4[16], s4[12], t4[12];
  for (std::size_t j = 0; j < 4; ++j) {
    const std::size_t k = base + std::min(j, count - 1);
    std::memcpy(q4 + 4 * j, qs + 4 * k, 4 * sizeof(float));
    std::memcpy(s4 + 3 * j, ss + 3 * k, 3 * sizeof(float));
    std::memcpy(t4 + 3 * j, ts + 3 * k, 3 * sizeof(float));
  }
  Block b;
  compose_block(q4, s4, t4, b);
  __m256 pairs[6];
  pair_rows(b, pairs);
  float* const out = m + base * 16;
  joint<0>(b, pairs, ps[base], m, out);
  if (count > 1) joint<1>(b, pairs, ps[base + 1], m, out + 16);
  if (count > 2) joint<2>(b, pairs, ps[base + 2], m, out + 32);
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
