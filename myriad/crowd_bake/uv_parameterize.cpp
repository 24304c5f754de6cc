#include "myriad/crowd_bake/uv_parameterize.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>

namespace myriad::crowd {

namespace {

using DVec2 = glm::dvec2;
using DVec3 = glm::dvec3;

// One triangle's LSCM row pair: residual = Σ_k (wr_k + i·wi_k)(u_k + i·v_k) / s.
struct ConformalRow {
  std::uint32_t v[3];
  double wr[3], wi[3];
  double inv_s;
};

std::vector<ConformalRow> conformal_rows(const BakeMesh& mesh, const ChartMesh& chart) {
  std::vector<ConformalRow> rows;
  rows.reserve(chart.indices.size() / 3);
  for (std::size_t t = 0; t < chart.indices.size() / 3; ++t) {
    ConformalRow row{};
    DVec3 p[3];
    for (std::size_t k = 0; k < 3; ++k) {
      row.v[k] = chart.indices[3 * t + k];
      p[k] = DVec3(mesh.positions[chart.source_vertex[row.v[k]]]);
    }
    const DVec3 e1 = p[1] - p[0], e2 = p[2] - p[0];
    const DVec3 n = glm::cross(e1, e2);
    const double twice_area = glm::length(n);
    const double l1 = glm::length(e1);
    if (twice_area <= 1e-30 || l1 <= 0.0) continue;
    const DVec3 x = e1 / l1, y = glm::cross(n / twice_area, x);
    const DVec2 z[3] = {DVec2(0.0), DVec2(l1, 0.0), DVec2(glm::dot(e2, x), glm::dot(e2, y))};
    for (std::size_t k = 0; k < 3; ++k) {
      row.wr[k] = z[(k + 2) % 3].x - z[(k + 1) % 3].x;
      row.wi[k] = z[(k + 2) % 3].y - z[(k + 1) % 3].y;
    }
    row.inv_s = 1.0 / std::sqrt(twice_area);
    rows.push_back(row);
  }
  return rows;
}

// out = MᵀM·x with x laid out as (u0, v0, u1, v1, ...).
void apply_normal_matrix(const std::vector<ConformalRow>& rows, const std::vector<double>& x,
                         std::vector<double>& out) {
  std::fill(out.begin(), out.end(), 0.0);
  for (const ConformalRow& row : rows) {
    double re = 0.0, im = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double u = x[2 * row.v[k]], v = x[2 * row.v[k] + 1];
      re += row.wr[k] * u - row.wi[k] * v;
      im += row.wi[k] * u + row.wr[k] * v;
    }
    re *= row.inv_s * row.inv_s;
    im *= row.inv_s * row.inv_s;
    for (int k = 0; k < 3; ++k) {
      out[2 * row.v[k]] += row.wr[k] * re + row.wi[k] * im;
      out[2 * row.v[k] + 1] += -row.wi[k] * re + row.wr[k] * im;
    }
  }
}

// Minimises the conformal energy over the unpinned entries of `x` (Jacobi-preconditioned CG).
void solve_lscm(const std::vector<ConformalRow>& rows, const std::vector<std::uint8_t>& pinned,
                std::vector<double>& x) {
  const std::size_t n = x.size();
  std::vector<double> diag(n, 0.0), r(n), z(n), p(n), ap(n);
  for (const ConformalRow& row : rows) {
    for (int k = 0; k < 3; ++k) {
      const double d = (row.wr[k] * row.wr[k] + row.wi[k] * row.wi[k]) * row.inv_s * row.inv_s;
      diag[2 * row.v[k]] += d;
      diag[2 * row.v[k] + 1] += d;
    }
  }
  apply_normal_matrix(rows, x, r);
  double rz = 0.0, r0 = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = pinned[i / 2] ? 0.0 : -r[i];
    z[i] = diag[i] > 0.0 ? r[i] / diag[i] : 0.0;
    p[i] = z[i];
    rz += r[i] * z[i];
    r0 += r[i] * r[i];
  }
  const std::size_t max_iterations = std::max<std::size_t>(200, 4 * n);
  for (std::size_t iteration = 0; iteration < max_iterations && rz > 0.0; ++iteration) {
    apply_normal_matrix(rows, p, ap);
    double pap = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (pinned[i / 2]) ap[i] = 0.0;
      pap += p[i] * ap[i];
    }
    if (pap <= 0.0) break;
    const double alpha = rz / pap;
    double rz_next = 0.0, rr = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
      z[i] = diag[i] > 0.0 ? r[i] / diag[i] : 0.0;
      rz_next += r[i] * z[i];
      rr += r[i] * r[i];
    }
    if (rr <= 1e-20 * r0) break;
    const double beta = rz_next / rz;
    rz = rz_next;
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
  }
}

