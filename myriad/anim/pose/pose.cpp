#include "myriad/anim/pose/pose.hpp"

#include "myriad/anim/pose/pose_kernels.hpp"

#include <algorithm>
#include <cstring>

namespace myriad::anim {

namespace {

// GCC/Clang vector extension: 4 float lanes (SSE on x86-64, NEON on arm64) without intrinsics, so
// each matrix column is one register. Lane arithmetic is the scalar expression, lane by lane, so
// results equal the scalar formula bit for bit (-ffp-contract=off: no fused multiply-add).
typedef float V4 __attribute__((vector_size(16)));

inline V4 load(const glm::vec4& v) {
  V4 r;
  std::memcpy(&r, &v, sizeof r);
  return r;
}
inline void store(glm::vec4& dst, V4 v) { std::memcpy(&dst, &v, sizeof v); }

// Columns of a * b for affine a, b (b's last row 0 0 0 1).
inline void affine_mul_cols(const glm::mat4& a, const glm::mat4& b, V4 out[4]) {
  const V4 a0 = load(a[0]), a1 = load(a[1]), a2 = load(a[2]), a3 = load(a[3]);
  for (int c = 0; c < 3; ++c) out[c] = a0 * b[c].x + a1 * b[c].y + a2 * b[c].z;
  out[3] = a0 * b[3].x + a1 * b[3].y + a2 * b[3].z + a3;
}

}  // namespace

glm::mat4 affine_mul(const glm::mat4& a, const glm::mat4& b) {
  V4 cols[4];
  affine_mul_cols(a, b, cols);
  glm::mat4 r;
  for (int c = 0; c < 4; ++c) store(r[c], cols[c]);
  return r;
}

glm::mat4 compose(glm::vec3 t, glm::quat q, glm::vec3 s) {
  // Rotation matrix of a unit quaternion, columns scaled by s: no mat3 temporaries.
  const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  glm::mat4 m;
  m[0] = glm::vec4((1.0f - 2.0f * (yy + zz)) * s.x, 2.0f * (xy + wz) * s.x, 2.0f * (xz - wy) * s.x, 0.0f);
  m[1] = glm::vec4(2.0f * (xy - wz) * s.y, (1.0f - 2.0f * (xx + zz)) * s.y, 2.0f * (yz + wx) * s.y, 0.0f);
  m[2] = glm::vec4(2.0f * (xz + wy) * s.z, 2.0f * (yz - wx) * s.z, (1.0f - 2.0f * (xx + yy)) * s.z, 0.0f);
  m[3] = glm::vec4(t, 1.0f);
  return m;
}

namespace {

#if defined(GLM_FORCE_QUAT_DATA_WXYZ)
#error "local_to_model loads glm::quat as x, y, z, w"
#endif

// compose()'s rotation-scale part for 4 joints at once: lane j holds joint j of the block (SoA,
// like ozz-animation). Every lane evaluates exactly compose()'s scalar expressions in the same
// order, so the entries are bit-identical. Output: m[column * 3 + row].
inline void compose4(V4 qx, V4 qy, V4 qz, V4 qw, V4 sx, V4 sy, V4 sz, V4 m[9]) {
  const V4 one = {1.0f, 1.0f, 1.0f, 1.0f};
  const V4 two = {2.0f, 2.0f, 2.0f, 2.0f};
  const V4 xx = qx * qx, yy = qy * qy, zz = qz * qz;
  const V4 xy = qx * qy, xz = qx * qz, yz = qy * qz;
  const V4 wx = qw * qx, wy = qw * qy, wz = qw * qz;
  m[0] = (one - two * (yy + zz)) * sx;
  m[1] = two * (xy + wz) * sx;
  m[2] = two * (xz - wy) * sx;
  m[3] = two * (xy - wz) * sy;
  m[4] = (one - two * (xx + zz)) * sy;
  m[5] = two * (yz + wx) * sy;
  m[6] = two * (xz + wy) * sz;
  m[7] = two * (yz - wx) * sz;
  m[8] = (one - two * (xx + yy)) * sz;
}

// Joints base..base+3, all present: quaternions and scales loaded whole and transposed to SoA.
inline void compose4_full(const glm::vec3* s, const glm::quat* q, V4 m[9]) {
  V4 qv[4], sv[3];
  std::memcpy(qv, q, sizeof qv);
  std::memcpy(sv, s, sizeof sv);
  const V4 t0 = __builtin_shufflevector(qv[0], qv[1], 0, 4, 1, 5);  // x0 x1 y0 y1
  const V4 t1 = __builtin_shufflevector(qv[2], qv[3], 0, 4, 1, 5);  // x2 x3 y2 y3
  const V4 t2 = __builtin_shufflevector(qv[0], qv[1], 2, 6, 3, 7);  // z0 z1 w0 w1
  const V4 t3 = __builtin_shufflevector(qv[2], qv[3], 2, 6, 3, 7);  // z2 z3 w2 w3
  // sv: x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3
  const V4 u = __builtin_shufflevector(sv[0], sv[1], 0, 3, 6, 7);  // x0 x1 x2 y2
  const V4 v = __builtin_shufflevector(sv[0], sv[1], 1, 4, 7, 7);  // y0 y1 y2 -
  const V4 w = __builtin_shufflevector(sv[0], sv[1], 2, 5, 5, 5);  // z0 z1 - -
  compose4(__builtin_shufflevector(t0, t1, 0, 1, 4, 5), __builtin_shufflevector(t0, t1, 2, 3, 6, 7),
           __builtin_shufflevector(t2, t3, 0, 1, 4, 5), __builtin_shufflevector(t2, t3, 2, 3, 6, 7),
           __builtin_shufflevector(u, sv[2], 0, 1, 2, 5), __builtin_shufflevector(v, sv[2], 0, 1, 2, 6),
           __builtin_shufflevector(w, sv[2], 0, 1, 4, 7), m);
}

// The last, partial block: lanes past the end repeat the last joint (their results are unused).
inline void compose4_tail(const glm::vec3* s, const glm::quat* q, std::size_t count, V4 m[9]) {
  std::size_t k[4];
  for (std::size_t j = 0; j < 4; ++j) k[j] = std::min(j, count - 1);
  compose4(V4{q[k[0]].x, q[k[1]].x, q[k[2]].x, q[k[3]].x}, V4{q[k[0]].y, q[k[1]].y, q[k[2]].y, q[k[3]].y},
           V4{q[k[0]].z, q[k[1]].z, q[k[2]].z, q[k[3]].z}, V4{q[k[0]].w, q[k[1]].w, q[k[2]].w, q[k[3]].w},
           V4{s[k[0]].x, s[k[1]].x, s[k[2]].x, s[k[3]].x}, V4{s[k[0]].y, s[k[1]].y, s[k[2]].y, s[k[3]].y},
           V4{s[k[0]].z, s[k[1]].z, s[k[2]].z, s[k[3]].z}, m);
}

}  // namespace

namespace kernels {

void local_to_model_portable(std::span<const std::int16_t> parents, const LocalPose& local,
                             std::span<glm::mat4> model) {
  const std::size_t n = parents.size();
  const glm::vec3* const ts = local.translation.data();
  const glm::quat* const qs = local.rotation.data();
  const glm::vec3* const ss = local.scale.data();
  for (std::size_t base = 0; base < n; base += 4) {
    const std::size_t count = std::min<std::size_t>(4, n - base);
    V4 m[9];
    if (count == 4) {
      compose4_full(ss + base, qs + base, m);
    } else {
      compose4_tail(ss + base, qs + base, count, m);
    }
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t i = base + j;
      const glm::vec3 t = ts[i];
      const std::int16_t p = parents[i];
      V4 out[4];
      if (p == kNoParent) {
        for (int c = 0; c < 3; ++c) out[c] = V4{m[c * 3][j], m[c * 3 + 1][j], m[c * 3 + 2][j], 0.0f};
        out[3] = V4{t.x, t.y, t.z, 1.0f};
      } else {
        // affine_mul(model[p], compose(...)): the same lane expressions, local entries from m.
        const glm::mat4& a = model[static_cast<std::size_t>(p)];
        const V4 a0 = load(a[0]), a1 = load(a[1]), a2 = load(a[2]), a3 = load(a[3]);
        for (int c = 0; c < 3; ++c) out[c] = a0 * m[c * 3][j] + a1 * m[c * 3 + 1][j] + a2 * m[c * 3 + 2][j];
        out[3] = a0 * t.x + a1 * t.y + a2 * t.z + a3;
      }
      for (int c = 0; c < 4; ++c) store(model[i][c], out[c]);
    }
  }
}

}  // namespace kernels

