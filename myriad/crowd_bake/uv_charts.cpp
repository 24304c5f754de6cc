#include "myriad/crowd_bake/uv_charts.hpp"

#include <algorithm>
#include <limits>
#include <cmath>
#include <numbers>
#include <numeric>
#include <unordered_map>

namespace myriad::crowd {

namespace {

glm::vec3 face_normal(const BakeMesh& mesh, std::size_t t) {
  const glm::vec3 a = mesh.positions[mesh.indices[3 * t]];
  const glm::vec3 b = mesh.positions[mesh.indices[3 * t + 1]];
  const glm::vec3 c = mesh.positions[mesh.indices[3 * t + 2]];
  return glm::cross(b - a, c - a);
}

std::uint64_t edge_key(std::uint32_t a, std::uint32_t b) {
  return (static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
}

struct UnionFind {
  std::vector<std::uint32_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  std::uint32_t find(std::uint32_t i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }
  void join(std::uint32_t a, std::uint32_t b) { parent[find(a)] = find(b); }
};

// Connected parts of `triangles` across smooth edges whose both sides are in the set.
std::vector<std::vector<std::uint32_t>> connected_parts(const SmoothAdjacency& adjacency,
                                                        const std::vector<std::uint32_t>& triangles) {
  std::unordered_map<std::uint32_t, std::uint32_t> local;
  local.reserve(triangles.size() * 2);
  for (std::uint32_t i = 0; i < triangles.size(); ++i) local.emplace(triangles[i], i);
  std::vector<std::uint8_t> seen(triangles.size(), 0);
  std::vector<std::vector<std::uint32_t>> parts;
  std::vector<std::uint32_t> stack;
  for (std::uint32_t start = 0; start < triangles.size(); ++start) {
    if (seen[start]) continue;
    parts.emplace_back();
    seen[start] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::uint32_t i = stack.back();
      stack.pop_back();
      parts.back().push_back(triangles[i]);
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t other = adjacency.across[3 * triangles[i] + static_cast<std::size_t>(k)];
        if (other == kNoTriangle) continue;
        const auto it = local.find(other);
        if (it == local.end() || seen[it->second]) continue;
        seen[it->second] = 1;
        stack.push_back(it->second);
      }
    }
  }
  return parts;
}

}  // namespace

SmoothAdjacency smooth_adjacency(const BakeMesh& mesh, float seam_angle_deg) {
  const std::size_t tris = mesh.triangle_count();
  // Every directed edge, keyed by its undirected vertex pair.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> edges;  // values: 3*t + k
  edges.reserve(tris * 3);
  for (std::uint32_t t = 0; t < tris; ++t) {
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t a = mesh.indices[3 * t + k], b = mesh.indices[3 * t + (k + 1) % 3];
      if (a != b) edges[edge_key(a, b)].push_back(3 * t + k);
    }
  }
  const float cos_limit = std::cos(seam_angle_deg * std::numbers::pi_v<float> / 180.0f);
  SmoothAdjacency adjacency;
  adjacency.across.assign(tris * 3, kNoTriangle);
  for (const auto& [key, uses] : edges) {
    if (uses.size() != 2) continue;  // border or non-manifold edge: a seam
    const std::uint32_t t0 = uses[0] / 3, k0 = uses[0] % 3, t1 = uses[1] / 3, k1 = uses[1] % 3;
    if (t0 == t1) continue;
    // Consistent winding: the second triangle runs the shared edge the other way.
    if (mesh.indices[3 * t0 + k0] != mesh.indices[3 * t1 + (k1 + 1) % 3]) continue;
    const glm::vec3 n0 = face_normal(mesh, t0), n1 = face_normal(mesh, t1);
    const float l0 = glm::length(n0), l1 = glm::length(n1);
    // A degenerate triangle has no angle; it joins its neighbours so it never forms a chart alone.
    const bool smooth = l0 <= 0.0f || l1 <= 0.0f || glm::dot(n0, n1) >= cos_limit * l0 * l1;
    if (!smooth) continue;
    adjacency.across[uses[0]] = t1;
    adjacency.across[uses[1]] = t0;
  }
  return adjacency;
}

