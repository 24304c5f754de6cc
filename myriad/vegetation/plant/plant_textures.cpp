#include "myriad/vegetation/plant/plant_textures.hpp"

#include <vector>

namespace myriad::vegetation {

PlantTextureArray make_texture_array(std::span<const PlantTexture> textures, std::uint32_t max_size) {
  std::vector<TextureSource> sources;
  sources.reserve(textures.size());
  for (const PlantTexture& t : textures) sources.push_back({t.name, t.width, t.height, t.rgba8});
  return myriad::make_texture_array(sources, max_size);
}

}  // namespace myriad::vegetation
