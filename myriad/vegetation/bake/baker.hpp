// The vegetation baker: scatters plants procedurally over a heightfield from per-type density rules
// (noise, slope, altitude, spacing) or takes an instance list (CSV), cuts the world into square tiles,
// merges tiny groups into a neighbour tile, builds each group's quadtree and writes tile files.
// Deterministic per seed for any thread count. The CLI (`myriad veg bake`) wraps bake_to_directory().
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "myriad/vegetation/bake/ground.hpp"
#include "myriad/vegetation/plant/plant_mesh.hpp"
#include "myriad/vegetation/plant/plant_model.hpp"
#include "myriad/vegetation/bake/quadtree.hpp"
#include "myriad/vegetation/bake/tile_format.hpp"

namespace myriad::vegetation {

// Procedural terrain: a few octaves of value noise (0 .. amplitude, plus `base`), with areas levelled
// into it (pads: plazas, the footprint of a block standing on the ground). Heights in metres.
struct Heightfield {
  std::uint64_t seed = 1;
  float amplitude = 150.0f;
  float wavelength = 1500.0f;  // of the lowest octave, metres
  float base = 0.0f;
  std::vector<GroundPad> pads;  // applied in order (ground.hpp)
  float height(double x, double z) const;
  // Text that changes whenever the heights do (caches of baked fields key on it).
  std::string signature() const;
  // Gradient magnitude (rise over run) from central differences 1 m apart.
  float slope(double x, double z) const;
};

struct PlantType {
  std::string name;
  PlantKind kind = PlantKind::kGrass;
  float spacing = 3.0f;  // one candidate per spacing x spacing cell; neighbours >= spacing / 2 apart
  float density = 1.0f;  // acceptance probability before the noise/slope/altitude rules
  float noise_wavelength = 300.0f;
  float noise_threshold = 0.35f;  // cover where the type's noise (0..1) exceeds this
  float min_altitude = -1e9f, max_altitude = 1e9f;
  float max_slope = 1.0f;  // rise over run
  float scale_min = 0.8f, scale_max = 1.2f;
  std::array<std::uint8_t, 3> tint{255, 255, 255};
  std::uint8_t tint_jitter = 20;                      // +- per channel
  std::array<float, kPlantLodCount> lod_distances{};  // increasing; the last is the draw distance
  std::shared_ptr<const PlantModel> model;            // imported art; null = the generated `kind`
};

// Gives the type named `name` an imported model (tinted near white: its textures carry the colour). A name
// that is not among `types` adds a type that scatters like the generated kind closest in height to the
// model. Returns the type's index.
std::size_t set_plant_model(std::vector<PlantType>& types, const std::string& name,
                            std::shared_ptr<const PlantModel> model);

// Tree, bush and grass with sensible spacing and LOD distances.
std::vector<PlantType> default_plant_types();

// An XZ rectangle the procedural scatter leaves bare (a building site, a plaza, a battlefield), but for
// the types it spares (bit i: BakeOptions::types[i] still grows inside, e.g. grass on a battlefield).
struct Clearing {
  glm::dvec2 min{0.0}, max{0.0};
  std::uint32_t spared_types = 0;
  bool contains(double x, double z) const { return x >= min.x && x < max.x && z >= min.y && z < max.y; }
  bool clears(std::size_t type, double x, double z) const {
    return contains(x, z) && (type >= 32 || ((spared_types >> type) & 1u) == 0);
  }
};

// Tile keys are 32-bit and positions single precision relative to a tile: tiles of at least a metre,
// worlds within 1,000 km of the origin and edges of at most 100 km keep both far inside their range.
inline constexpr float kMinBakeTileSize = 1.0f;
inline constexpr double kMaxBakeCoordinate = 1.0e6, kMaxBakeEdge = 1.0e5;

struct BakeOptions {
  std::uint64_t seed = 1;
  float tile_size = 200.0f;        // metres, [kMinBakeTileSize, kMaxBakeEdge]
  glm::dvec2 world_min{0.0, 0.0};  // XZ extent scattered by the procedural baker (see the limits above)
  glm::dvec2 world_max{1000.0, 1000.0};
  Heightfield terrain;
  std::vector<PlantType> types = default_plant_types();
  QuadtreeOptions tree;
  // A tile's group with fewer instances than this joins the same type's group of a 4-neighbour tile
  // (the largest one) when one exists; 0 disables merging.
  std::uint32_t merge_below = 8;
  std::vector<Clearing> clearings;  // procedural scatter only: no plant inside these

  // Throws myriad::Error naming the first invalid field, the plant type or the tree option (the bake
  // functions call it).
  void validate() const;
};

// An instance in world coordinates (CSV input); `type` indexes BakeOptions::types.
struct WorldInstance {
  std::uint32_t type = 0;
  glm::dvec3 position{0.0};
  float yaw = 0.0f;  // radians
  float scale = 1.0f;
  std::array<std::uint8_t, 3> tint{255, 255, 255};
};

// Reads "type,x,y,z,yaw,scale,r,g,b" lines (type: a name from `types` or an index; yaw in degrees;
// r,g,b 0..255; '#' comments, blank lines and a header line starting with "type" are skipped).
// Errors name the file, line and column.
std::vector<WorldInstance> read_instance_csv(const std::filesystem::path& path,
                                             std::span<const PlantType> types);
// The same from the file's text in memory; `source` (usually the file name) starts every error's place.
std::vector<WorldInstance> parse_instance_csv(std::string_view text, std::span<const PlantType> types,
                                              const std::string& source);

// Prefab table of the types: type_id = index, mesh_id = index * kPlantLodCount + lod, material = index.
std::vector<Prefab> make_prefabs(std::span<const PlantType> types);

// Called on the calling thread between batches of tiles: (tiles done, tiles total).
using BakeProgress = std::function<void(std::size_t, std::size_t)>;

// In memory, sorted by (z, x). `instances` null = procedural scatter, else the given instance list.
std::vector<Tile> bake_tiles(const BakeOptions& options,
                             const std::vector<WorldInstance>* instances = nullptr,
                             const BakeProgress& progress = {});

struct BakeSummary {
  std::size_t tiles = 0;
  std::size_t instances = 0;
  std::size_t bytes = 0;        // total tile file bytes written
  std::size_t plant_files = 0;  // imported models written beside the tiles
};

// Bakes and writes tile_<x>_<z>.mveg files into `dir` (created if needed), each written atomically,
// and the types' imported models (write_baked_plants, plant_gltf_write.hpp).
BakeSummary bake_to_directory(const BakeOptions& options, const std::filesystem::path& dir,
                              const std::vector<WorldInstance>* instances = nullptr,
                              const BakeProgress& progress = {});

}  // namespace myriad::vegetation