std::vector<std::vector<std::uint32_t>> grow_charts(const SmoothAdjacency& adjacency,
                                                    std::size_t triangle_count) {
  std::vector<std::uint32_t> all(triangle_count);
  std::iota(all.begin(), all.end(), 0u);
  return connected_parts(adjacency, all);
}

ChartMesh make_chart_mesh(const BakeMesh& mesh, const SmoothAdjacency& adjacency,
                          const std::vector<std::uint32_t>& chart_of, std::uint32_t chart,
                          const std::vector<std::uint32_t>& triangles) {
  std::unordered_map<std::uint32_t, std::uint32_t> local;
  local.reserve(triangles.size() * 2);
  for (std::uint32_t i = 0; i < triangles.size(); ++i) local.emplace(triangles[i], i);
  // Corners 3*i+k; corners of one vertex meeting across an in-chart smooth edge are joined.
  UnionFind corners(triangles.size() * 3);
  for (std::uint32_t i = 0; i < triangles.size(); ++i) {
    const std::uint32_t t = triangles[i];
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t other = adjacency.across[3 * t + k];
      if (other == kNoTriangle || chart_of[other] != chart) continue;
      const std::uint32_t j = local.at(other);
      for (std::uint32_t end = 0; end < 2; ++end) {
        const std::uint32_t v = mesh.indices[3 * t + (k + end) % 3];
        for (std::uint32_t m = 0; m < 3; ++m) {
          if (mesh.indices[3 * other + m] == v) corners.join(3 * i + (k + end) % 3, 3 * j + m);
        }
      }
    }
  }
  ChartMesh out;
  out.triangles = triangles;
  out.indices.resize(triangles.size() * 3);
  std::unordered_map<std::uint32_t, std::uint32_t> vertex_of_root;
  for (std::uint32_t c = 0; c < triangles.size() * 3; ++c) {
    const auto [it, inserted] =
        vertex_of_root.emplace(corners.find(c), static_cast<std::uint32_t>(out.source_vertex.size()));
    if (inserted) out.source_vertex.push_back(mesh.indices[3 * triangles[c / 3] + c % 3]);
    out.indices[c] = it->second;
  }
  return out;
}

int euler_characteristic(const ChartMesh& chart) {
  std::unordered_map<std::uint64_t, int> edges;
  for (std::size_t t = 0; t < chart.indices.size() / 3; ++t) {
    for (std::size_t k = 0; k < 3; ++k)
      ++edges[edge_key(chart.indices[3 * t + k], chart.indices[3 * t + (k + 1) % 3])];
  }
  return static_cast<int>(chart.source_vertex.size()) - static_cast<int>(edges.size()) +
         static_cast<int>(chart.indices.size() / 3);
}

