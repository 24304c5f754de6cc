// The mesh steps of LOD2 after voxel remeshing (SPEC C6): simplification of the closed surface to a
// triangle budget, shrink-wrap onto the original, and attachment of each vertex to its nearest
// original triangle with skin data blended from that triangle's corners.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"
#include "myriad/crowd_bake/remesh/remesh_closest_point.hpp"
#include "myriad/crowd_bake/remesh/remesh_volume.hpp"

namespace myriad::crowd {

// meshoptimizer's edge-collapse simplifier down to about `target_triangles`, then degenerate and
// mutually cancelling triangles removed and unused vertices dropped; the surface stays closed.
void simplify_surface(VoxelSurface& surface, std::size_t target_triangles);

// Moves every vertex to its closest point on the original; a vertex whose move would turn one of its
// triangles over is moved only part of the way. Returns the largest remaining distance to the original.
float shrink_wrap(VoxelSurface& surface, const ClosestPointQuery& original);

// Attachment of `point` to the original triangle nearest to it; weights clamped to the triangle and
// summing to 1.
Attachment attach_to_nearest(glm::vec3 point, const BakeMesh& original, const ClosestPointQuery& query);

// The four strongest joint influences of w.x·a + w.y·b + w.z·c, renormalized to sum 1.
void blend_skin(const BakeMesh& original, const Attachment& attachment, glm::u16vec4& joints,
                glm::vec4& weights);

}  // namespace myriad::crowd
