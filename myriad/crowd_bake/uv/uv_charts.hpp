// Chart segmentation for the UV unwrap (SPEC C3): triangles are grouped across smooth edges; an edge
// is a seam when its dihedral angle exceeds the limit, when it is not shared by exactly two
// consistently wound triangles, or when it separates two charts after a chart had to be split.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <cstdint>
#include <vector>

namespace myriad::crowd {

inline constexpr std::uint32_t kNoTriangle = 0xffffffffu;

// Per triangle and edge (edge k runs from corner k to corner k+1): the triangle across a smooth edge,
// or kNoTriangle where the edge is a seam.
struct SmoothAdjacency {
  std::vector<std::uint32_t> across;  // 3 per triangle
};

SmoothAdjacency smooth_adjacency(const BakeMesh& mesh, float seam_angle_deg);

// Triangle sets connected across smooth edges.
std::vector<std::vector<std::uint32_t>> grow_charts(const SmoothAdjacency& adjacency,
                                                    std::size_t triangle_count);

// One chart as its own small mesh: corners of the chart's triangles that meet across a smooth edge
// inside the chart share a local vertex; everything else is split. `chart_of` maps every mesh
// triangle to its chart id (`chart` is the id of this one).
struct ChartMesh {
  std::vector<std::uint32_t> triangles;      // mesh triangle ids
  std::vector<std::uint32_t> source_vertex;  // per local vertex: the mesh vertex
  std::vector<std::uint32_t> indices;        // 3 local vertex ids per chart triangle
};

ChartMesh make_chart_mesh(const BakeMesh& mesh, const SmoothAdjacency& adjacency,
                          const std::vector<std::uint32_t>& chart_of, std::uint32_t chart,
                          const std::vector<std::uint32_t>& triangles);

// Euler characteristic V - E + F of the chart (1 for a disc).
int euler_characteristic(const ChartMesh& chart);

// Cuts a chart that is not a disc but has a boundary (a tube, a strip with holes) into one along a cut
// graph instead of splitting it: a breadth-first spanning tree of the chart's triangles across its
// smooth edges; the edges the tree does not cross are cut candidates; dangling cut edges (an end at an
// inner vertex) are pruned until every cut path runs between boundaries. The remaining cut edges
// become seams in `adjacency` (make_chart_mesh then splits their vertices), so the chart stays whole
// with one seam per extra boundary or handle. Returns false (nothing changed) for a closed chart.
bool cut_to_disc(const BakeMesh& mesh, SmoothAdjacency& adjacency,
                 const std::vector<std::uint32_t>& triangles);

// Short cuts by shortest edge paths (Dijkstra on 3D edge lengths over the chart's local vertices); each
// turns the path's edges into seams in `adjacency` (make_chart_mesh then splits their vertices), so a
// path of k edges costs about k copied vertices. All return false when they cut nothing.
//
// A closed chart (no boundary) is opened along the shortest path between two far apart vertices (a
// double sweep: the vertex farthest from any, then the one farthest from it), e.g. tip to tip.
bool cut_closed_chart(const BakeMesh& mesh, SmoothAdjacency& adjacency, const ChartMesh& chart);
// Boundary loops joined by the shortest paths between them (grown from one loop, each loop reached is
// joined to it), so a chart with holes gets one boundary with short cuts, not a spanning tree's.
bool join_boundary_loops(const BakeMesh& mesh, SmoothAdjacency& adjacency, const ChartMesh& chart);
// The shortest path from the vertex of `region` (chart triangles, e.g. where a map is too distorted)
// farthest from the boundary to the boundary: opens a protrusion the flattening could not.
bool cut_to_boundary(const BakeMesh& mesh, SmoothAdjacency& adjacency, const ChartMesh& chart,
                     const std::vector<std::uint32_t>& region);

// Halves a chart that cannot be flattened as a whole: triangles on each side of the plane through
// its centroid; each half is split further into its connected parts. An open chart is cut across its
// longest extent (less distortion per half); a closed one along it, across its shortest extent, so a
// closed tube becomes two nearly developable half tubes rather than two capped cups. Always returns
// at least two non-empty charts for a chart of two or more triangles.
std::vector<std::vector<std::uint32_t>> split_chart(const BakeMesh& mesh, const SmoothAdjacency& adjacency,
                                                    const std::vector<std::uint32_t>& triangles, bool closed);

}  // namespace myriad::crowd
