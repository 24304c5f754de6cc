#include "myriad/voxel/tiles/builtin_tiles.hpp"

#include <algorithm>
#include <array>

#include "myriad/core/math/math.hpp"

namespace myriad::voxel {
namespace {

std::uint32_t hash3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t h = a * 0x8da6b343u ^ b * 0xd8163841u ^ c * 0xcb1ab31fu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h;
}

enum class Pattern : std::uint8_t { kSpeckle, kPlanks, kBricks };

struct TileStyle {
  glm::vec3 color;
  glm::vec3 accent;  // speckles; the seams of planks and the mortar of bricks
  float speckle;     // share of accent texels
  glm::vec3 top;     // side tiles with a top band (grass/snow sides); zero = none
  Pattern pattern = Pattern::kSpeckle;
};

// Planks: four boards of 4 rows, a dark seam under each and a butt joint per board. Bricks: four
// courses of 4 rows, joints offset by half a brick every other course.
bool seam(Pattern pattern, std::uint32_t x, std::uint32_t y) {
  switch (pattern) {
    case Pattern::kPlanks:
      return y % 4 == 3 || x == (y / 4 * 5 + 3) % 16;
    case Pattern::kBricks:
      return y % 4 == 3 || (x + (y / 4 % 2) * 4) % 8 == 7;
    case Pattern::kSpeckle:
      break;
  }
  return false;
}

// Index = tile id (voxel/data/material.cpp): 1 stone, 2 dirt, 3 grass top, 4 grass side, 5 sand, 6 gravel,
// 7 clay, 8 snow, 9 snow side, 10-12 lamps, 13 wood planks, 14 stone bricks.
constexpr std::array<TileStyle, kTileCount> kStyles = {{
    {{1.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f}, 0.5f, {}},  // 0: unused (magenta checker shows errors)
    {{0.50f, 0.50f, 0.52f}, {0.38f, 0.38f, 0.40f}, 0.30f, {}},
    {{0.45f, 0.32f, 0.20f}, {0.36f, 0.25f, 0.15f}, 0.25f, {}},
    {{0.30f, 0.56f, 0.22f}, {0.38f, 0.66f, 0.26f}, 0.30f, {}},
    {{0.45f, 0.32f, 0.20f}, {0.36f, 0.25f, 0.15f}, 0.25f, {0.30f, 0.56f, 0.22f}},
    {{0.86f, 0.80f, 0.56f}, {0.78f, 0.71f, 0.48f}, 0.25f, {}},
    {{0.55f, 0.52f, 0.50f}, {0.40f, 0.38f, 0.37f}, 0.45f, {}},
    {{0.62f, 0.45f, 0.38f}, {0.55f, 0.40f, 0.34f}, 0.20f, {}},
    {{0.94f, 0.95f, 0.98f}, {0.86f, 0.88f, 0.93f}, 0.20f, {}},
    {{0.45f, 0.32f, 0.20f}, {0.36f, 0.25f, 0.15f}, 0.25f, {0.94f, 0.95f, 0.98f}},
    {{1.00f, 0.85f, 0.55f}, {1.00f, 0.95f, 0.75f}, 0.35f, {}},
    {{0.65f, 0.85f, 1.00f}, {0.85f, 0.95f, 1.00f}, 0.35f, {}},
    {{1.00f, 0.35f, 0.30f}, {1.00f, 0.60f, 0.50f}, 0.35f, {}},
    {{0.56f, 0.41f, 0.25f}, {0.34f, 0.23f, 0.13f}, 0.0f, {}, Pattern::kPlanks},
    {{0.56f, 0.55f, 0.53f}, {0.33f, 0.32f, 0.31f}, 0.0f, {}, Pattern::kBricks},
    {{0.50f, 0.50f, 0.50f}, {0.45f, 0.45f, 0.45f}, 0.2f, {}},
}};

}  // namespace

TextureArray builtin_tiles() {
  constexpr std::uint32_t s = kBuiltinTileSize;
  TextureArray a;
  a.size = s;
  a.layers = kTileCount;
  std::vector<std::uint8_t>& rgba = a.levels.emplace_back(std::size_t(kTileCount) * s * s * 4);
  for (std::uint32_t t = 0; t < kTileCount; ++t) {
    const TileStyle& style = kStyles[t];
    for (std::uint32_t y = 0; y < s; ++y) {
      for (std::uint32_t x = 0; x < s; ++x) {
        const std::uint32_t h = hash3(t, x, y);
        const float n = float(h & 0xffu) / 255.0f;
        glm::vec3 c = n < style.speckle || seam(style.pattern, x, y) ? style.accent : style.color;
        c *= 0.92f + 0.16f * float((h >> 8) & 0xffu) / 255.0f;
        // Side tiles: a ragged band of the top material over the first rows (row 0 = top).
        if (style.top != glm::vec3(0.0f) && y < 3 + ((h >> 16) & 1u)) c = style.top;
        if (t == 0) c = ((x / 4 + y / 4) % 2) ? style.color : style.accent;
        const std::size_t i = ((std::size_t(t) * s + y) * s + x) * 4;
        for (int k = 0; k < 3; ++k)
          rgba[i + std::size_t(k)] = std::uint8_t(std::clamp(c[k], 0.0f, 1.0f) * 255.0f + 0.5f);
        rgba[i + 3] = 255;
      }
    }
  }
  return a;
}

}  // namespace myriad::voxel
