// Voxel materials: texture tiles per side, transition priority, lamp emission and how their tiles may
// turn. Ids index the table returned by materials(); id 0 is air. Unknown ids are rejected at the edges
// (World::set_voxel). Materials from kFirstModelMaterial on are baked models (voxel/model): the cell draws
// the model's template instead of a shape, and its form byte is the model's quarter turn about +Y (0-3).
// Those four bytes have no geometry in the shape table, so terrain culling, light and AO see the cell as
// open: neighbours draw their faces toward it and light passes through it.
#pragma once

#include <cstdint>
#include <span>

namespace myriad::voxel {

enum MaterialId : std::uint8_t {
  kAir = 0,
  kStone,
  kDirt,
  kGrass,
  kSand,
  kGravel,
  kClay,
  kSnow,
  kLampWarm,
  kLampCold,
  kLampRed,
  kWood,
  kStoneBrick,
  kFence,  // the first baked model (kFirstModelMaterial)
  kPost,
  kLamp,
  kTorch,
  kSlab,
  kStairs,
  kMaterialCount
};
inline constexpr std::uint8_t kFirstModelMaterial = kFence;

// The baked model a material draws (voxel/model/model.hpp), kNoModel for blocks.
enum ModelKind : std::uint8_t {
  kNoModel = 0,
  kModelFence,
  kModelPost,
  kModelLamp,
  kModelTorch,
  kModelSlab,
  kModelStairs,
  kModelKindCount
};

struct Material {
  const char* name;
  std::uint16_t tile_top, tile_side, tile_bottom;  // texture-atlas tiles (< 1023)
  std::uint8_t priority;                           // higher bleeds over lower in texture transitions
  std::uint8_t emit_r, emit_g, emit_b;             // lamp light, levels 0..15
  // The side tile has an up (a band of the top material, as grass and snow sides): per-cell tile
  // variation may mirror it but never turn it (mesh/tile_variation.hpp). Top and bottom tiles may always
  // turn.
  bool upright_side;
  ModelKind model;  // kNoModel for a block; a model's tiles are those of its main part
};

std::span<const Material> materials();
inline bool valid_material(std::uint8_t id) { return id < kMaterialCount; }
constexpr bool is_model_material(std::uint8_t id) { return id >= kFirstModelMaterial && id < kMaterialCount; }
// A model cell's form byte: its quarter turn.
inline constexpr std::uint8_t kModelTurnMask = 3;

// The form byte a cell of `material` keeps when given `form`: air keeps 0, a model its turn (form & 3),
// a block the form as given. Every edit path stores this, so a model cell never holds a shape byte.
constexpr std::uint8_t stored_form(std::uint8_t material, std::uint8_t form) {
  return material == kAir              ? std::uint8_t(0)
         : is_model_material(material) ? std::uint8_t(form & kModelTurnMask)
                                       : form;
}

}  // namespace myriad::voxel
