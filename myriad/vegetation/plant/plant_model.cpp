#include "myriad/vegetation/plant/plant_model.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/plant/plant_generated.hpp"

namespace myriad::vegetation {

Aabb PlantModel::bounds() const {
  Aabb b;
  for (const PlantMesh& m : lods) b.expand(m.bounds());
  return b;
}

const PlantModel& plant_model_of(const PlantType& type) {
  return type.model ? *type.model : *generated_plant(type.kind);
}

PlantArt plant_art(std::span<const PlantType> types) {
  PlantArt art;
  for (const PlantType& t : types) {
    const PlantModel& model = plant_model_of(t);
    const std::size_t base = art.textures.size();
    if (base + model.textures.size() >= kNoPlantTexture)
      throw Error("the plant types use more than 65,534 textures", "plant type " + t.name);
    art.textures.insert(art.textures.end(), model.textures.begin(), model.textures.end());
    for (PlantMesh m : model.lods) {
      for (PlantSurface& s : m.surfaces)
        if (s.texture != kNoPlantTexture) s.texture = static_cast<std::uint16_t>(s.texture + base);
      art.meshes.push_back(std::move(m));
    }
  }
  return art;
}

}  // namespace myriad::vegetation
