#include "myriad/crowd_bake/uv_layout.hpp"

#include "myriad/crowd_bake/uv_charts.hpp"
#include "myriad/crowd_bake/uv_pack.hpp"
#include "myriad/crowd_bake/uv_parameterize.hpp"

#include <optional>

namespace myriad::crowd {

namespace {

// A lone triangle in its own plane: always a valid chart (used only if the solver gives up on it).
std::vector<glm::vec2> flatten_triangle(const BakeMesh& mesh, const ChartMesh& chart) {
  const glm::vec3 a = mesh.positions[chart.source_vertex[chart.indices[0]]];
  const glm::vec3 b = mesh.positions[chart.source_vertex[chart.indices[1]]];
  const glm::vec3 c = mesh.positions[chart.source_vertex[chart.indices[2]]];
  const glm::vec3 e1 = b - a, e2 = c - a;
  const float l1 = glm::length(e1);
  const glm::vec3 x = l1 > 0.0f ? e1 / l1 : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 n = glm::cross(e1, e2);
  const glm::vec3 y = glm::length(n) > 0.0f ? glm::cross(glm::normalize(n), x) : glm::vec3(0.0f);
  std::vector<glm::vec2> uv(chart.source_vertex.size(), glm::vec2(0.0f));
  uv[chart.indices[1]] = glm::vec2(l1, 0.0f);
  uv[chart.indices[2]] = glm::vec2(glm::dot(e2, x), glm::dot(e2, y));
  return uv;
}

}  // namespace

UvLayout layout_uvs(const BakeMesh& mesh, float seam_angle_deg, int padding_px, float texels_per_unit,
                    int max_atlas_size) {
  // Mutable: cut_to_disc adds seams inside charts that are not discs.
  SmoothAdjacency adjacency = smooth_adjacency(mesh, seam_angle_deg);
  std::vector<std::uint32_t> chart_of(mesh.triangle_count(), 0);
  std::vector<std::vector<std::uint32_t>> pending = grow_charts(adjacency, mesh.triangle_count());
  std::vector<ChartMesh> charts;
  std::vector<std::vector<glm::vec2>> chart_uvs;
  std::uint32_t next_id = 0;
  const ParameterizeLimits limits;
  while (!pending.empty()) {
    std::vector<std::uint32_t> triangles = std::move(pending.back());
    pending.pop_back();
    const std::uint32_t id = next_id++;
    for (const std::uint32_t t : triangles) chart_of[t] = id;
    ChartMesh chart = make_chart_mesh(mesh, adjacency, chart_of, id, triangles);
    std::optional<std::vector<glm::vec2>> uv;
    int euler = euler_characteristic(chart);
    // Not a disc but open: one cut graph keeps it whole (fewer seam vertices than halving it).
    if (euler != 1 && cut_to_disc(mesh, adjacency, triangles)) {
      chart = make_chart_mesh(mesh, adjacency, chart_of, id, triangles);
      euler = euler_characteristic(chart);
    }
    if (euler == 1 || triangles.size() == 1) uv = parameterize_chart(mesh, chart, limits);
    if (!uv && triangles.size() == 1) uv = flatten_triangle(mesh, chart);
    if (!uv) {
      for (std::vector<std::uint32_t>& part : split_chart(mesh, adjacency, triangles, euler != 1))
        pending.push_back(std::move(part));
      continue;
    }
    charts.push_back(std::move(chart));
    chart_uvs.push_back(std::move(*uv));
  }
  const PackedAtlas atlas = pack_charts(chart_uvs, texels_per_unit, padding_px, max_atlas_size);

  UvLayout layout;
  layout.width = atlas.width;
  layout.height = atlas.height;
  layout.texels_per_unit = atlas.texels_per_unit;
  layout.chart_count = charts.size();
  BakeMesh& out = layout.mesh;
  out.indices.assign(mesh.indices.size(), 0u);
  out.triangle_material = mesh.triangle_material;
  for (std::size_t c = 0; c < charts.size(); ++c) {
    const auto base = static_cast<std::uint32_t>(layout.source_vertex.size());
    for (std::size_t v = 0; v < charts[c].source_vertex.size(); ++v) {
      const std::uint32_t source = charts[c].source_vertex[v];
      layout.source_vertex.push_back(source);
      out.positions.push_back(mesh.positions[source]);
      out.normals.push_back(mesh.normals[source]);
      out.joints.push_back(mesh.joints[source]);
      out.weights.push_back(mesh.weights[source]);
      out.uvs.push_back(chart_uvs[c][v]);
    }
    for (std::size_t i = 0; i < charts[c].triangles.size(); ++i) {
      for (std::size_t k = 0; k < 3; ++k) {
        out.indices[3 * charts[c].triangles[i] + k] = base + charts[c].indices[3 * i + k];
      }
    }
  }
  return layout;
}

}  // namespace myriad::crowd
