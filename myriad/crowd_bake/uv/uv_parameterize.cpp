#include "myriad/crowd_bake/uv/uv_parameterize.hpp"

#include "uv_flatten.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <unordered_map>

namespace myriad::crowd {

namespace {

using namespace uv_flatten;

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
    FlatTriangle flat;
    if (!flat_triangle(mesh, chart, t, 1e-30, flat)) continue;
    std::copy(std::begin(flat.v), std::end(flat.v), std::begin(row.v));
    const double twice_area = flat.twice_area;
    const DVec2* z = flat.x;
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

// The same minimum by one sparse LDLᵀ factorization of MᵀM (pinned entries as identity rows, their
// terms moved to the right-hand side); false, leaving `x` alone, when it is singular (a chart in parts
// that only degenerate triangles join).
bool solve_lscm_direct(const std::vector<ConformalRow>& rows, const std::vector<std::uint8_t>& pinned,
                       std::vector<double>& x) {
  const std::size_t n = x.size();
  auto fixed = [&](std::size_t i) { return pinned[i / 2] != 0; };
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(rows.size() * 72 + n);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
  for (const ConformalRow& row : rows) {
    // Two real rows per triangle: the real and imaginary parts of Σ w_k (u_k + i v_k) / √(2A).
    std::size_t col[6];
    double re[6], im[6];
    for (int k = 0; k < 3; ++k) {
      col[2 * k] = 2 * row.v[k], col[2 * k + 1] = 2 * row.v[k] + 1;
      re[2 * k] = row.wr[k] * row.inv_s, re[2 * k + 1] = -row.wi[k] * row.inv_s;
      im[2 * k] = row.wi[k] * row.inv_s, im[2 * k + 1] = row.wr[k] * row.inv_s;
    }
    for (int a = 0; a < 6; ++a) {
      if (fixed(col[a])) continue;
      for (int b = 0; b < 6; ++b) {
        const double m = re[a] * re[b] + im[a] * im[b];
        if (fixed(col[b])) {
          rhs[static_cast<Eigen::Index>(col[a])] -= m * x[col[b]];
        } else {
          entries.emplace_back(static_cast<Eigen::Index>(col[a]), static_cast<Eigen::Index>(col[b]), m);
        }
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (fixed(i)) {
      entries.emplace_back(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i), 1.0);
      rhs[static_cast<Eigen::Index>(i)] = x[i];
    }
  }
  Eigen::SparseMatrix<double> matrix(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  matrix.setFromTriplets(entries.begin(), entries.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> factor(matrix);
  if (factor.info() != Eigen::Success) return false;
  const Eigen::VectorXd solution = factor.solve(rhs);
  if (factor.info() != Eigen::Success || !solution.allFinite()) return false;
  // A singular matrix can still factor (a zero pivot in exact arithmetic is a tiny one in floating
  // point): the solution must also make the residual small, as the iterative solve's would.
  const Eigen::VectorXd residual = matrix * solution - rhs;
  if (!(residual.squaredNorm() <= 1e-16 * std::max(rhs.squaredNorm(), 1e-300))) return false;
  for (std::size_t i = 0; i < n; ++i) x[i] = solution[static_cast<Eigen::Index>(i)];
  return true;
}

// Minimises the conformal energy over the unpinned entries of `x`: directly when the system
// factors, else by Jacobi-preconditioned conjugate gradients.
void solve_lscm(const std::vector<ConformalRow>& rows, const std::vector<std::uint8_t>& pinned,
                std::vector<double>& x) {
  if (solve_lscm_direct(rows, pinned, x)) return;
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
  double r0 = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = pinned[i / 2] ? 0.0 : -r[i];
    r0 += r[i] * r[i];
  }
  solve_pcg(
      x, r, r0, diag, [&](std::size_t i) { return pinned[i / 2] != 0; },
      [&](const std::vector<double>& in, std::vector<double>& out) { apply_normal_matrix(rows, in, out); },
      std::max<std::size_t>(200, 4 * n), 1e-20, z, p, ap);
}

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

// Tutte's embedding with symmetrised mean-value weights: the boundary loop fixed on a circle by arc
// length, every inner vertex the positive-weighted mean of its neighbours. Bijective for a disc by
// construction (Floater), whatever the chart's curvature; empty when the boundary is not one loop.
std::vector<DVec2> tutte_embedding(
    const BakeMesh& mesh, const ChartMesh& chart,
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& directed_boundary) {
  const std::size_t vertices = chart.source_vertex.size();
  const std::size_t tris = chart.indices.size() / 3;
  std::vector<std::uint32_t> next(vertices, kNoTriangle);
  for (const auto& [a, b] : directed_boundary) {
    if (next[a] != kNoTriangle) return {};  // a vertex on the boundary twice
    next[a] = b;
  }
  std::vector<std::uint32_t> loop{directed_boundary.front().first};
  std::vector<double> arc{0.0};
  for (std::uint32_t v = next[loop.front()]; v != loop.front(); v = next[v]) {
    if (v == kNoTriangle || loop.size() > directed_boundary.size()) return {};
    arc.push_back(arc.back() + glm::length(DVec3(mesh.positions[chart.source_vertex[v]]) -
                                           DVec3(mesh.positions[chart.source_vertex[loop.back()]])));
    loop.push_back(v);
  }
  if (loop.size() != directed_boundary.size() || loop.size() < 3) return {};
  const double perimeter = arc.back() + glm::length(DVec3(mesh.positions[chart.source_vertex[loop.front()]]) -
                                                    DVec3(mesh.positions[chart.source_vertex[loop.back()]]));
  std::vector<DVec2> uv(vertices, DVec2(0.0));
  std::vector<std::uint8_t> fixed(vertices, 0);
  for (std::size_t i = 0; i < loop.size(); ++i) {
    // Equal arc steps where the 3D boundary has none (a zero-length boundary edge).
    const double f =
        perimeter > 0.0 ? arc[i] / perimeter : static_cast<double>(i) / static_cast<double>(loop.size());
    const double angle = 2.0 * std::numbers::pi * f;
    uv[loop[i]] = DVec2(std::cos(angle), std::sin(angle));
    fixed[loop[i]] = 1;
  }
  // Weights per directed edge (i -> j): tan(γ/2) / |x_i - x_j| for each corner angle γ at i beside the edge.
  std::unordered_map<std::uint64_t, double> weight;
  for (std::size_t t = 0; t < tris; ++t) {
    const std::uint32_t* f = &chart.indices[3 * t];
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t i = f[k], j = f[(k + 1) % 3], m = f[(k + 2) % 3];
      const DVec3 pi(mesh.positions[chart.source_vertex[i]]), pj(mesh.positions[chart.source_vertex[j]]),
          pm(mesh.positions[chart.source_vertex[m]]);
      const DVec3 ej = pj - pi, em = pm - pi;
      const double lj = glm::length(ej), lm = glm::length(em);
      if (lj <= 0.0 || lm <= 0.0) continue;
      const double gamma = std::acos(std::clamp(glm::dot(ej, em) / (lj * lm), -1.0, 1.0));
      const double tan_half = std::tan(0.5 * gamma);
      weight[(static_cast<std::uint64_t>(i) << 32) | j] += tan_half / lj;
      weight[(static_cast<std::uint64_t>(i) << 32) | m] += tan_half / lm;
    }
  }
  // Symmetric positive weights: the Laplacian over the inner vertices is SPD, solved by Jacobi-CG.
  std::unordered_map<std::uint64_t, double> sym;
  for (const auto& [key, w] : weight) {
    const auto i = static_cast<std::uint32_t>(key >> 32), j = static_cast<std::uint32_t>(key);
    const auto back = weight.find((static_cast<std::uint64_t>(j) << 32) | i);
    // A degenerate corner gives no weight; any positive weight keeps the embedding valid.
    const double w_sym = 0.5 * (w + (back != weight.end() ? back->second : w));
    sym[edge_key(i, j)] = std::max(w_sym, 1e-12);
  }
  struct Edge {
    std::uint32_t i, j;
    double w;
  };
  std::vector<Edge> edges;
  edges.reserve(sym.size());
  std::vector<double> diag(vertices, 0.0);
  for (const auto& [key, w] : sym) {
    const Edge e{static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key), w};
    edges.push_back(e);
    diag[e.i] += w;
    diag[e.j] += w;
  }
  auto apply = [&](const std::vector<DVec2>& x, std::vector<DVec2>& out) {  // out = L x on inner rows
    for (std::size_t v = 0; v < vertices; ++v) out[v] = diag[v] * x[v];
    for (const Edge& e : edges) {
      out[e.i] -= e.w * x[e.j];
      out[e.j] -= e.w * x[e.i];
    }
  };
  // Unknowns: inner vertices; the right side moves the fixed boundary over.
  std::vector<DVec2> x(vertices, DVec2(0.0)), r(vertices), z(vertices), p(vertices), ap(vertices);
  for (std::size_t v = 0; v < vertices; ++v) x[v] = fixed[v] ? uv[v] : DVec2(0.0);
  apply(x, r);
  double r0 = 0.0;
  for (std::size_t v = 0; v < vertices; ++v) {
    r[v] = fixed[v] || diag[v] <= 0.0 ? DVec2(0.0) : -r[v];
    r0 += glm::dot(r[v], r[v]);
  }
  solve_pcg(
      x, r, r0, diag, [&](std::size_t v) { return fixed[v] != 0; }, apply,
      std::max<std::size_t>(200, 4 * vertices), 1e-24, z, p, ap);
  return x;
}

// The checks every flattening must pass: consistent orientation, bounded area distortion, angle sums
// of 2π at inner vertices, a boundary that does not cross itself. Scales the accepted map so its UV
// area equals the 3D area.
std::optional<std::vector<glm::vec2>> accept_map(
    const BakeMesh& mesh, const ChartMesh& chart, std::vector<DVec2> uv,
    const std::vector<std::uint8_t>& on_boundary,
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& boundary, double area3,
    const ParameterizeLimits& limits, std::vector<std::uint32_t>* bad = nullptr) {
  const std::size_t vertices = chart.source_vertex.size();
  const std::size_t tris = chart.indices.size() / 3;
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
  if (total_uv < 0.0) {  // a map is fixed only up to a reflection
    for (DVec2& p : uv) p.x = -p.x;
    for (double& area : uv_area) area = -area;
    total_uv = -total_uv;
  }
  if (!(total_uv > 0.0) || !std::isfinite(total_uv)) return std::nullopt;
  const double mean_ratio = total_uv / area3;
  bool distorted = false;
  for (std::size_t t = 0; t < tris; ++t) {
    if (tri_area[t] <= 1e-9 * area3) continue;  // degenerate in 3D: no texels to misplace
    const double ratio = uv_area[t] / tri_area[t] / mean_ratio;
    const double limit = static_cast<double>(limits.max_area_distortion);
    if (uv_area[t] <= 0.0 || ratio > limit || ratio * limit < 1.0) {
      distorted = true;
      if (!bad) break;
      bad->push_back(static_cast<std::uint32_t>(t));
    }
  }
  if (distorted) return std::nullopt;
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

}  // namespace

std::optional<std::vector<glm::vec2>> parameterize_chart(const BakeMesh& mesh, const ChartMesh& chart,
                                                         const ParameterizeLimits& limits,
                                                         std::vector<std::uint32_t>* distorted) {
  if (distorted) distorted->clear();
  const std::size_t vertices = chart.source_vertex.size();
  const std::size_t tris = chart.indices.size() / 3;
  // Boundary edges: local edges used once (directed as their triangle runs them).
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
    boundary.emplace_back(use.second, use.second == a ? b : a);
    on_boundary[a] = on_boundary[b] = 1;
  }
  if (boundary.empty() || boundary.size() > limits.max_boundary_edges) return std::nullopt;
  std::sort(boundary.begin(), boundary.end());  // a deterministic loop start

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
  const auto accept = [&](const std::vector<DVec2>& candidate) {
    return accept_map(mesh, chart, candidate, on_boundary, boundary, area3, limits);
  };
  if (limits.lscm) {
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
    if (auto accepted = accept_map(mesh, chart, uv, on_boundary, boundary, area3, limits)) return accepted;
    if (limits.arap_iterations > 0) {
      // A locally injective LSCM map that is only too distorted: relax it towards an isometry.
      if (auto refined = arap_refine(mesh, chart, uv, area3, limits.arap_iterations, accept)) return refined;
    }
  }
  if (!limits.tutte_fallback) return std::nullopt;
  std::vector<DVec2> uv = tutte_embedding(mesh, chart, boundary);
  if (uv.empty()) return std::nullopt;
  if (auto accepted = accept_map(mesh, chart, uv, on_boundary, boundary, area3, limits)) return accepted;
  if (limits.arap_iterations > 0) {
    if (auto refined = arap_refine(mesh, chart, uv, area3, limits.arap_iterations, accept)) return refined;
  }
  // Where the last map tried (locally injective by construction) is too distorted.
  if (distorted) accept_map(mesh, chart, std::move(uv), on_boundary, boundary, area3, limits, distorted);
  return std::nullopt;
}

}  // namespace myriad::crowd
