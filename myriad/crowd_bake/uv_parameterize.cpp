#include "myriad/crowd_bake/uv_parameterize.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <limits>
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

// Triangle t of a chart laid flat in its own plane: corner 0 at the origin, corner 1 on +x.
struct FlatTriangle {
  std::uint32_t v[3];  // chart vertices
  DVec2 x[3];          // the corners in the plane
  double twice_area;   // in 3D
};

// False for a triangle whose doubled area is at most `min_twice_area` or whose first edge is empty
// (degenerate: it constrains nothing).
bool flat_triangle(const BakeMesh& mesh, const ChartMesh& chart, std::size_t t, double min_twice_area,
                   FlatTriangle& out) {
  DVec3 p[3];
  for (std::size_t k = 0; k < 3; ++k) {
    out.v[k] = chart.indices[3 * t + k];
    p[k] = DVec3(mesh.positions[chart.source_vertex[out.v[k]]]);
  }
  const DVec3 e1 = p[1] - p[0], e2 = p[2] - p[0];
  const DVec3 n = glm::cross(e1, e2);
  out.twice_area = glm::length(n);
  const double l1 = glm::length(e1);
  if (out.twice_area <= min_twice_area || l1 <= 0.0) return false;
  const DVec3 x = e1 / l1, y = glm::cross(n / out.twice_area, x);
  out.x[0] = DVec2(0.0);
  out.x[1] = DVec2(l1, 0.0);
  out.x[2] = DVec2(glm::dot(e2, x), glm::dot(e2, y));
  return true;
}

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