void local_to_model(std::span<const std::int16_t> parents, const LocalPose& local,
                    std::span<glm::mat4> model) {
  if (kernels::avx_available()) {
    kernels::local_to_model_avx(parents, local, model);
  } else {
    kernels::local_to_model_portable(parents, local, model);
  }
}

namespace {

// One palette entry from rows: row r of a * b = sum_k a[k][r] * row_k(b), k = 0..3 with
// row_3(b) = (0, 0, 0, 1). Working on rows writes the GPU layout directly (no transpose).
inline void palette_entry(const glm::mat4& a, const Mat3x4& b, Mat3x4& out) {
  const V4 b0 = load(b.rows[0]), b1 = load(b.rows[1]), b2 = load(b.rows[2]);
  const V4 e3 = {0.0f, 0.0f, 0.0f, 1.0f};
  for (int r = 0; r < 3; ++r) store(out.rows[r], b0 * a[0][r] + b1 * a[1][r] + b2 * a[2][r] + e3 * a[3][r]);
}

}  // namespace

void kernels::build_palette_portable(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                                     std::span<const Mat3x4> inverse_binds, std::span<Mat3x4> palette) {
  for (std::size_t i = 0; i < joints.size(); ++i)
    palette_entry(model[joints[i]], inverse_binds[i], palette[i]);
}

void build_palette(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                   std::span<const Mat3x4> inverse_binds, std::span<Mat3x4> palette) {
  if (kernels::avx_available()) {
    kernels::build_palette_avx(model, joints, inverse_binds, palette);
  } else {
    kernels::build_palette_portable(model, joints, inverse_binds, palette);
  }
}

void build_palette(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                   std::span<const glm::mat4> inverse_binds, std::span<Mat3x4> palette) {
  for (std::size_t i = 0; i < joints.size(); ++i) {
    palette_entry(model[joints[i]], to_mat3x4(inverse_binds[i]), palette[i]);
  }
}

namespace {
inline float row_dot(const glm::vec4& r, const glm::vec3& p) {
  return r.x * p.x + r.y * p.y + r.z * p.z + r.w;
}
}  // namespace

glm::vec3 skin_position(std::span<const Mat3x4> palette, glm::u16vec4 joints, glm::vec4 weights,
                        glm::vec3 p) {
  glm::vec3 acc(0.0f);
  for (int i = 0; i < 4; ++i) {
    const Mat3x4& m = palette[joints[i]];
    const glm::vec3 q(row_dot(m.rows[0], p), row_dot(m.rows[1], p), row_dot(m.rows[2], p));
    acc = acc + q * weights[i];
  }
  return acc;
}

}  // namespace myriad::anim
