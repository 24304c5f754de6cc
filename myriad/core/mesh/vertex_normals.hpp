#pragma once
// Vertex normals from a triangle list: the one place a mesh without usable normals gets them, for the
// glTF readers, the crowd baker's import and remeshing, and avatar kits.

#include <glm/vec3.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::mesh {

// Area-weighted vertex normals: each vertex takes the normalised sum of the cross products of the
// triangles round it (a cross product's length is twice the triangle's area, so large faces weigh
// more). A triangle whose cross product is not finite adds nothing; a vertex on no triangle, or whose
// sum is zero, gets up (+Y), so every returned normal is unit length. `triangles` holds three indices
// per triangle, each below positions.size().
std::vector<glm::vec3> area_weighted_normals(std::span<const glm::vec3> positions,
                                             std::span<const std::uint32_t> triangles);

// Replaces only the normals of zero length or not finite by area_weighted_normals' value, leaving the
// others as authored; computes nothing when none is bad. `normals` is parallel to `positions`.
void repair_normals(std::span<const glm::vec3> positions, std::span<const std::uint32_t> triangles,
                    std::span<glm::vec3> normals);

}  // namespace myriad::mesh