// Jacobi-preconditioned conjugate gradients on two-component unknowns (the Tutte embedding and ARAP's
// global step both solve a weighted graph Laplacian): `x` is the warm start and the result, `r` the
// starting residual (zero on rows that must not move), `r0` the squared size the stop is relative to;
// stops after `iterations`, or when |r|^2 <= tolerance * r0. Rows `fixed` marks (may be null) get no
// update from A p. `z`, `p`, `ap` are scratch of x's size.
template <class Apply>
void solve_laplacian_pcg(std::vector<DVec2>& x, std::vector<DVec2>& r, double r0,
                         const std::vector<double>& diag, const std::vector<std::uint8_t>* fixed,
                         const Apply& apply, std::size_t iterations, double tolerance, std::vector<DVec2>& z,
                         std::vector<DVec2>& p, std::vector<DVec2>& ap) {
  const std::size_t vertices = x.size();
  double rz = 0.0;
  for (std::size_t v = 0; v < vertices; ++v) {
    z[v] = diag[v] > 0.0 ? r[v] / diag[v] : DVec2(0.0);
    p[v] = z[v];
    rz += glm::dot(r[v], z[v]);
  }
  for (std::size_t iteration = 0; iteration < iterations && rz > 0.0; ++iteration) {
    apply(p, ap);
    double pap = 0.0;
    for (std::size_t v = 0; v < vertices; ++v) {
      if (fixed && (*fixed)[v]) ap[v] = DVec2(0.0);
      pap += glm::dot(p[v], ap[v]);
    }
    if (pap <= 0.0) break;
    const double alpha = rz / pap;
    double rz_next = 0.0, rr = 0.0;
    for (std::size_t v = 0; v < vertices; ++v) {
      x[v] += alpha * p[v];
      r[v] -= alpha * ap[v];
      z[v] = diag[v] > 0.0 ? r[v] / diag[v] : DVec2(0.0);
      rz_next += glm::dot(r[v], z[v]);
      rr += glm::dot(r[v], r[v]);
    }
    if (rr <= tolerance * r0) break;
    const double beta = rz_next / rz;
    rz = rz_next;
    for (std::size_t v = 0; v < vertices; ++v) p[v] = z[v] + beta * p[v];
  }
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
  solve_laplacian_pcg(x, r, r0, diag, &fixed, apply, std::max<std::size_t>(200, 4 * vertices), 1e-24, z, p,
                      ap);
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

// Local/global ARAP (Liu et al. 2008) from an injective start map: per triangle the rotation closest to
// its Jacobian (local), then one Poisson solve with cotangent weights towards the rotated 3D edges
// (global; the matrix is factored once per chart). Each global step is taken only as far as no triangle flips
// (halving the step), so the map stays locally injective while its area distortion drops towards an
// isometry's; where a triangle about to collapse blocks the step, flip-free symmetric Dirichlet descent
// expands it first, and more of that descent follows the ARAP iterations. `accept` is tried every few
// iterations; returns its first success. `uv` is left at the last map. ARAP gives up on a map that stalls:
// when a batch of symmetric Dirichlet steps lowers the energy by less than this fraction, or when the ARAP
// step was blocked by a collapsing triangle this many times (such maps are rarely accepted in the end and
// cost most of the unwrap's time; a chart refused here stays split, a few seam vertices more, never a worse
// map).
constexpr double kStallFraction = 1e-2;
constexpr int kMaxBlockedSteps = 4;
template <class Accept>
std::optional<std::vector<glm::vec2>> arap_refine(const BakeMesh& mesh, const ChartMesh& chart,
                                                  std::vector<DVec2>& uv, double area3, int max_iterations,
                                                  const Accept& accept) {
  const std::size_t vertices = chart.source_vertex.size();
  const std::size_t tris = chart.indices.size() / 3;
  struct Frame {
    std::uint32_t v[3];
    DVec2 x[3];     // the 3D triangle in its own plane (counter-clockwise)
    double w[3];    // weight of the edge opposite corner k: cot(angle k) / 2, clamped positive
    double inv[4];  // inverse of [x1 - x0, x2 - x0]
  };
  std::vector<Frame> frames;
  frames.reserve(tris);
  for (std::size_t t = 0; t < tris; ++t) {
    Frame f{};
    FlatTriangle flat;
    if (!flat_triangle(mesh, chart, t, 1e-12 * area3, flat)) continue;
    std::copy(std::begin(flat.v), std::end(flat.v), std::begin(f.v));
    std::copy(std::begin(flat.x), std::end(flat.x), std::begin(f.x));
    for (int k = 0; k < 3; ++k) {
      const DVec2 a = f.x[(k + 1) % 3] - f.x[k], b = f.x[(k + 2) % 3] - f.x[k];
      f.w[k] = 0.5 * std::max(glm::dot(a, b) / std::abs(cross2(a, b)), 0.01);
    }
    const double det = f.x[1].x * f.x[2].y - f.x[2].x * f.x[1].y;
    f.inv[0] = f.x[2].y / det, f.inv[1] = -f.x[2].x / det;
    f.inv[2] = -f.x[1].y / det, f.inv[3] = f.x[1].x / det;
    frames.push_back(f);
  }
  if (frames.empty()) return std::nullopt;
  auto signed_area = [&](const std::vector<DVec2>& m, const Frame& f) {
    return cross2(m[f.v[1]] - m[f.v[0]], m[f.v[2]] - m[f.v[0]]);
  };
  // Orientation and scale of the start: counter-clockwise, UV area = 3D area.
  double total = 0.0;
  for (const Frame& f : frames) total += 0.5 * signed_area(uv, f);
  if (total < 0.0) {
    for (DVec2& p : uv) p.x = -p.x;
    total = -total;
  }
  if (!(total > 0.0) || !std::isfinite(total)) return std::nullopt;
  const double scale = std::sqrt(area3 / total);
  for (DVec2& p : uv) p *= scale;
  for (const Frame& f : frames) {
    if (!(signed_area(uv, f) > 0.0)) return std::nullopt;  // not locally injective to begin with
  }
  // The global step's matrix: the cotangent Laplacian, vertex 0 of the first frame pinned.
  std::unordered_map<std::uint64_t, double> weight;
  std::vector<double> diag(vertices, 0.0);
  for (const Frame& f : frames) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t i = f.v[(k + 1) % 3], j = f.v[(k + 2) % 3];
      weight[edge_key(i, j)] += f.w[k];
      diag[i] += f.w[k];
      diag[j] += f.w[k];
    }
  }
  struct Edge {
    std::uint32_t i, j;
    double w;
  };
  std::vector<Edge> edges;
  edges.reserve(weight.size());
  for (const auto& [key, w] : weight)
    edges.push_back({static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key), w});
  std::sort(edges.begin(), edges.end(),
            [](const Edge& a, const Edge& b) { return a.i != b.i ? a.i < b.i : a.j < b.j; });
  const std::uint32_t pin = frames.front().v[0];
  auto apply = [&](const std::vector<DVec2>& x, std::vector<DVec2>& out) {
    for (std::size_t v = 0; v < vertices; ++v) out[v] = diag[v] * x[v];
    for (const Edge& e : edges) {
      out[e.i] -= e.w * x[e.j];
      out[e.j] -= e.w * x[e.i];
    }
    out[pin] = DVec2(0.0);
  };
  // ARAP has no barrier against collapse: a nearly collapsed triangle can block its steps. Gradient
  // descent on the symmetric Dirichlet energy Σ A (|J|² + |J⁻¹|²), infinite at a collapse, expands
  // such triangles; each step stays short of any flip and halves until the energy drops (Armijo).
  std::vector<DVec2> gradient(vertices), trial(vertices);
  std::vector<double> stiffness(vertices);
  auto frame_jacobian = [&](const std::vector<DVec2>& m, const Frame& f, double j[4]) {
    const DVec2 d1 = m[f.v[1]] - m[f.v[0]], d2 = m[f.v[2]] - m[f.v[0]];
    j[0] = d1.x * f.inv[0] + d2.x * f.inv[2], j[1] = d1.x * f.inv[1] + d2.x * f.inv[3];
    j[2] = d1.y * f.inv[0] + d2.y * f.inv[2], j[3] = d1.y * f.inv[1] + d2.y * f.inv[3];
  };
  auto frame_area = [](const Frame& f) { return 0.5 * cross2(f.x[1], f.x[2]); };
  // Only triangles the checks weigh (not nearly degenerate in 3D, whose frames are ill-conditioned).
  auto significant = [&](const Frame& f) { return frame_area(f) > 1e-9 * area3; };
  auto energy = [&](const std::vector<DVec2>& m) {
    double e = 0.0;
    for (const Frame& f : frames) {
      double j[4];
      frame_jacobian(m, f, j);
      const double det = j[0] * j[3] - j[1] * j[2];
      if (!(det > 0.0)) return std::numeric_limits<double>::infinity();
      if (!significant(f)) continue;
      const double norm2 = j[0] * j[0] + j[1] * j[1] + j[2] * j[2] + j[3] * j[3];
      e += frame_area(f) * norm2 * (1.0 + 1.0 / (det * det));
    }
    return e;
  };
  double current = 0.0;
  // Line search (Smith and Schaefer): moving every vertex v by t * move(v), the first t at which some
  // triangle's signed area, quadratic in t, reaches zero bounds the step; 0.8 of that (at most 1)
  // flips nothing.
  auto flip_free_step = [&](const auto& move) {
    double step = 1.0;
    for (const Frame& f : frames) {
      const DVec2 p1 = uv[f.v[1]] - uv[f.v[0]], p2 = uv[f.v[2]] - uv[f.v[0]];
      const DVec2 d1 = move(f.v[1]) - move(f.v[0]), d2 = move(f.v[2]) - move(f.v[0]);
      const double a = cross2(d1, d2), b = cross2(p1, d2) + cross2(d1, p2), c = cross2(p1, p2);
      double root = std::numeric_limits<double>::infinity();
      if (std::abs(a) <= 1e-300) {
        if (b < 0.0) root = -c / b;
      } else {
        const double disc = b * b - 4.0 * a * c;
        if (disc >= 0.0) {
          const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
          for (const double t_zero : {q / a, q != 0.0 ? c / q : -1.0}) {
            if (t_zero > 0.0) root = std::min(root, t_zero);
          }
        }
      }
      step = std::min(step, 0.8 * root);
    }
    return step;
  };
  auto descend = [&]() {
    std::fill(gradient.begin(), gradient.end(), DVec2(0.0));
    std::fill(stiffness.begin(), stiffness.end(), 0.0);
    for (const Frame& f : frames) {
      if (!significant(f)) continue;
      double j[4];
      frame_jacobian(uv, f, j);
      const double det = j[0] * j[3] - j[1] * j[2];
      const double norm2 = j[0] * j[0] + j[1] * j[1] + j[2] * j[2] + j[3] * j[3];
      const double a = frame_area(f), c1 = 2.0 * a * (1.0 + 1.0 / (det * det)),
                   c2 = -2.0 * a * norm2 / (det * det * det);
      // dE/dJ = c1 J + c2 cof(J); dE/d(u1 - u0, u2 - u0) = dE/dJ · invᵀ.
      const double g00 = c1 * j[0] + c2 * j[3], g01 = c1 * j[1] - c2 * j[2];
      const double g10 = c1 * j[2] - c2 * j[1], g11 = c1 * j[3] + c2 * j[0];
      const DVec2 gd1(g00 * f.inv[0] + g01 * f.inv[1], g10 * f.inv[0] + g11 * f.inv[1]);
      const DVec2 gd2(g00 * f.inv[2] + g01 * f.inv[3], g10 * f.inv[2] + g11 * f.inv[3]);
      gradient[f.v[1]] += gd1;
      gradient[f.v[2]] += gd2;
      gradient[f.v[0]] -= gd1 + gd2;
      // The energy's curvature along the smaller singular value s: 2 + 6 / s⁴ (2 for an isometry).
      const double s2 = 0.5 * (norm2 - std::sqrt(std::max(norm2 * norm2 - 4.0 * det * det, 0.0)));
      const double stiff = 1.0 + 3.0 / std::max(s2 * s2, 1e-300);
      for (int k = 0; k < 3; ++k) stiffness[f.v[k]] += stiff * (f.w[(k + 1) % 3] + f.w[(k + 2) % 3]);
    }
    // Per-vertex scaling by the energy's stiffness there (a Jacobi preconditioner).
    double slope = 0.0;
    for (std::size_t v = 0; v < vertices; ++v) {
      const DVec2 g = gradient[v];
      gradient[v] = stiffness[v] > 0.0 ? -g / stiffness[v] : DVec2(0.0);
      slope += glm::dot(g, gradient[v]);
    }
    if (!(slope < 0.0)) return false;
    double step = flip_free_step([&](std::uint32_t v) { return gradient[v]; });
    bool moved = false;
    for (int halving = 0; halving < 40 && step > 1e-14; ++halving, step *= 0.5) {
      for (std::size_t v = 0; v < vertices; ++v) trial[v] = uv[v] + step * gradient[v];
      const double next = energy(trial);
      if (next <= current + 1e-4 * step * slope) {
        uv.swap(trial);
        current = next;
        moved = true;
        break;
      }
    }
    return moved;
  };
  std::vector<DVec2> rhs(vertices), target(vertices), r(vertices), z(vertices), p(vertices), ap(vertices);
  std::vector<double> rotation(2 * frames.size());
  // The global step's matrix never changes: factor it once (sparse LDLᵀ) and every iteration is two
  // triangular solves. Fixed rows (the pin, vertices no frame touches) become identity rows holding
  // their current UV. Where the factorization fails (a chart in parts that only degenerate triangles
  // join: one part has no pin), the conjugate gradients below solve it instead.
  std::vector<std::uint8_t> fixed(vertices, 0);
  for (std::size_t v = 0; v < vertices; ++v) fixed[v] = v == pin || diag[v] <= 0.0 ? 1 : 0;
  Eigen::SparseMatrix<double> matrix;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> factor;
  bool factored = false;
  {
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(vertices + 2 * edges.size());
    for (std::size_t v = 0; v < vertices; ++v) {
      const auto i = static_cast<Eigen::Index>(v);
      entries.emplace_back(i, i, fixed[v] ? 1.0 : diag[v]);
    }
    for (const Edge& e : edges) {
      if (fixed[e.i] || fixed[e.j]) continue;
      entries.emplace_back(static_cast<Eigen::Index>(e.i), static_cast<Eigen::Index>(e.j), -e.w);
      entries.emplace_back(static_cast<Eigen::Index>(e.j), static_cast<Eigen::Index>(e.i), -e.w);
    }
    matrix.resize(static_cast<Eigen::Index>(vertices), static_cast<Eigen::Index>(vertices));
    matrix.setFromTriplets(entries.begin(), entries.end());
    factor.compute(matrix);
    factored = factor.info() == Eigen::Success;
  }
  Eigen::VectorXd bx(static_cast<Eigen::Index>(vertices)), by(static_cast<Eigen::Index>(vertices));
  // Solves L u = rhs for the free vertices with the fixed ones held where `uv` has them; false when
  // the factorization or the solve failed.
  auto direct_solve = [&]() {
    if (!factored) return false;
    for (std::size_t v = 0; v < vertices; ++v) {
      const auto i = static_cast<Eigen::Index>(v);
      bx[i] = fixed[v] ? uv[v].x : rhs[v].x;
      by[i] = fixed[v] ? uv[v].y : rhs[v].y;
    }
    for (const Edge& e : edges) {  // the fixed neighbours' terms move to the right-hand side
      if (fixed[e.i] && !fixed[e.j]) bx[e.j] += e.w * uv[e.i].x, by[e.j] += e.w * uv[e.i].y;
      if (fixed[e.j] && !fixed[e.i]) bx[e.i] += e.w * uv[e.j].x, by[e.i] += e.w * uv[e.j].y;
    }
    const Eigen::VectorXd sx = factor.solve(bx), sy = factor.solve(by);
    if (factor.info() != Eigen::Success || !sx.allFinite() || !sy.allFinite()) return false;
    // A part of the chart without a fixed vertex makes the matrix singular yet factorable in floating
    // point: such a solve leaves a large residual, and the conjugate gradients take over for good.
    const double tolerance = 1e-16 * std::max(bx.squaredNorm() + by.squaredNorm(), 1e-300);
    if (!((matrix * sx - bx).squaredNorm() + (matrix * sy - by).squaredNorm() <= tolerance)) {
      factored = false;
      return false;
    }
    for (std::size_t v = 0; v < vertices; ++v) {
      const auto i = static_cast<Eigen::Index>(v);
      target[v] = fixed[v] ? uv[v] : DVec2(sx[i], sy[i]);
    }
    return true;
  };
  int stalled = 0, blocked = 0;
  for (int iteration = 1; iteration <= max_iterations; ++iteration) {
    // Local step: the closest rotation to each triangle's Jacobian J = [u1-u0, u2-u0] · inv.
    for (std::size_t t = 0; t < frames.size(); ++t) {
      const Frame& f = frames[t];
      const DVec2 d1 = uv[f.v[1]] - uv[f.v[0]], d2 = uv[f.v[2]] - uv[f.v[0]];
      const double j00 = d1.x * f.inv[0] + d2.x * f.inv[2], j01 = d1.x * f.inv[1] + d2.x * f.inv[3];
      const double j10 = d1.y * f.inv[0] + d2.y * f.inv[2], j11 = d1.y * f.inv[1] + d2.y * f.inv[3];
      const double angle = std::atan2(j10 - j01, j00 + j11);
      rotation[2 * t] = std::cos(angle);
      rotation[2 * t + 1] = std::sin(angle);
    }
    // Global step: L u = Σ w_ij R_t (x_i - x_j), warm-started at the current map.
    std::fill(rhs.begin(), rhs.end(), DVec2(0.0));
    for (std::size_t t = 0; t < frames.size(); ++t) {
      const Frame& f = frames[t];
      const double c = rotation[2 * t], s = rotation[2 * t + 1];
      for (int k = 0; k < 3; ++k) {
        const int a = (k + 1) % 3, b = (k + 2) % 3;
        const DVec2 e = f.x[a] - f.x[b];
        const DVec2 re(c * e.x - s * e.y, s * e.x + c * e.y);
        rhs[f.v[a]] += f.w[k] * re;
        rhs[f.v[b]] -= f.w[k] * re;
      }
    }
    rhs[pin] = DVec2(0.0);
    if (!direct_solve()) {
      target = uv;
      apply(target, r);
      double r0 = 0.0;
      for (std::size_t v = 0; v < vertices; ++v) {
        r[v] = v == pin || diag[v] <= 0.0 ? DVec2(0.0) : rhs[v] - r[v];
        r0 += glm::dot(rhs[v], rhs[v]);
      }
      solve_laplacian_pcg(target, r, r0, diag, nullptr, apply, std::max<std::size_t>(100, vertices), 1e-16, z,
                          p, ap);
    }
    const double step = flip_free_step([&](std::uint32_t v) { return target[v] - uv[v]; });
    if (step < 0.25) {
      // A triangle about to collapse blocks the step: expand it first.
      current = energy(uv);
      const double before = current;
      bool moved = false;
      for (int k = 0; k < 16 && std::isfinite(current) && descend(); ++k) moved = true;
      if (!moved) break;
      // Blocked again and again while the expansion gains almost nothing: the map has stalled.
      stalled = current < (1.0 - kStallFraction) * before ? 0 : stalled + 1;
      if (stalled >= 2 || ++blocked >= kMaxBlockedSteps) break;
    } else {
      for (std::size_t v = 0; v < vertices; ++v) uv[v] += step * (target[v] - uv[v]);
    }
    if (iteration % 4 == 0 || iteration == max_iterations) {
      if (auto accepted = accept(uv)) return accepted;
    }
  }
  current = energy(uv);
  double checked_energy = current;
  const int descent_iterations = 8 * max_iterations;
  for (int iteration = 1; iteration <= descent_iterations && std::isfinite(current); ++iteration) {
    if (!descend()) break;
    if (iteration % 8 == 0) {
      if (auto accepted = accept(uv)) return accepted;
      if (!(current < (1.0 - kStallFraction) * checked_energy)) break;
      checked_energy = current;
    }
  }
  if (auto accepted = accept(uv)) return accepted;
  return std::nullopt;
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
