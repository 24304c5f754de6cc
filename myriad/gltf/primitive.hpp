// What every importer reads the same way from a glTF mesh primitive, whatever it builds from it: its
// triangles (lists, strips and fans as one list, winding kept) and its morph targets blended at the
// weights the file sets. (Its material's colour and UV mapping: material.hpp.)
#pragma once

#include "myriad/gltf/document.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace myriad::gltf {

// Whether the primitive's mode draws triangles (lists, strips, fans), not points or lines. Throws for a
// mode glTF does not define.
bool has_triangles(const Document& doc, const tinygltf::Primitive& prim, const std::string& field);

// The primitive's triangles as a list of indices into its `vertex_count` vertices: its index accessor
// (unsigned scalars, every index checked) or, without one, the vertices in order, unrolled for strips
// and fans (degenerate strip joints dropped). Throws when a list's count is not a multiple of 3.
std::vector<std::uint32_t> triangle_indices(const Document& doc, const tinygltf::Primitive& prim,
                                            std::size_t vertex_count, const std::string& field);

// The morph weights a mesh node draws with when no animation drives them: the node's `weights`, else its
// mesh's, else none (every target at weight 0).
std::vector<double> default_morph_weights(const Document& doc, int node);

// Adds each morph target's POSITION and NORMAL displacements, scaled by its weight, to the primitive's
// positions and (when present) normals, renormalising the normals. Weights past the primitive's target
// count, and targets past the weights, are ignored; a weight of 0 reads nothing. Throws naming the field
// for a non-finite weight or a target attribute whose count differs from the primitive's.
void apply_morph_targets(const Document& doc, const tinygltf::Primitive& prim,
                         std::span<const double> weights, std::vector<glm::vec3>& positions,
                         std::vector<glm::vec3>& normals, const std::string& field);

// The primitive's morph targets as read: per target its POSITION and NORMAL displacements, one per
// vertex (`vertex_count`), a list empty where the target has no such attribute; a non-finite
// displacement reads as zero. Throws naming the field for a count that differs from the primitive's.
struct MorphTarget {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
};
std::vector<MorphTarget> read_morph_targets(const Document& doc, const tinygltf::Primitive& prim,
                                            std::size_t vertex_count, const std::string& field);

}  // namespace myriad::gltf
