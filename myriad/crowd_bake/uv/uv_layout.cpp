#include "myriad/crowd_bake/uv/uv_layout.hpp"

#include "myriad/crowd_bake/uv/uv_charts.hpp"
#include "myriad/crowd_bake/uv/uv_keep_original.hpp"
#include "myriad/crowd_bake/uv/uv_pack.hpp"
#include "myriad/crowd_bake/uv/uv_parameterize.hpp"

#include <array>
#include <map>
#include <optional>
#include <unordered_map>

namespace myriad::crowd {

namespace {

// Paths cut from a chart's too distorted region to its boundary before it is halved instead.
constexpr int kMaxCutPaths = 4;

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

// The mesh's triangles over one vertex per distinct position (-0 = +0); only positions and indices.
BakeMesh position_topology(const BakeMesh& mesh) {
  BakeMesh topo;
  std::map<std::array<float, 3>, std::uint32_t> id_of;
  std::vector<std::uint32_t> id(mesh.vertex_count());
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    const glm::vec3 p = mesh.positions[v] + glm::vec3(0.0f);  // -0 + 0 = +0
    const auto [it, inserted] =
        id_of.emplace(std::array<float, 3>{p.x, p.y, p.z}, static_cast<std::uint32_t>(topo.positions.size()));
    if (inserted) topo.positions.push_back(p);
    id[v] = it->second;
  }
  topo.indices.resize(mesh.indices.size());
  for (std::size_t i = 0; i < mesh.indices.size(); ++i) topo.indices[i] = id[mesh.indices[i]];
  topo.triangle_material = mesh.triangle_material;
  return topo;
}

}  // namespace

