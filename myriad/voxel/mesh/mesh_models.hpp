// The mesher's baked-model stage (voxel/model): which faces of the models in a padded block are drawn, and
// their vertices: plain quads whose vertices carry the cell's light and the part's tile (the article's
// fast path beside the atlas), so the terrain shader draws them with the rest of the section.
#pragma once

#include <span>
#include <vector>

#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/mesh/padded.hpp"

namespace myriad::voxel {

// The visible faces of every model cell among the block's inner cells, in cell order (out is cleared).
// A fence connects where model_connects says; a face on a cell side is dropped when the neighbour's side
// there is full.
void collect_model_faces(const PaddedBlock& block, std::vector<ModelFaceRef>& out);

// Writes 4 vertices and 6 indices per face; the first vertex has index `base`. Light: the model cell's
// own levels, darkened as a quarter-occluded corner (AO level 8 of 12) at the floor of a cell standing on
// a full top side. Texture: the part material's tile for the face's side, no variation, no transitions.
void write_model_faces(const PaddedBlock& block, std::span<const ModelFaceRef> faces, std::uint32_t base,
                       TerrainVertex* vertices, std::uint32_t* indices);

}  // namespace myriad::voxel
