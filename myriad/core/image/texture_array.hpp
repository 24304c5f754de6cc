// Textures as one square array texture with a full mip chain (the GPU binds one sampler2DArray per
// system): each texture resampled (bilinear, wrapping as glTF's default sampler does) to the largest
// texture's power-of-two size (at most `max_size`), then halved level by level. Alpha-tested surfaces
// (leaves, masked cloth) would thin out with distance if alpha were only averaged (fewer texels stay
// above the cutoff at each level), so each level's alpha is scaled to keep the share of texels at or
// above the cutoff that level 0 has. Used by the plant field and by avatar kits.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace myriad {

// One RGBA8 texture, rows top to bottom, width * height * 4 bytes.
struct TextureSource {
  std::string_view name;  // for messages
  std::uint32_t width = 0, height = 0;
  std::span<const std::uint8_t> rgba8;
};

struct TextureArray {
  std::uint32_t size = 1;                         // texels per side of level 0
  std::uint32_t layers = 1;                       // one per texture (one white layer when there are none)
  std::vector<std::vector<std::uint8_t>> levels;  // RGBA8, every layer of a level in layer order
};

inline constexpr std::uint8_t kCoverageCutoff = 128;  // the alpha the mip chains keep coverage at

TextureArray make_texture_array(std::span<const TextureSource> textures, std::uint32_t max_size = 512);

// Share of texels (RGBA8, `count` of them) whose alpha is at or above `cutoff`.
double alpha_coverage(std::span<const std::uint8_t> rgba8, std::uint8_t cutoff);

}  // namespace myriad
