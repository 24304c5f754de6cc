// Fuzzes the plant import (`myriad veg bake --prefab`): arbitrary bytes, as GLB when they start with the
// GLB magic and as JSON glTF otherwise, must either import into a model whose levels are consistent (every
// index inside its level, one surface and uv per vertex, textures that exist) or fail with a
// myriad::Error; crashes, hangs and other exceptions are bugs. The seed (corpus/plant_gltf) is a small
// textured plant with two levels, a billboard and a colour-only material.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/plant/plant_gltf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool binary = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
  const auto bytes = std::as_bytes(std::span(data, size));
  try {
    const myriad::vegetation::PlantModel m =
        myriad::vegetation::import_plant_gltf_bytes(bytes, binary, "fuzz-input", "/nonexistent/myriad-fuzz");
    for (const myriad::vegetation::PlantMesh& level : m.lods) {
      if (level.indices.empty() || level.indices.size() % 3 != 0) std::abort();
      if (level.normals.size() != level.positions.size() || level.uvs.size() != level.positions.size() ||
          level.surfaces.size() != level.positions.size())
        std::abort();
      for (const std::uint32_t i : level.indices)
        if (i >= level.positions.size()) std::abort();
      for (const myriad::vegetation::PlantSurface& s : level.surfaces)
        if (s.texture != myriad::vegetation::kNoPlantTexture && s.texture >= m.textures.size()) std::abort();
    }
  } catch (const myriad::Error&) {
  }
  return 0;
}
