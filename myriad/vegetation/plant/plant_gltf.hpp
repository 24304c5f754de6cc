// Plants from glTF 2.0 files as common exporters write them. LOD meshes are found by node-name suffix
// `_LOD0` ... `_LOD3` (case-insensitive; a node inherits its nearest suffixed ancestor's level, so a
// `Tree_LOD0` group of trunk and leaf meshes is one level) or by the MSFT_lod extension (the extended
// node is LOD0, its `ids` the coarser levels). A node suffixed `_Billboard` or `_BB`, or `_LOD3`, is the
// billboard level. Meshes outside any level belong to every geometric level; a file without levels is
// all LOD0. Missing LOD1/LOD2 are simplified from the level above (meshoptimizer), a missing billboard is
// an impostor baked from LOD0 (plant_impostor.hpp). Materials give the base-colour factor, vertex colours
// (COLOR_0) multiply it, base-colour textures are sampled with TEXCOORD_n, and alphaMode MASK (BLEND too:
// leaves are alpha-tested, not sorted) gives the alpha cutoff.
//
// Bad models fail with one line naming the file and the node: no LOD0, a primitive that is not a
// triangle list, more vertices than the primitive's index type addresses or a level may hold, an index
// out of range, a texture whose image is missing or cannot be decoded.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "myriad/vegetation/plant/plant_model.hpp"

namespace myriad::vegetation {

// A level may hold this many vertices at most (a plant is drawn a million times; more is an unreduced
// scan, and PlantSurface texture indices and the shared index buffer stay small).
inline constexpr std::size_t kMaxPlantLodVertices = std::size_t(1) << 20;

PlantModel import_plant_gltf(const std::filesystem::path& path);
// From bytes in memory (`binary` = GLB); relative URIs resolve against `base_dir`.
PlantModel import_plant_gltf_bytes(std::span<const std::byte> bytes, bool binary, const std::string& file,
                                   const std::filesystem::path& base_dir);

struct PlantType;

// Gives `types` (the bake's types before any model: default_plant_types() for the CLI's bakes) the
// models a bake wrote beside its tiles (write_baked_plants), adding the types the bake added; errors
// name the file. Returns the files read.
std::size_t load_baked_plants(const std::filesystem::path& dir, std::vector<PlantType>& types);

}  // namespace myriad::vegetation