std::uint64_t edge_key(std::uint32_t a, std::uint32_t b) {
  return (static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
}

double cross2(DVec2 a, DVec2 b) { return a.x * b.y - a.y * b.x; }

bool segments_cross(DVec2 a, DVec2 b, DVec2 c, DVec2 d) {
  const double o1 = cross2(b - a, c - a), o2 = cross2(b - a, d - a);
  const double o3 = cross2(d - c, a - c), o4 = cross2(d - c, b - c);
  return o1 * o2 < 0.0 && o3 * o4 < 0.0;
}

bool boundary_is_simple(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& boundary,
                        const std::vector<DVec2>& uv) {
  for (std::size_t i = 0; i < boundary.size(); ++i) {
    const auto [a, b] = boundary[i];
    const DVec2 lo_i = glm::min(uv[a], uv[b]), hi_i = glm::max(uv[a], uv[b]);
    for (std::size_t j = i + 1; j < boundary.size(); ++j) {
      const auto [c, d] = boundary[j];
      if (a == c || a == d || b == c || b == d) continue;
      const DVec2 lo_j = glm::min(uv[c], uv[d]), hi_j = glm::max(uv[c], uv[d]);
      if (hi_i.x < lo_j.x || hi_j.x < lo_i.x || hi_i.y < lo_j.y || hi_j.y < lo_i.y) continue;
      if (segments_cross(uv[a], uv[b], uv[c], uv[d])) return false;
    }
  }
  return true;
}

double corner_angle(DVec2 at, DVec2 b, DVec2 c) {
  return std::abs(std::atan2(cross2(b - at, c - at), glm::dot(b - at, c - at)));
}

}  // namespace

