// The mesh the crowd baker works on: every skinned primitive of a model merged into one indexed
// triangle list in bind pose, with one material per triangle. Every baker stage (weld, unwrap, LOD1,
// LOD2, hole check, VAT) reads and writes this one type, so stages can be tested and reordered alone.
#pragma once

#include "myriad/anim/import/gltf_import.hpp"

#include <glm/glm.hpp>
#include <glm/gtc/type_precision.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace myriad::crowd {

struct BakeMaterial {
  std::string name;
  glm::vec4 base_color{1.0f};
  int texture = -1;           // into the model's texture list, -1 = none
  bool double_sided = false;  // false: back faces are culled (the hole check honours this)
  UvWrapModes wrap;           // how the texture is addressed outside [0, 1]
};

struct BakeMesh {
  std::vector<glm::vec3> positions;              // bind pose, model space
  std::vector<glm::vec3> normals;                // unit length, one per vertex
  std::vector<glm::vec2> uvs;                    // one per vertex (may be empty before unwrapping)
  std::vector<glm::u16vec4> joints;              // renderer skeleton joints, one set per vertex
  std::vector<glm::vec4> weights;                // sum 1, one set per vertex
  std::vector<std::uint32_t> indices;            // 3 per triangle
  std::vector<std::uint16_t> triangle_material;  // 1 per triangle, into the material list

  std::size_t vertex_count() const { return positions.size(); }
  std::size_t triangle_count() const { return indices.size() / 3; }
};

// Morph targets over a mesh's vertices, so the VAT bakes what a clip's morph weights do (SPEC C1: the
// VAT holds every vertex's animated position, whatever moves it). Each target is weight `index` of
// glTF node `node` (a clip's MorphChannel on that node drives it); `bind_weight` is the weight the
// mesh's bind-pose positions already include, so a vertex at weights w is at
// position + sum over its offsets of (w[target] - bind_weight) * offset.
struct MorphTargetRef {
  int node = -1;
  std::uint32_t index = 0;
  float bind_weight = 0.0f;
};
struct MorphOffset {
  std::uint32_t target = 0;  // into VertexMorphs::targets
  glm::vec3 position{0.0f};
  glm::vec3 normal{0.0f};
};
struct VertexMorphs {
  std::vector<MorphTargetRef> targets;
  std::vector<std::uint32_t>
      first;  // vertex count + 1 entries: vertex v's offsets are [first[v], first[v + 1])
  std::vector<MorphOffset> offsets;

  bool empty() const { return offsets.empty(); }
  std::span<const MorphOffset> of(std::size_t v) const {
    return first.empty() ? std::span<const MorphOffset>()
                         : std::span<const MorphOffset>(offsets).subspan(first[v], first[v + 1] - first[v]);
  }
};

// Throws myriad::Error naming `what` and the inconsistent array (sizes, index or material range,
// empty mesh). Every stage validates its input, so a bad model fails at the first stage that sees it.
void validate(const BakeMesh& mesh, std::size_t material_count, const char* what);

// An LOD2 vertex follows the animated LOD0 surface: its VAT column is w.x·VAT[a] + w.y·VAT[b] +
// w.z·VAT[c] (a, b, c = the LOD0 vertices of the nearest original triangle, w = barycentric weights).
struct Attachment {
  std::uint32_t a = 0, b = 0, c = 0;
  glm::vec3 w{1.0f, 0.0f, 0.0f};
};

}  // namespace myriad::crowd
