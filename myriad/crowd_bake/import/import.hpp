// From an imported glTF model to the baker's input: every skinned primitive merged into one BakeMesh
// (bind pose, mesh space), one BakeMaterial per model material and the model's textures. Rejects what
// the baker cannot bake with an error naming the model and the problem: no skeleton, no animation
// clip, no triangles, non-finite data, or a surface of zero area (every triangle degenerate).
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <string>
#include <vector>

namespace myriad::crowd {

struct BakeSource {
  BakeMesh mesh;
  std::vector<BakeMaterial> materials;  // at least one (a white default when the model has none)
  std::vector<anim::Texture> textures;
  // Topology diagnostics (reported, not fatal: every stage copes with them). Non-manifold edges: edges
  // (by position) shared by more than two triangles. Degenerate triangles: zero area.
  std::size_t non_manifold_edges = 0;
  std::size_t degenerate_triangles = 0;
  // Per vertex of `mesh`, the morph offsets a clip animates (empty when no clip drives a morph target),
  // and a key per vertex (empty likewise) equal for vertices with equal offsets: weld keeps vertices
  // with different keys apart, so a welded vertex moves as every vertex it merges.
  VertexMorphs morphs;
  std::vector<std::uint32_t> morph_key;
};

// `name` (usually the file) prefixes every error. Primitives without normals get area-weighted vertex
// normals; primitives without UVs get (0, 0), which samples their material's colour only. Morph targets
// that some clip's morph channel drives are gathered into `morphs`.
BakeSource import_for_bake(const anim::ImportedModel& model, const std::string& name);

}  // namespace myriad::crowd