std::optional<std::vector<glm::vec2>> parameterize_chart(const BakeMesh& mesh, const ChartMesh& chart,
                                                         const ParameterizeLimits& limits) {
  const std::size_t vertices = chart.source_vertex.size();
  const std::size_t tris = chart.indices.size() / 3;
  // Boundary edges: local edges used once.
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>>
      edge_use;  // key -> (count, first)
  for (std::size_t t = 0; t < tris; ++t) {
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t a = chart.indices[3 * t + k], b = chart.indices[3 * t + (k + 1) % 3];
      auto& use = edge_use[edge_key(a, b)];
      ++use.first;
      use.second = a;
    }
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> boundary;
  std::vector<std::uint8_t> on_boundary(vertices, 0);
  for (const auto& [key, use] : edge_use) {
    if (use.first != 1) continue;
    const auto a = static_cast<std::uint32_t>(key >> 32), b = static_cast<std::uint32_t>(key & 0xffffffffu);
    boundary.emplace_back(a, b);
    on_boundary[a] = on_boundary[b] = 1;
  }
  if (boundary.empty() || boundary.size() > limits.max_boundary_edges) return std::nullopt;

  // Initial guess and pins: projection onto the chart's mean plane.
  DVec3 normal(0.0);
  double area3 = 0.0;
  for (std::size_t t = 0; t < tris; ++t) {
    const DVec3 a(mesh.positions[chart.source_vertex[chart.indices[3 * t]]]);
    const DVec3 b(mesh.positions[chart.source_vertex[chart.indices[3 * t + 1]]]);
    const DVec3 c(mesh.positions[chart.source_vertex[chart.indices[3 * t + 2]]]);
    const DVec3 n = glm::cross(b - a, c - a);
    normal += n;
    area3 += 0.5 * glm::length(n);
  }
  normal = glm::length(normal) > 1e-30 ? glm::normalize(normal) : DVec3(0.0, 0.0, 1.0);
  const DVec3 axis_x = glm::normalize(std::abs(normal.x) < 0.9 ? glm::cross(normal, DVec3(1.0, 0.0, 0.0))
                                                               : glm::cross(normal, DVec3(0.0, 1.0, 0.0)));
  const DVec3 axis_y = glm::cross(normal, axis_x);
  std::vector<double> x(2 * vertices);
  for (std::size_t v = 0; v < vertices; ++v) {
    const DVec3 p(mesh.positions[chart.source_vertex[v]]);
    x[2 * v] = glm::dot(p, axis_x);
    x[2 * v + 1] = glm::dot(p, axis_y);
  }
  if (area3 <= 0.0) {
    std::vector<glm::vec2> flat(vertices, glm::vec2(0.0f));
    return flat;
  }
  std::uint32_t pin_lo = boundary.front().first, pin_hi = pin_lo;
  for (std::uint32_t v = 0; v < vertices; ++v) {
    if (!on_boundary[v]) continue;
    if (x[2 * v] + 0.5 * x[2 * v + 1] < x[2 * pin_lo] + 0.5 * x[2 * pin_lo + 1]) pin_lo = v;
    if (x[2 * v] + 0.5 * x[2 * v + 1] > x[2 * pin_hi] + 0.5 * x[2 * pin_hi + 1]) pin_hi = v;
  }
  std::vector<std::uint8_t> pinned(vertices, 0);
  pinned[pin_lo] = pinned[pin_hi] = 1;
  solve_lscm(conformal_rows(mesh, chart), pinned, x);

  std::vector<DVec2> uv(vertices);
  for (std::size_t v = 0; v < vertices; ++v) uv[v] = DVec2(x[2 * v], x[2 * v + 1]);
  std::vector<double> uv_area(tris), tri_area(tris);
  double total_uv = 0.0;
  for (std::size_t t = 0; t < tris; ++t) {
    const std::uint32_t* f = &chart.indices[3 * t];
    uv_area[t] = 0.5 * cross2(uv[f[1]] - uv[f[0]], uv[f[2]] - uv[f[0]]);
    total_uv += uv_area[t];
    const DVec3 a(mesh.positions[chart.source_vertex[f[0]]]);
    tri_area[t] = 0.5 * glm::length(glm::cross(DVec3(mesh.positions[chart.source_vertex[f[1]]]) - a,
                                               DVec3(mesh.positions[chart.source_vertex[f[2]]]) - a));
  }
  if (total_uv < 0.0) {  // LSCM fixes orientation only up to a reflection of the pins' frame
    for (DVec2& p : uv) p.x = -p.x;
    for (double& area : uv_area) area = -area;
    total_uv = -total_uv;
  }
  if (!(total_uv > 0.0) || !std::isfinite(total_uv)) return std::nullopt;
  const double mean_ratio = total_uv / area3;
  for (std::size_t t = 0; t < tris; ++t) {
    if (tri_area[t] <= 1e-9 * area3) continue;  // degenerate in 3D: no texels to misplace
    if (uv_area[t] <= 0.0) return std::nullopt;
    const double ratio = uv_area[t] / tri_area[t] / mean_ratio;
    const double limit = static_cast<double>(limits.max_area_distortion);
    if (ratio > limit || ratio * limit < 1.0) return std::nullopt;
  }
  // A locally injective map can still wrap around an interior vertex twice: angles must sum to 2π.
  std::vector<double> angle_sum(vertices, 0.0);
  for (std::size_t t = 0; t < tris; ++t) {
    const std::uint32_t* f = &chart.indices[3 * t];
    for (int k = 0; k < 3; ++k)
      angle_sum[f[k]] += corner_angle(uv[f[k]], uv[f[(k + 1) % 3]], uv[f[(k + 2) % 3]]);
  }
  for (std::size_t v = 0; v < vertices; ++v) {
    if (!on_boundary[v] && std::abs(angle_sum[v] - 2.0 * std::numbers::pi) > 0.5) return std::nullopt;
  }
  if (!boundary_is_simple(boundary, uv)) return std::nullopt;

  const double scale = std::sqrt(area3 / total_uv);
  std::vector<glm::vec2> result(vertices);
  for (std::size_t v = 0; v < vertices; ++v) result[v] = glm::vec2(uv[v] * scale);
  return result;
}

}  // namespace myriad::crowd
