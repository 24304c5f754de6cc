#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <cmath>
#include <limits>
#include <unordered_map>

#include "uv_flatten.hpp"

namespace myriad::crowd::uv_flatten {
namespace {

// ARAP gives up on a map that stalls: when a batch of symmetric Dirichlet steps lowers the energy by
// less than this fraction, or when the ARAP step was blocked by a collapsing triangle this many times
// (such maps are rarely accepted in the end and cost most of the unwrap's time; a chart refused here
// stays split, a few seam vertices more, never a worse map).
constexpr double kStallFraction = 1e-2;
constexpr int kMaxBlockedSteps = 4;

}  // namespace

std::optional<std::vector<glm::vec2>> arap_refine(const BakeMesh& mesh, const ChartMesh& chart,
                                                  std::vector<DVec2>& uv, double area3, int max_iterations,
                                                  const AcceptMap& accept) {
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
      solve_pcg(
          target, r, r0, diag, [](std::size_t) { return false; }, apply, std::max<std::size_t>(100, vertices),
          1e-16, z, p, ap);
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

}  // namespace myriad::crowd::uv_flatten
