#include "myriad/crowd_bake/uv/uv_charts.hpp"

#include <algorithm>
#include <limits>
#include <cmath>
#include <numbers>
#include <numeric>
#include <queue>
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

// A chart's edge graph over its local vertices: neighbours with 3D edge lengths, the boundary
// (edges used by one chart triangle) and, per inner edge, its two chart triangles.
struct ChartGraph {
  std::vector<std::vector<std::pair<std::uint32_t, double>>> next;
  std::vector<std::uint8_t> on_boundary;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> faces;  // local edge -> chart triangles
};

ChartGraph chart_graph(const BakeMesh& mesh, const ChartMesh& chart) {
  ChartGraph g;
  const std::size_t vertices = chart.source_vertex.size();
  g.next.resize(vertices);
  g.on_boundary.assign(vertices, 0);
  for (std::uint32_t i = 0; i < chart.indices.size() / 3; ++i) {
    for (std::uint32_t k = 0; k < 3; ++k)
      g.faces[edge_key(chart.indices[3 * i + k], chart.indices[3 * i + (k + 1) % 3])].push_back(i);
  }
  for (const auto& [key, tris] : g.faces) {
    const auto a = static_cast<std::uint32_t>(key >> 32), b = static_cast<std::uint32_t>(key);
    if (a == b) continue;
    const double length = glm::length(glm::dvec3(mesh.positions[chart.source_vertex[a]]) -
                                      glm::dvec3(mesh.positions[chart.source_vertex[b]]));
    g.next[a].emplace_back(b, length);
    g.next[b].emplace_back(a, length);
    if (tris.size() == 1) g.on_boundary[a] = g.on_boundary[b] = 1;
  }
  for (auto& n : g.next) std::sort(n.begin(), n.end());  // deterministic ties
  return g;
}

// Shortest edge paths from `sources` (Dijkstra on 3D lengths); stops at the first vertex popped
// for which `stop` holds and returns it (kNoTriangle when none), `previous` leads back to a source.
template <class Stop>
std::uint32_t shortest_paths(const ChartGraph& g, const std::vector<std::uint32_t>& sources,
                             std::vector<double>& distance, std::vector<std::uint32_t>& previous,
                             const Stop& stop) {
  distance.assign(g.next.size(), std::numeric_limits<double>::infinity());
  previous.assign(g.next.size(), kNoTriangle);
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (const std::uint32_t s : sources) {
    distance[s] = 0.0;
    queue.emplace(0.0, s);
  }
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > distance[v]) continue;
    if (stop(v)) return v;
    for (const auto& [w, length] : g.next[v]) {
      if (d + length < distance[w]) {
        distance[w] = d + length;
        previous[w] = v;
        queue.emplace(distance[w], w);
      }
    }
  }
  return kNoTriangle;
}

