// Writes a PlantModel as glTF 2.0 the way exporters lay plants out, so that what Myriad draws can be
// opened in other tools and plants can be written for tests and samples: one node per level named
// `<name>_LOD0`.. (or LOD0 carrying the MSFT_lod extension), an optional `<name>_Billboard` node, one
// primitive per distinct surface with its material (base colour, alpha cutoff as alphaMode MASK, the
// base-colour texture), textures as PNG. GLB embeds everything; .gltf writes the buffer and the PNGs
// beside it (<stem>.bin, <stem>_<n>.png).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "myriad/vegetation/plant/plant_model.hpp"

namespace myriad::vegetation {

struct PlantGltfWriteOptions {
  std::string name = "Plant";          // not empty: every node is named after it
  bool msft_lod = false;               // levels linked by MSFT_lod instead of node-name suffixes
  std::uint32_t geometric_levels = 3;  // LOD0 .. LOD(n-1) are written (1..3)
  bool billboard = true;               // the billboard level as <name>_Billboard

  // Throws myriad::Error naming the first invalid field (write_plant_gltf calls it).
  void validate() const;
};

// Binary (GLB) when the extension is .glb. Written atomically, file by file.
void write_plant_gltf(const std::filesystem::path& path, const PlantModel& model,
                      const PlantGltfWriteOptions& options = {});

struct PlantType;

// The imported models of a bake's types, beside its tiles: plant_<type index>_<name>.glb (GLB, levels by
// node suffix; earlier plant files in `dir` are removed first). Returns the files written.
// bake_to_directory calls it.
std::size_t write_baked_plants(const std::filesystem::path& dir, std::span<const PlantType> types);
// "plant_<index>_<name>.glb": the type's index (its prefabs' type_id) and name; nothing for other names.
std::optional<std::pair<std::size_t, std::string>> parse_baked_plant_file_name(const std::string& file);

// A tree fern: curved alpha-tested frond cards crowning a 2 m trunk, with a generated frond texture
// (RGBA, transparent between leaflets), two geometric levels: sample content for `myriad veg
// sample-plant` and the tests of the import path.
PlantModel make_sample_fern();

}  // namespace myriad::vegetation
