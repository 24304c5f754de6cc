// What the chart flattening's two solvers share (uv_parameterize.cpp: LSCM, Tutte, the checks;
// uv_arap.cpp: ARAP): double-precision 2D/3D vectors, edge keys, flattened triangles, the graph-
// Laplacian conjugate gradients, and ARAP's entry point.
#pragma once

#include "myriad/crowd_bake/uv/uv_parameterize.hpp"

#include <glm/glm.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace myriad::crowd::uv_flatten {

using DVec2 = glm::dvec2;
using DVec3 = glm::dvec3;

inline std::uint64_t edge_key(std::uint32_t a, std::uint32_t b) {
  return (static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
}

inline double cross2(DVec2 a, DVec2 b) { return a.x * b.y - a.y * b.x; }

// Triangle t of a chart laid flat in its own plane: corner 0 at the origin, corner 1 on +x.
struct FlatTriangle {
  std::uint32_t v[3];  // chart vertices
  DVec2 x[3];          // the corners in the plane
  double twice_area;   // in 3D
};

// False for a triangle whose doubled area is at most `min_twice_area` or whose first edge is empty
// (degenerate: it constrains nothing).
inline bool flat_triangle(const BakeMesh& mesh, const ChartMesh& chart, std::size_t t, double min_twice_area,
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

inline double pcg_dot(double a, double b) { return a * b; }
inline double pcg_dot(DVec2 a, DVec2 b) { return glm::dot(a, b); }

// Jacobi-preconditioned conjugate gradients, the one solver of the flattenings: the conformal (LSCM)
// solve's scalar unknowns, and the two-component unknowns of the Tutte embedding and ARAP's global step
// (both a weighted graph Laplacian). `x` is the warm start and the result, `r` the starting residual
// (zero on rows that must not move), `r0` the squared size the stop is relative to; stops after
// `iterations`, or when |r|^2 <= tolerance * r0. Rows where `fixed(i)` holds get no update from A p.
// `z`, `p`, `ap` are scratch of x's size.
template <class T, class Fixed, class Apply>
void solve_pcg(std::vector<T>& x, std::vector<T>& r, double r0, const std::vector<double>& diag,
               const Fixed& fixed, const Apply& apply, std::size_t iterations, double tolerance,
               std::vector<T>& z, std::vector<T>& p, std::vector<T>& ap) {
  const std::size_t n = x.size();
  double rz = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    z[i] = diag[i] > 0.0 ? r[i] / diag[i] : T(0.0);
    p[i] = z[i];
    rz += pcg_dot(r[i], z[i]);
  }
  for (std::size_t iteration = 0; iteration < iterations && rz > 0.0; ++iteration) {
    apply(p, ap);
    double pap = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (fixed(i)) ap[i] = T(0.0);
      pap += pcg_dot(p[i], ap[i]);
    }
    if (pap <= 0.0) break;
    const double alpha = rz / pap;
    double rz_next = 0.0, rr = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
      z[i] = diag[i] > 0.0 ? r[i] / diag[i] : T(0.0);
      rz_next += pcg_dot(r[i], z[i]);
      rr += pcg_dot(r[i], r[i]);
    }
    if (rr <= tolerance * r0) break;
    const double beta = rz_next / rz;
    rz = rz_next;
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
  }
}

// A map's acceptance test (the checks every flattening must pass, scaled to the 3D area), or nothing.
using AcceptMap = std::function<std::optional<std::vector<glm::vec2>>(const std::vector<DVec2>&)>;

// Local/global ARAP (Liu et al. 2008) from an injective start map: per triangle the rotation closest to
// its Jacobian (local), then one Poisson solve with cotangent weights towards the rotated 3D edges
// (global; the matrix is factored once per chart). Each global step is taken only as far as no triangle flips
// (halving the step), so the map stays locally injective while its area distortion drops towards an
// isometry's; where a triangle about to collapse blocks the step, flip-free symmetric Dirichlet descent
// expands it first, and more of that descent follows the ARAP iterations. `accept` is tried every few
// iterations; returns its first success. `uv` is left at the last map. ARAP gives up on a map that stalls
// (uv_arap.cpp: kStallFraction, kMaxBlockedSteps).
std::optional<std::vector<glm::vec2>> arap_refine(const BakeMesh& mesh, const ChartMesh& chart,
                                                  std::vector<DVec2>& uv, double area3, int max_iterations,
                                                  const AcceptMap& accept);

}  // namespace myriad::crowd::uv_flatten
