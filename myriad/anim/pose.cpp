#include "myriad/anim/pose.hpp"

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

void local_to_model(std::span<const std::int16_t> parents, const LocalPose& local,
                    std::span<glm::mat4> model) {
  const std::size_t n = parents.size();
  for (std::size_t i = 0; i < n; ++i) {
    const glm::mat4 m = compose(local.translation[i], local.rotation[i], local.scale[i]);
    const std::int16_t p = parents[i];
    if (p == kNoParent) {
      model[i] = m;
    } else {
      model[i] = affine_mul(model[static_cast<std::size_t>(p)], m);
    }
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

void build_palette(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                   std::span<const Mat3x4> inverse_binds, std::span<Mat3x4> palette) {
  for (std::size_t i = 0; i < joints.size(); ++i)
    palette_entry(model[joints[i]], inverse_binds[i], palette[i]);
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
