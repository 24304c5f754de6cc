// LOD0's vertex bound (SPEC C3, "never above the input"): a re-unwrapped chart that needs more vertices
// than the same triangles with the original UV seams kept goes back to its original UVs. Both modes
// count output vertices the same way (the re-unwrap: one per chart vertex and welded vertex; the
// original mode: one per distinct welded vertex, original UV and material), so the choice below can
// promise, for every input, a total no larger than the all-original count — the bound.
#pragma once

#include "myriad/crowd_bake/uv/uv_parameterize.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::crowd {

// Per corner of the welded mesh: the id of its (welded vertex, original UV bits, material) key.
struct OriginalUvKeys {
  std::vector<std::uint32_t> key_of_corner;
  std::size_t count = 0;  // distinct keys: the LOD0 vertex bound
};

// `corner_uvs`: the original UV of every corner (3 per triangle of `welded`, same order).
OriginalUvKeys original_uv_keys(const BakeMesh& welded, std::span<const glm::vec2> corner_uvs);

struct OriginalUvChoice {
  std::vector<std::uint8_t> keep_original;  // per chart of the re-unwrap
  std::size_t vertices = 0;                 // output vertices of the mix chosen (≤ keys.count)
};

// Greedy: each chart whose triangles need fewer new keys than its re-unwrapped vertices keeps its
// original UVs; if the mix still needs more than the all-original count, every chart keeps them.
OriginalUvChoice choose_original_charts(std::span<const FlatChart> charts,
                                        std::span<const std::uint32_t> corner_vertex,
                                        const OriginalUvKeys& keys);

// The triangles in original mode as charts for the packer: islands connected through shared keys,
// each with its original UVs scaled to model units (texel density like the re-unwrapped charts; an
// island with no UV area is a point that the atlas bake still gives its colour). `local_of_key`
// returns, per key, its point index in its island's chart.
struct OriginalIslands {
  std::vector<std::vector<glm::vec2>> charts;
  std::vector<std::uint32_t> island_of_key;  // UINT32_MAX for keys no original-mode triangle uses
  std::vector<std::uint32_t> local_of_key;
};
OriginalIslands original_uv_islands(const BakeMesh& welded, std::span<const glm::vec2> corner_uvs,
                                    const OriginalUvKeys& keys, std::span<const std::uint32_t> triangles);

}  // namespace myriad::crowd
