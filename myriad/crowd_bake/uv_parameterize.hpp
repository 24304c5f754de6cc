// Flattening one chart (SPEC C3): least-squares conformal maps (LSCM) solved with a preconditioned
// conjugate gradient, then checked: every triangle keeps its orientation, the area distortion stays
// bounded, the boundary does not cross itself and no vertex is wrapped around twice. A chart that
// fails is split by the caller, so every chart that reaches the atlas is a true flat embedding.
#pragma once

#include "myriad/crowd_bake/uv_charts.hpp"

#include <optional>
#include <vector>

namespace myriad::crowd {

struct ParameterizeLimits {
  float max_area_distortion = 4.0f;  // per triangle, relative to the chart's mean UV/3D area ratio
  std::size_t max_boundary_edges = 4096;
};

// UVs per chart vertex, scaled so the chart's UV area equals its 3D area (one UV unit = one model
// unit); nothing when the chart cannot be flattened within the limits.
std::optional<std::vector<glm::vec2>> parameterize_chart(const BakeMesh& mesh, const ChartMesh& chart,
                                                         const ParameterizeLimits& limits);

}  // namespace myriad::crowd
