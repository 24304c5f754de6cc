// Flattening one chart (SPEC C3): least-squares conformal maps (LSCM) solved with a preconditioned
// conjugate gradient, then checked: every triangle keeps its orientation, the area distortion stays
// bounded, the boundary does not cross itself and no vertex is wrapped around twice. When LSCM fails
// the checks (a boundary that overlaps itself, a map wrapped around a saddle), Tutte's embedding with
// the boundary on a circle by arc length and symmetrised mean-value weights (bijective for a disc by
// construction) is checked the same way; a map that folds nothing but is too distorted is then
// relaxed by local/global ARAP iterations that never flip a triangle, and checked again. A chart that
// fails all of them is cut further or split by the caller, so every chart that reaches the atlas is a
// true flat embedding.
#pragma once

#include "myriad/crowd_bake/uv/uv_charts.hpp"

#include <optional>
#include <span>
#include <vector>

namespace myriad::crowd {

struct ParameterizeLimits {
  float max_area_distortion = 4.0f;  // per triangle, relative to the chart's mean UV/3D area ratio
  std::size_t max_boundary_edges = 4096;
  bool lscm = true;            // try least-squares conformal maps first
  bool tutte_fallback = true;  // then Tutte's embedding on a circle (bijective for a disc)
  // Then up to this many local/global ARAP iterations from the LSCM map (when it folds nothing) and
  // from Tutte's, each step kept short of flipping a triangle: less area distortion, still injective
  // locally (0 = none); symmetric Dirichlet descent steps, as flip-free, expand a triangle about to
  // collapse where it blocks ARAP, and up to 8 per iteration follow the ARAP iterations.
  int arap_iterations = 32;
  // The most triangles one chart may hold when it is flattened: a larger chart is halved before any
  // solve and charts are not merged past it. A flattening's global solves cost more than linearly in
  // the chart's size (about n^1.8 measured), so this bound keeps the unwrap linear in the mesh: a
  // high-poly model gets more charts, not quadratically longer solves. Low-poly models' charts are
  // far below it.
  std::size_t max_chart_triangles = 8192;
};

// UVs per chart vertex, scaled so the chart's UV area equals its 3D area (one UV unit = one model
// unit); nothing when the chart cannot be flattened within the limits. Then `distorted` (when given)
// lists the chart triangles the last map tried (Tutte's, relaxed) flips or distorts beyond the limit:
// where a cut would help.
std::optional<std::vector<glm::vec2>> parameterize_chart(const BakeMesh& mesh, const ChartMesh& chart,
                                                         const ParameterizeLimits& limits,
                                                         std::vector<std::uint32_t>* distorted = nullptr);

// A chart that passed `parameterize_chart`: its mesh and UVs (model units).
struct FlatChart {
  ChartMesh mesh;
  std::vector<glm::vec2> uv;
};

// Output vertices of a chart: distinct (chart vertex, corner_vertex[3 * triangle + corner]) pairs,
// where `corner_vertex` names the vertex each corner has in the mesh being unwrapped (the chart may be
// built on a coarser topology such as one vertex per position).
std::size_t chart_output_vertices(const ChartMesh& chart, std::span<const std::uint32_t> corner_vertex);

// Greedy chart merging (fewer seam vertices): adjacent charts (across an edge of `joinable`) are
// tried pairwise, most shared edges first, and two become one when their union, built with
// `joinable`, has fewer output vertices than the two, is a disc and still flattens within `limits`. Rounds
// repeat until no pair merges; a pair that failed is retried only after one of its charts has grown. Every
// chart of `mesh` must be in `charts`, each triangle once. Returns the number of merges.
std::size_t merge_charts(const BakeMesh& mesh, std::span<const std::uint32_t> corner_vertex,
                         const SmoothAdjacency& joinable, std::vector<FlatChart>& charts,
                         const ParameterizeLimits& limits);

}  // namespace myriad::crowd
