// LOD1 (SPEC C5): LOD0 simplified per piece (dominant bone × material × connected part) with
// meshoptimizer, the borders a piece shares with other pieces locked (so pieces never tear apart) while
// a piece's own open edges — a rigid part's rim, a sleeve end — stay free to simplify along themselves.
// LOD1 keeps LOD0's UVs and texture (it only drops vertices: each LOD1 vertex is an LOD0 vertex).
// Where locked borders keep the pieces above the target, a second pass simplifies each material's body
// triangles across the bone borders under the same error bound (the hole check decides whether the
// result holds). The head pieces get a
// larger budget (the article: the head's silhouette is what the eye picks out in a crowd); the other pieces'
// ratio is lowered so the whole stays near `target_ratio` (see simplify_lod1 for the exact split).
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <vector>

namespace myriad::crowd {

struct Lod1Options {
  float target_ratio = 0.52f;  // of LOD0 triangles, whole mesh, (0, 1]
  float head_ratio = 0.85f;    // of the head pieces' triangles, (0, 1]
  // meshoptimizer's target error, relative to the mesh extents. 0.05 tears CesiumMan's legs (2 % hole
  // pixels); 0.01 keeps it whole at 58 % of its triangles.
  float max_error = 0.01f;
  std::vector<std::uint16_t> head_bones;  // joints whose pieces count as the head
  // Pass 2: when the pieces end above the target (stopped at their locked borders), the body's
  // triangles of each material are simplified together across bone borders, under max_error.
  bool cross_border_pass = true;

  // Throws myriad::Error naming the first invalid field (simplify_lod1 calls it).
  void validate() const;
};

struct Lod1Piece {
  std::uint16_t bone = 0;
  std::uint16_t material = 0;
  bool head = false;
  std::size_t triangles_before = 0;
  std::size_t target = 0;  // triangles
  std::size_t triangles_after = 0;
  float error = 0.0f;                 // meshoptimizer's result error (relative)
  bool stopped_above_target = false;  // the shared borders or the error limit kept it above target
};

struct Lod1Result {
  BakeMesh mesh;                           // uvs copied from LOD0
  std::vector<std::uint32_t> lod0_vertex;  // per LOD1 vertex: the LOD0 vertex it is
  std::vector<Lod1Piece> pieces;
  std::size_t pieces_stopped_above_target = 0;
  float body_ratio = 0.0f;          // the ratio the non-head pieces were given
  float head_ratio = 0.0f;          // and the head pieces
  std::size_t pass1_triangles = 0;  // after the per-piece pass (pass 2 may lower it to mesh.triangle_count())
  float pass2_error = 0.0f;         // meshoptimizer's largest relative error in pass 2 (0: no pass 2)
};

// The dominant bone of each triangle: the joint with the largest summed weight over its corners.
std::vector<std::uint16_t> dominant_bones(const BakeMesh& mesh);

// Pieces: triangle -> piece id; triangles of one piece share dominant bone and material and are
// connected through vertices at equal positions (UV seams do not split a piece).
std::vector<std::uint32_t> piece_of_triangles(const BakeMesh& mesh, std::size_t& piece_count);

// The joints whose pieces get the head budget: the first joint named like "head" and its descendants,
// else the joint placed highest in bind pose (root space, +Y up) and its descendants.
std::vector<std::uint16_t> head_bones(const anim::ImportedModel& model);

Lod1Result simplify_lod1(const BakeMesh& lod0, const Lod1Options& options);

// A lower level made from the level above (LOD2's last resort before the level above itself): `above`
// (its vertices are LOD0 vertices, `lod0_vertex`) simplified per material towards `target_triangles`
// with meshoptimizer, no error bound and borders free — only positions two materials share are
// locked, so materials do not tear apart. The result's vertices are again LOD0 vertices.
Lod1Result simplify_further(const BakeMesh& lod0, const Lod1Result& above, std::size_t target_triangles);

// The level above itself as the lower level (vertices and triangles unchanged).
Lod1Result copy_level(const BakeMesh& lod0, const Lod1Result& above);

// LOD0 as a Lod1Result (every vertex itself): LOD1's last resort.
Lod1Result whole_lod0(const BakeMesh& lod0);

}  // namespace myriad::crowd
