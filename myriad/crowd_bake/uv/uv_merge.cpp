#include "myriad/crowd_bake/uv/uv_parameterize.hpp"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

namespace myriad::crowd {

std::size_t chart_output_vertices(const ChartMesh& chart, std::span<const std::uint32_t> corner_vertex) {
  std::vector<std::uint64_t> pairs(chart.indices.size());
  for (std::size_t i = 0; i < chart.indices.size(); ++i) {
    pairs[i] = (static_cast<std::uint64_t>(chart.indices[i]) << 32) |
               corner_vertex[3 * chart.triangles[i / 3] + i % 3];
  }
  std::sort(pairs.begin(), pairs.end());
  return static_cast<std::size_t>(std::unique(pairs.begin(), pairs.end()) - pairs.begin());
}

std::size_t merge_charts(const BakeMesh& mesh, std::span<const std::uint32_t> corner_vertex,
                         const SmoothAdjacency& joinable, std::vector<FlatChart>& charts,
                         const ParameterizeLimits& limits) {
  std::vector<std::uint32_t> chart_of(mesh.triangle_count(), kNoTriangle);
  for (std::uint32_t c = 0; c < charts.size(); ++c) {
    for (const std::uint32_t t : charts[c].mesh.triangles) chart_of[t] = c;
  }
  std::vector<std::size_t> cost(charts.size());
  for (std::size_t c = 0; c < charts.size(); ++c)
    cost[c] = chart_output_vertices(charts[c].mesh, corner_vertex);
  std::vector<std::uint32_t> version(charts.size(), 0);
  std::vector<std::uint8_t> alive(charts.size(), 1);
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>> failed;
  std::size_t merges = 0;
  for (bool merged_any = true; merged_any;) {
    merged_any = false;
    // Shared edges per adjacent chart pair (each undirected edge once).
    std::unordered_map<std::uint64_t, std::uint32_t> shared;
    for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
      for (std::uint32_t k = 0; k < 3; ++k) {
        const std::uint32_t other = joinable.across[3 * t + k];
        if (other == kNoTriangle || other < t || chart_of[t] == kNoTriangle ||
            chart_of[other] == kNoTriangle || chart_of[t] == chart_of[other])
          continue;
        const std::uint32_t a = std::min(chart_of[t], chart_of[other]),
                            b = std::max(chart_of[t], chart_of[other]);
        ++shared[(static_cast<std::uint64_t>(a) << 32) | b];
      }
    }
    std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> pairs;  // (edges, a, b)
    pairs.reserve(shared.size());
    for (const auto& [key, edges] : shared) {
      pairs.emplace_back(edges, static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
    }
    std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
      if (std::get<0>(x) != std::get<0>(y)) return std::get<0>(x) > std::get<0>(y);
      return std::tie(std::get<1>(x), std::get<2>(x)) < std::tie(std::get<1>(y), std::get<2>(y));
    });
    std::vector<std::uint8_t> touched(charts.size(), 0);
    for (const auto& [edges, a, b] : pairs) {
      if (touched[a] || touched[b]) continue;
      const auto attempt = std::make_tuple(a, version[a], b, version[b]);
      if (failed.count(attempt)) continue;
      if (charts[a].mesh.triangles.size() + charts[b].mesh.triangles.size() > limits.max_chart_triangles)
        continue;  // never tried: the union would be too large to flatten (it stays too large)
      std::vector<std::uint32_t> triangles = charts[a].mesh.triangles;
      triangles.insert(triangles.end(), charts[b].mesh.triangles.begin(), charts[b].mesh.triangles.end());
      for (const std::uint32_t t : charts[b].mesh.triangles) chart_of[t] = a;
      ChartMesh joined = make_chart_mesh(mesh, joinable, chart_of, a, triangles);
      std::optional<std::vector<glm::vec2>> uv;
      const std::size_t joined_cost = chart_output_vertices(joined, corner_vertex);
      if (joined_cost < cost[a] + cost[b] && euler_characteristic(joined) == 1) {
        uv = parameterize_chart(mesh, joined, limits);
      }
      if (!uv) {
        for (const std::uint32_t t : charts[b].mesh.triangles) chart_of[t] = b;
        failed.insert(attempt);
        continue;
      }
      charts[a] = {std::move(joined), std::move(*uv)};
      charts[b] = {};
      cost[a] = joined_cost;
      alive[b] = 0;
      ++version[a];
      touched[a] = touched[b] = 1;
      merged_any = true;
      ++merges;
    }
  }
  std::size_t kept = 0;
  for (std::size_t c = 0; c < charts.size(); ++c) {
    if (!alive[c]) continue;
    if (kept != c) charts[kept] = std::move(charts[c]);
    ++kept;
  }
  charts.resize(kept);
  return merges;
}

}  // namespace myriad::crowd
