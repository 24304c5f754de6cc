#include "myriad/vegetation/bake/ground_material.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/core/math/math.hpp"
#include "myriad/core/math/noise.hpp"

namespace myriad::vegetation {
namespace {

void check(float v, float lo, float hi, const char* field) {
  if (!std::isfinite(v) || v < lo || v > hi)
    throw Error("must be a finite number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                std::string("GroundMaterial::") + field);
}

// Value noise that repeats every `period` lattice cells (the texture's edges meet): corners are hashed
// from their coordinates modulo the period.
float tiled_noise(double x, double y, std::int64_t period, std::uint64_t seed) {
  return value_noise2(x, y, NoiseFade::kQuintic, [&](std::int64_t i, std::int64_t j) {
    const std::uint64_t a = std::uint64_t(((i % period) + period) % period);
    const std::uint64_t b = std::uint64_t(((j % period) + period) % period);
    return hash_unit(mix64(seed ^ mix64(a * 0x9E3779B1u + b)));
  });
}

// Fractal tiled noise over the texture: u, v in [0, 1), `cells` lattice cells across at octave 0.
float tiled_fbm(float u, float v, int cells, int octaves, std::uint64_t seed) {
  return fbm(octaves, 1.0f, [&](int o, double frequency) {
    const auto period = std::int64_t(double(cells) * frequency);
    return tiled_noise(double(u) * double(period), double(v) * double(period), period,
                       seed + std::uint64_t(o));
  });
}

// A texel's own random value (grain, sparkle): no lattice, so it tiles by construction.
float texel_hash(std::uint32_t x, std::uint32_t y, std::uint64_t seed) {
  return hash_unit(mix64(seed ^ (std::uint64_t(x) << 32 | y)));
}

glm::vec3 mix3(glm::vec3 a, glm::vec3 b, float t) { return a + (b - a) * std::clamp(t, 0.0f, 1.0f); }

// sRGB colours of each layer at texel (x, y) with texture coordinates (u, v).
glm::vec3 grass(float u, float v, std::uint32_t x, std::uint32_t y) {
  const float clumps = tiled_fbm(u, v, 4, 4, 11);
  // Blades: noise stretched along v, so the fine detail reads as strokes.
  const float blades = tiled_noise(double(u) * 64.0, double(v) * 16.0, 64, 12) * 0.6f +
                       tiled_noise(double(u) * 64.0, double(v) * 16.0 + 0.5, 64, 13) * 0.4f;
  glm::vec3 c = mix3({0.20f, 0.27f, 0.11f}, {0.35f, 0.42f, 0.17f}, clumps * 1.2f - 0.1f);
  c *= 0.72f + 0.5f * blades;
  if (texel_hash(x, y, 14) > 0.985f) c = mix3(c, {0.62f, 0.62f, 0.30f}, 0.6f);  // dry tips
  return c;
}

glm::vec3 dirt(float u, float v, std::uint32_t x, std::uint32_t y) {
  const float soil = tiled_fbm(u, v, 5, 5, 21);
  glm::vec3 c = mix3({0.29f, 0.24f, 0.18f}, {0.44f, 0.37f, 0.28f}, soil * 1.3f - 0.15f);
  const float pebbles = tiled_noise(double(u) * 24.0, double(v) * 24.0, 24, 22);
  if (pebbles > 0.78f) c = mix3(c, {0.58f, 0.54f, 0.48f}, (pebbles - 0.78f) * 6.0f);
  return c * (0.9f + 0.2f * texel_hash(x, y, 23));
}

glm::vec3 rock(float u, float v, std::uint32_t x, std::uint32_t y) {
  const float body = tiled_fbm(u, v, 4, 5, 31);
  // Strata: bands along v bent by the body noise; cracks where a second noise crosses its middle.
  const float strata = 0.5f + 0.5f * std::sin((v * 6.0f + body * 1.5f) * 6.2831853f);
  const float crack = std::abs(tiled_fbm(u, v, 6, 3, 32) - 0.5f);
  glm::vec3 c = mix3({0.38f, 0.37f, 0.36f}, {0.60f, 0.58f, 0.55f}, body * 0.8f + strata * 0.3f);
  if (crack < 0.025f) c *= 0.55f + crack * 12.0f;
  return c * (0.92f + 0.16f * texel_hash(x, y, 33));
}

glm::vec3 sand(float u, float v, std::uint32_t x, std::uint32_t y) {
  const float dunes = tiled_fbm(u, v, 3, 4, 41);
  const float ripples = 0.5f + 0.5f * std::sin((u * 10.0f + dunes * 2.0f) * 6.2831853f);
  glm::vec3 c = mix3({0.70f, 0.62f, 0.45f}, {0.84f, 0.76f, 0.58f}, dunes * 0.7f + ripples * 0.3f);
  return c * (0.9f + 0.2f * texel_hash(x, y, 42));
}

}  // namespace

void GroundMaterial::validate() const {
  check(sand_below, -1e9f, 1e9f, "sand_below");
  check(sand_blend, 0.01f, 1e4f, "sand_blend");
  check(rock_slope, 0.0f, 1.0f, "rock_slope");
  check(rock_above, -1e9f, 1e9f, "rock_above");
  check(dirt_share, 0.0f, 1.0f, "dirt_share");
  check(detail_metres, 0.01f, 1e4f, "detail_metres");
  check(variation_metres, 0.01f, 1e6f, "variation_metres");
}

std::array<GroundTexture, std::size_t(GroundLayer::kCount)> make_ground_textures(std::uint32_t size) {
  if (size < 8 || (size & (size - 1)) != 0)
    throw Error("ground textures of " + std::to_string(size) + " texels", "make_ground_textures",
                "use a power of two >= 8");
  using Layer = glm::vec3 (*)(float, float, std::uint32_t, std::uint32_t);
  constexpr std::array<Layer, std::size_t(GroundLayer::kCount)> layers{grass, dirt, rock, sand};
  std::array<GroundTexture, std::size_t(GroundLayer::kCount)> out;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    GroundTexture& t = out[l];
    t.size = size;
    t.rgba8.resize(std::size_t(size) * size * 4);
    for (std::uint32_t y = 0; y < size; ++y)
      for (std::uint32_t x = 0; x < size; ++x) {
        const glm::vec3 c = layers[l](float(x) / float(size), float(y) / float(size), x, y);
        std::uint8_t* p = &t.rgba8[(std::size_t(y) * size + x) * 4];
        for (int k = 0; k < 3; ++k) p[k] = std::uint8_t(std::lround(std::clamp(c[k], 0.0f, 1.0f) * 255.0f));
        p[3] = 255;
      }
  }
  return out;
}

TextureArray make_ground_texture_array(std::uint32_t size) {
  const auto textures = make_ground_textures(size);
  constexpr std::array<const char*, std::size_t(GroundLayer::kCount)> names{"grass", "dirt", "rock", "sand"};
  std::vector<TextureSource> sources;
  for (std::size_t l = 0; l < textures.size(); ++l)
    sources.push_back({names[l], textures[l].size, textures[l].size, textures[l].rgba8});
  return make_texture_array(sources, size);
}

}  // namespace myriad::vegetation
