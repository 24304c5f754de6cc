// The ground's terrain material: four detail textures generated in code (grass, dirt, rock, sand; each
// tiles seamlessly) and the rules that blend them over the heightfield by slope, height and noise
// (shaders/ground.frag; GroundMaterialGpu is their GPU form). Generated, so the default scene needs no
// art files; deterministic, so pictures are the same on every machine.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "myriad/core/image/texture_array.hpp"

namespace myriad::vegetation {

enum class GroundLayer : std::uint32_t { kGrass = 0, kDirt, kRock, kSand, kCount };

struct GroundMaterial {
  float sand_below = -1e9f;        // metres: ground lower than this is sand (blended over sand_blend)
  float sand_blend = 1.5f;         // metres either side of sand_below
  float rock_slope = 0.30f;        // 1 - normal.y where rock begins (about 46°); full rock 0.15 steeper
  float rock_above = 1e9f;         // metres: bare rock above this height (blended over 4 m)
  float dirt_share = 0.22f;        // share of flat ground in dirt patches (0..1)
  float detail_metres = 2.5f;      // metres one detail texture repeat covers, near scale; the far scale
                                   // is 3.7 times larger and turned, so neither scale's repeat shows
  float variation_metres = 40.0f;  // size of the brightness and patch noise

  // Throws myriad::Error naming the first field that is not finite or out of range.
  void validate() const;
};

// One generated texture: `size` x `size` RGBA8 (alpha 255), rows top to bottom.
struct GroundTexture {
  std::uint32_t size = 0;
  std::vector<std::uint8_t> rgba8;
};

// The four layers in GroundLayer order, `size` texels square (a power of two >= 8), tiling seamlessly.
std::array<GroundTexture, std::size_t(GroundLayer::kCount)> make_ground_textures(std::uint32_t size = 128);

// The layers as one array texture with its mip chain (core/image/texture_array.hpp).
TextureArray make_ground_texture_array(std::uint32_t size = 128);

}  // namespace myriad::vegetation