UvLayout layout_uvs(const BakeMesh& mesh, float seam_angle_deg, int padding_px, float texels_per_unit,
                    int max_atlas_size, bool merge, bool join_sharp_edges,
                    std::span<const glm::vec2> keep_original) {
  // Chart meshes live on the surface's geometry: one vertex per distinct position. Charts first grow
  // across the edges the input shares (an edge between vertices it keeps apart, for different normals
  // or skin, is a free seam: its vertices are doubled anyway); merging may later join across free
  // seams too, where a vertex the input shares meets a chart only at that vertex (a pinch).
  const BakeMesh topo = position_topology(mesh);
  const SmoothAdjacency shared = smooth_adjacency(mesh, seam_angle_deg);
  // Mutable: cut_to_disc adds seams inside charts that are not discs.
  SmoothAdjacency adjacency = shared;
  std::vector<std::uint32_t> chart_of(topo.triangle_count(), 0);
  std::vector<std::vector<std::uint32_t>> pending = grow_charts(adjacency, topo.triangle_count());
  std::vector<FlatChart> charts;
  std::uint32_t next_id = 0;
  const ParameterizeLimits limits;
  while (!pending.empty()) {
    std::vector<std::uint32_t> triangles = std::move(pending.back());
    pending.pop_back();
    const std::uint32_t id = next_id++;
    for (const std::uint32_t t : triangles) chart_of[t] = id;
    ChartMesh chart = make_chart_mesh(topo, adjacency, chart_of, id, triangles);
    std::optional<std::vector<glm::vec2>> uv;
    int euler = euler_characteristic(chart);
    // Cuts inside the chart (restored if it is halved after all).
    std::vector<std::uint32_t> saved(3 * triangles.size());
    for (std::size_t i = 0; i < triangles.size(); ++i) {
      for (std::size_t k = 0; k < 3; ++k) saved[3 * i + k] = adjacency.across[3 * triangles[i] + k];
    }
    const auto remake = [&] {
      chart = make_chart_mesh(topo, adjacency, chart_of, id, triangles);
      euler = euler_characteristic(chart);
    };
    bool closed = false;
    if (euler != 1) {
      // Not a disc: boundary loops are joined by shortest paths, and handles left over are cut along
      // one cut graph (fewer seam vertices than halving it). A closed chart is halved below: opening
      // it tip to tip (cut_closed_chart) saves vertices but re-bakes the capsule humanoid's colours
      // less exactly than the limit its test sets.
      if (join_boundary_loops(topo, adjacency, chart)) remake();
      if (euler != 1 && cut_to_disc(topo, adjacency, triangles)) remake();
      closed = euler != 1;
    }
    std::vector<std::uint32_t> distorted;
    // A chart over the size bound is halved without a solve (its halves are tried in turn).
    const bool oversized = triangles.size() > limits.max_chart_triangles;
    if (!oversized && (euler == 1 || triangles.size() == 1))
      uv = parameterize_chart(topo, chart, limits, &distorted);
    // Where the flattening is too distorted, a path from there to the boundary opens it up further.
    for (int cut = 0; !uv && !oversized && euler == 1 && cut < kMaxCutPaths; ++cut) {
      if (!cut_to_boundary(topo, adjacency, chart, distorted)) break;
      remake();
      if (euler == 1) uv = parameterize_chart(topo, chart, limits, &distorted);
    }
    if (!uv && triangles.size() == 1) uv = flatten_triangle(topo, chart);
    if (!uv) {
      for (std::size_t i = 0; i < triangles.size(); ++i) {
        for (std::size_t k = 0; k < 3; ++k) adjacency.across[3 * triangles[i] + k] = saved[3 * i + k];
      }
      for (std::vector<std::uint32_t>& part : split_chart(topo, adjacency, triangles, closed))
        pending.push_back(std::move(part));
      continue;
    }
    charts.push_back({std::move(chart), std::move(*uv)});
  }
  // Merging: across smooth edges that were not cut, and (when allowed) across sharp edges, as long
  // as the union saves output vertices and still flattens.
  SmoothAdjacency joinable = adjacency;
  {
    const SmoothAdjacency geometric = smooth_adjacency(topo, join_sharp_edges ? 180.0f : seam_angle_deg);
    for (std::size_t e = 0; e < joinable.across.size(); ++e) {
      if (shared.across[e] == kNoTriangle) joinable.across[e] = geometric.across[e];
    }
  }
  if (merge) merge_charts(topo, mesh.indices, joinable, charts, limits);
  // Charts cheaper with their original UV seams keep them (LOD0's bound, by construction).
  OriginalUvKeys keys;
  OriginalUvChoice choice;
  choice.keep_original.assign(charts.size(), 0);
  OriginalIslands islands;
  if (!keep_original.empty()) {
    keys = original_uv_keys(mesh, keep_original);
    choice = choose_original_charts(charts, mesh.indices, keys);
    std::vector<std::uint32_t> kept_triangles;
    for (std::size_t c = 0; c < charts.size(); ++c) {
      if (choice.keep_original[c])
        kept_triangles.insert(kept_triangles.end(), charts[c].mesh.triangles.begin(),
                              charts[c].mesh.triangles.end());
    }
    islands = original_uv_islands(mesh, keep_original, keys, kept_triangles);
  }
  std::vector<std::vector<glm::vec2>> chart_uvs;
  std::vector<std::size_t> packed_of_chart(charts.size(), SIZE_MAX);
  for (std::size_t c = 0; c < charts.size(); ++c) {
    if (choice.keep_original[c]) continue;
    packed_of_chart[c] = chart_uvs.size();
    chart_uvs.push_back(std::move(charts[c].uv));
  }
  const std::size_t first_island = chart_uvs.size();
  for (std::vector<glm::vec2>& island : islands.charts) chart_uvs.push_back(std::move(island));
  const PackedAtlas atlas = pack_charts(chart_uvs, texels_per_unit, padding_px, max_atlas_size);

  UvLayout layout;
  layout.width = atlas.width;
  layout.height = atlas.height;
  layout.texels_per_unit = atlas.texels_per_unit;
  layout.chart_count = chart_uvs.size();
  layout.original_uv_bound = keys.count;
  layout.original_islands = islands.charts.size();
  BakeMesh& out = layout.mesh;
  out.indices.assign(mesh.indices.size(), 0u);
  out.triangle_material = mesh.triangle_material;
  auto emit = [&](std::uint32_t source, glm::vec2 uv) {
    layout.source_vertex.push_back(source);
    out.positions.push_back(mesh.positions[source]);
    out.normals.push_back(mesh.normals[source]);
    out.joints.push_back(mesh.joints[source]);
    out.weights.push_back(mesh.weights[source]);
    out.uvs.push_back(uv);
    return static_cast<std::uint32_t>(layout.source_vertex.size() - 1);
  };
  std::vector<std::uint32_t> output_of_key(keys.count, UINT32_MAX);
  std::unordered_map<std::uint64_t, std::uint32_t> output_of;  // (chart vertex, input vertex) -> output
  for (std::size_t c = 0; c < charts.size(); ++c) {
    const ChartMesh& chart = charts[c].mesh;
    if (choice.keep_original[c]) {
      ++layout.charts_kept_original;
      for (std::size_t i = 0; i < chart.triangles.size(); ++i) {
        for (std::size_t k = 0; k < 3; ++k) {
          const std::size_t corner = 3 * chart.triangles[i] + k;
          const std::uint32_t key = keys.key_of_corner[corner];
          if (output_of_key[key] == UINT32_MAX) {
            output_of_key[key] =
                emit(mesh.indices[corner],
                     chart_uvs[first_island + islands.island_of_key[key]][islands.local_of_key[key]]);
          }
          out.indices[corner] = output_of_key[key];
        }
      }
      continue;
    }
    output_of.clear();
    const std::vector<glm::vec2>& uv = chart_uvs[packed_of_chart[c]];
    for (std::size_t i = 0; i < chart.triangles.size(); ++i) {
      for (std::size_t k = 0; k < 3; ++k) {
        const std::uint32_t local = chart.indices[3 * i + k];
        const std::uint32_t source = mesh.indices[3 * chart.triangles[i] + k];
        auto it = output_of.find((static_cast<std::uint64_t>(local) << 32) | source);
        if (it == output_of.end())
          it = output_of.emplace((static_cast<std::uint64_t>(local) << 32) | source, emit(source, uv[local]))
                   .first;
        out.indices[3 * chart.triangles[i] + k] = it->second;
      }
    }
  }
  return layout;
}

}  // namespace myriad::crowd