// Turns the chart edges along `previous` from `end` back to a source into seams in `adjacency`.
std::size_t cut_along(SmoothAdjacency& adjacency, const ChartMesh& chart, const ChartGraph& g,
                      const std::vector<std::uint32_t>& previous, std::uint32_t end) {
  std::size_t cut = 0;
  for (std::uint32_t v = end; previous[v] != kNoTriangle; v = previous[v]) {
    const std::uint32_t u = previous[v];
    const auto it = g.faces.find(edge_key(u, v));
    if (it == g.faces.end() || it->second.size() != 2) continue;
    const std::uint32_t ti = chart.triangles[it->second[0]], tj = chart.triangles[it->second[1]];
    for (const std::uint32_t i : it->second) {
      const std::uint32_t t = chart.triangles[i], other = t == ti ? tj : ti;
      for (std::uint32_t k = 0; k < 3; ++k) {
        const std::uint32_t a = chart.indices[3 * i + k], b = chart.indices[3 * i + (k + 1) % 3];
        if (edge_key(a, b) == edge_key(u, v) && adjacency.across[3 * t + k] == other)
          adjacency.across[3 * t + k] = kNoTriangle;
      }
    }
    ++cut;
  }
  return cut;
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

bool cut_closed_chart(const BakeMesh& mesh, SmoothAdjacency& adjacency, const ChartMesh& chart) {
  const ChartGraph g = chart_graph(mesh, chart);
  if (g.next.empty() ||
      std::any_of(g.on_boundary.begin(), g.on_boundary.end(), [](std::uint8_t b) { return b; }))
    return false;
  // A double sweep: the vertex farthest from the first, then the one farthest from it.
  std::vector<double> distance;
  std::vector<std::uint32_t> previous;
  const auto never = [](std::uint32_t) { return false; };
  const auto farthest = [&]() {
    std::uint32_t best = 0;
    for (std::uint32_t v = 0; v < distance.size(); ++v) {
      if (std::isfinite(distance[v]) && distance[v] > distance[best]) best = v;
    }
    return best;
  };
  shortest_paths(g, {0u}, distance, previous, never);
  const std::uint32_t a = farthest();
  shortest_paths(g, {a}, distance, previous, never);
  const std::uint32_t b = farthest();
  return b != a && cut_along(adjacency, chart, g, previous, b) > 0;
}

bool join_boundary_loops(const BakeMesh& mesh, SmoothAdjacency& adjacency, const ChartMesh& chart) {
  const ChartGraph g = chart_graph(mesh, chart);
  const std::size_t vertices = g.next.size();
  // Boundary loops: boundary vertices connected by boundary edges.
  UnionFind loops(vertices);
  for (const auto& [key, tris] : g.faces) {
    if (tris.size() == 1) loops.join(static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
  }
  const auto first = std::find(g.on_boundary.begin(), g.on_boundary.end(), std::uint8_t{1});
  if (first == g.on_boundary.end()) return false;
  // Grow from the first loop: the shortest path to another loop is cut, that loop joins the source.
  std::vector<std::uint8_t> joined(vertices, 0);
  std::vector<std::uint32_t> sources;
  const auto absorb = [&](std::uint32_t root) {
    for (std::uint32_t v = 0; v < vertices; ++v) {
      if (g.on_boundary[v] && !joined[v] && loops.find(v) == root) {
        joined[v] = 1;
        sources.push_back(v);
      }
    }
  };
  absorb(loops.find(static_cast<std::uint32_t>(first - g.on_boundary.begin())));
  std::vector<double> distance;
  std::vector<std::uint32_t> previous;
  bool changed = false;
  for (;;) {
    const std::uint32_t end = shortest_paths(g, sources, distance, previous,
                                             [&](std::uint32_t v) { return g.on_boundary[v] && !joined[v]; });
    if (end == kNoTriangle) break;
    changed = cut_along(adjacency, chart, g, previous, end) > 0 || changed;
    // The path's vertices now lie on the joined boundary too.
    for (std::uint32_t v = end; v != kNoTriangle; v = previous[v]) {
      if (!joined[v]) {
        joined[v] = 1;
        sources.push_back(v);
      }
    }
    absorb(loops.find(end));
  }
  return changed;
}

bool cut_to_boundary(const BakeMesh& mesh, SmoothAdjacency& adjacency, const ChartMesh& chart,
                     const std::vector<std::uint32_t>& region) {
  const ChartGraph g = chart_graph(mesh, chart);
  std::vector<std::uint32_t> boundary;
  for (std::uint32_t v = 0; v < g.on_boundary.size(); ++v) {
    if (g.on_boundary[v]) boundary.push_back(v);
  }
  if (boundary.empty()) return false;
  std::vector<double> distance;
  std::vector<std::uint32_t> previous;
  shortest_paths(g, boundary, distance, previous, [](std::uint32_t) { return false; });
  // The region's vertex deepest inside: its path to the boundary opens the region up most.
  std::uint32_t deepest = kNoTriangle;
  for (const std::uint32_t t : region) {
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t v = chart.indices[3 * t + k];
      if (std::isfinite(distance[v]) && distance[v] > 0.0 &&
          (deepest == kNoTriangle || distance[v] > distance[deepest]))
        deepest = v;
    }
  }
  if (deepest == kNoTriangle) return false;
  return cut_along(adjacency, chart, g, previous, deepest) > 0;
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
