// A plant type's art: its LOD meshes (three geometric levels and a billboard) and the base-colour
// textures they sample, imported (plant_gltf.hpp) or generated (plant_generated.hpp) alike. plant_art()
// numbers every type's meshes the way make_prefabs() refers to them and gathers the textures of the whole
// field into one list (one array texture on the GPU).
#pragma once

#include "myriad/core/image/uv_wrap.hpp"
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "myriad/vegetation/plant/plant_mesh.hpp"

namespace myriad::vegetation {

struct PlantTexture {
  std::string name;  // the image's URI or name, for messages
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba8;  // width * height * 4, rows top to bottom
  UvWrapModes wrap;                 // how it is addressed outside [0, 1] (its glTF sampler)
};

struct PlantModel {
  std::string file;                              // where it came from (messages, `veg bake`'s report)
  std::array<PlantMesh, kPlantLodCount> lods;    // LOD0..LOD2, then the billboard
  std::array<std::string, kPlantLodCount> from;  // what made each level ("node 'Fern_LOD1'", ...)
  std::vector<PlantTexture> textures;            // PlantSurface::texture indexes these
  Aabb bounds() const;                           // of every level
};

// The meshes of every type in mesh-id order (type * kPlantLodCount + lod, as make_prefabs numbers
// them) and the textures they use, their surfaces' texture indices rebased into the one list.
struct PlantArt {
  std::vector<PlantMesh> meshes;
  std::vector<PlantTexture> textures;
};

struct PlantType;
PlantArt plant_art(std::span<const PlantType> types);

// The type's imported model, or the generated plant of its kind.
const PlantModel& plant_model_of(const PlantType& type);

}  // namespace myriad::vegetation
