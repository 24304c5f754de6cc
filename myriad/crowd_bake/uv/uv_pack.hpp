// Packing flattened charts into one atlas (SPEC C3): each chart is turned to its smallest bounding box,
// charts are placed on shelves (tallest first) at a fixed texel density with a gutter around each, and
// the atlas is made roughly square. Charts never share a texel, so bilinear filtering and the gutter
// fill cannot bleed one chart into another.
#pragma once

#include <glm/glm.hpp>

#include <vector>

namespace myriad::crowd {

struct PackedAtlas {
  int width = 0;
  int height = 0;
  float texels_per_unit = 0.0f;  // after any reduction to fit max_size
};

// `charts` holds each chart's points in model units (UV length = 3D length); on return they are atlas
// UVs in [0,1]. The density is reduced only when the atlas would exceed `max_size` texels a side.
PackedAtlas pack_charts(std::vector<std::vector<glm::vec2>>& charts, float texels_per_unit, int padding_px,
                        int max_size);

}  // namespace myriad::crowd
