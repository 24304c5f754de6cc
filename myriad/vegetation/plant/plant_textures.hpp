// The field's plant textures as one array texture with a full mip chain (core/image/texture_array.hpp).
#pragma once

#include <cstdint>
#include <span>

#include "myriad/core/image/texture_array.hpp"
#include "myriad/vegetation/plant/plant_model.hpp"

namespace myriad::vegetation {

using PlantTextureArray = TextureArray;
using myriad::alpha_coverage;
using myriad::kCoverageCutoff;

PlantTextureArray make_texture_array(std::span<const PlantTexture> textures, std::uint32_t max_size = 512);

}  // namespace myriad::vegetation