bool cut_to_disc(const BakeMesh& mesh, SmoothAdjacency& adjacency,
                 const std::vector<std::uint32_t>& triangles) {
  std::unordered_map<std::uint32_t, std::uint32_t> local;
  local.reserve(triangles.size() * 2);
  for (std::uint32_t i = 0; i < triangles.size(); ++i) local.emplace(triangles[i], i);
  const auto inside = [&](std::uint32_t t) { return t != kNoTriangle && local.count(t) != 0; };
  // Spanning tree of the triangles across in-chart smooth edges (breadth first from the first one).
  std::vector<std::uint8_t> tree_edge(triangles.size() * 3, 0), seen(triangles.size(), 0);
  std::vector<std::uint32_t> queue{0};
  seen[0] = 1;
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const std::uint32_t i = queue[q];
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t other = adjacency.across[3 * triangles[i] + k];
      if (!inside(other)) continue;
      const std::uint32_t j = local.at(other);
      if (seen[j]) continue;
      seen[j] = 1;
      tree_edge[3 * i + k] = 1;
      for (std::uint32_t m = 0; m < 3; ++m) {
        if (adjacency.across[3 * other + m] == triangles[i]) tree_edge[3 * j + m] = 1;
      }
      queue.push_back(j);
    }
  }
  // Cut candidates (inner edges the tree does not cross, once each) and the boundary, by vertex pair.
  std::unordered_map<std::uint64_t, std::uint32_t> cut;  // vertex pair -> directed edge 3*i+k
  std::unordered_map<std::uint32_t, int> degree;         // cut + boundary edges at each vertex
  bool has_boundary = false;
  for (std::uint32_t i = 0; i < triangles.size(); ++i) {
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t a = mesh.indices[3 * triangles[i] + k],
                          b = mesh.indices[3 * triangles[i] + (k + 1) % 3];
      const std::uint32_t other = adjacency.across[3 * triangles[i] + k];
      if (!inside(other)) {
        has_boundary = true;
        ++degree[a], ++degree[b];
      } else if (!tree_edge[3 * i + k] && triangles[i] < other) {
        cut.emplace(edge_key(a, b), 3 * i + k);
        ++degree[a], ++degree[b];
      }
    }
  }
  if (!has_boundary) return false;
  // Prune dangling cut edges: an end with no other cut or boundary edge is an inner dead end.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = cut.begin(); it != cut.end();) {
      const std::uint32_t a = static_cast<std::uint32_t>(it->first >> 32),
                          b = static_cast<std::uint32_t>(it->first);
      if (degree[a] == 1 || degree[b] == 1) {
        --degree[a], --degree[b];
        it = cut.erase(it);
        changed = true;
      } else {
        ++it;
      }
    }
  }
  for (const auto& [key, directed] : cut) {
    const std::uint32_t t = triangles[directed / 3], k = directed % 3;
    const std::uint32_t other = adjacency.across[3 * t + k];
    adjacency.across[3 * t + k] = kNoTriangle;
    for (std::uint32_t m = 0; m < 3; ++m) {
      if (adjacency.across[3 * other + m] == t) adjacency.across[3 * other + m] = kNoTriangle;
    }
  }
  return !cut.empty();
}

std::vector<std::vector<std::uint32_t>> split_chart(const BakeMesh& mesh, const SmoothAdjacency& adjacency,
                                                    const std::vector<std::uint32_t>& triangles,
                                                    bool closed) {
  std::vector<glm::vec3> centroids(triangles.size());
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  glm::vec3 mean(0.0f);
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const std::size_t t = triangles[i];
    centroids[i] = (mesh.positions[mesh.indices[3 * t]] + mesh.positions[mesh.indices[3 * t + 1]] +
                    mesh.positions[mesh.indices[3 * t + 2]]) /
                   3.0f;
    lo = glm::min(lo, centroids[i]);
    hi = glm::max(hi, centroids[i]);
    mean += centroids[i];
  }
  mean /= static_cast<float>(triangles.size());
  const glm::vec3 extent = hi - lo;
  const int longest = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
  const int shortest = extent.x < extent.y && extent.x < extent.z ? 0 : (extent.y < extent.z ? 1 : 2);
  const int axis = closed ? shortest : longest;
  std::vector<std::uint32_t> below, above;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    (centroids[i][axis] < mean[axis] ? below : above).push_back(triangles[i]);
  }
  if (below.empty() || above.empty()) {
    // All centroids on one side (coincident triangles): halve the list instead.
    below.assign(triangles.begin(), triangles.begin() + static_cast<std::ptrdiff_t>(triangles.size() / 2));
    above.assign(triangles.begin() + static_cast<std::ptrdiff_t>(triangles.size() / 2), triangles.end());
  }
  std::vector<std::vector<std::uint32_t>> parts = connected_parts(adjacency, below);
  for (std::vector<std::uint32_t>& part : connected_parts(adjacency, above)) parts.push_back(std::move(part));
  return parts;
}

}  // namespace myriad::crowd
