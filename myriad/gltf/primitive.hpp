// What every importer reads the same way from a glTF mesh primitive, whatever it builds from it: its
// triangles (lists, strips and fans as one list, winding kept), the UV mapping of its base colour
// texture (the set its texCoord names, through KHR_texture_transform), and normals fit to shade with
// (zero or non-finite ones rebuilt from the faces).
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

// Which UV set a material's base colour texture reads (`set`), and its KHR_texture_transform (offset,
// rotation, scale; uv' = T * R * S * uv as the extension defines it) when it has one.
struct UvMapping {
  int set = 0;
  bool transformed = false;
  glm::mat3x2 uv{1.0f};
  glm::vec2 apply(glm::vec2 t) const { return transformed ? uv * glm::vec3(t, 1.0f) : t; }
};
UvMapping base_color_uv(const Document& doc, int material);

}  // namespace myriad::gltf
