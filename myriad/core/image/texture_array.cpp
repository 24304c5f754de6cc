#include "myriad/core/image/texture_array.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "myriad/core/io/error.hpp"

#include <glm/glm.hpp>
#include <string>

namespace myriad {
namespace {

// Bilinear sample at texel-space (x, y) with wrapping; texel centres at integer + 0.5.
glm::vec4 sample_wrapped(const TextureSource& t, float x, float y) {
  const float fx = x - 0.5f, fy = y - 0.5f;
  const float x0f = std::floor(fx), y0f = std::floor(fy);
  const float ax = fx - x0f, ay = fy - y0f;
  const auto wrap = [](long v, std::uint32_t n) {
    const long m = static_cast<long>(n);
    return static_cast<std::size_t>(((v % m) + m) % m);
  };
  glm::vec4 out(0.0f);
  for (int dy = 0; dy < 2; ++dy)
    for (int dx = 0; dx < 2; ++dx) {
      const std::size_t tx = wrap(static_cast<long>(x0f) + dx, t.width);
      const std::size_t ty = wrap(static_cast<long>(y0f) + dy, t.height);
      const std::uint8_t* p = &t.rgba8[(ty * t.width + tx) * 4];
      const float w = (dx ? ax : 1.0f - ax) * (dy ? ay : 1.0f - ay);
      out += w * glm::vec4(p[0], p[1], p[2], p[3]);
    }
  return out;
}

void resample(const TextureSource& t, std::uint32_t size, std::uint8_t* out) {
  const float sx = float(t.width) / float(size), sy = float(t.height) / float(size);
  for (std::uint32_t y = 0; y < size; ++y)
    for (std::uint32_t x = 0; x < size; ++x) {
      const glm::vec4 c = sample_wrapped(t, (float(x) + 0.5f) * sx, (float(y) + 0.5f) * sy);
      for (int k = 0; k < 4; ++k)
        out[(std::size_t(y) * size + x) * 4 + std::size_t(k)] =
            static_cast<std::uint8_t>(std::clamp(std::lround(c[k]), 0L, 255L));
    }
}

// One layer's next level: 2x2 box average, then alpha scaled so the coverage at kCoverageCutoff
// matches `target` (a bisection on the scale, as alpha-tested foliage mips are usually made).
void halve(const std::uint8_t* in, std::uint32_t size, std::uint8_t* out, double target) {
  const std::uint32_t half = size / 2;
  std::vector<float> alpha(std::size_t(half) * half);
  for (std::uint32_t y = 0; y < half; ++y)
    for (std::uint32_t x = 0; x < half; ++x) {
      for (int k = 0; k < 4; ++k) {
        float sum = 0.0f;
        for (std::uint32_t dy = 0; dy < 2; ++dy)
          for (std::uint32_t dx = 0; dx < 2; ++dx)
            sum += float(in[((std::size_t(2 * y + dy)) * size + 2 * x + dx) * 4 + std::size_t(k)]);
        if (k == 3)
          alpha[std::size_t(y) * half + x] = sum * 0.25f;
        else
          out[(std::size_t(y) * half + x) * 4 + std::size_t(k)] =
              static_cast<std::uint8_t>(std::lround(sum * 0.25f));
      }
    }
  const auto coverage = [&](float scale) {
    std::size_t n = 0;
    for (const float a : alpha) n += std::min(255.0f, std::round(a * scale)) >= float(kCoverageCutoff);
    return double(n) / double(alpha.size());
  };
  float lo = 0.0f, hi = 8.0f, scale = 1.0f;
  if (target > 0.0 && target < 1.0) {
    for (int i = 0; i < 16; ++i) {
      scale = 0.5f * (lo + hi);
      (coverage(scale) < target ? lo : hi) = scale;
    }
    scale = hi;
  }
  for (std::size_t i = 0; i < alpha.size(); ++i)
    out[i * 4 + 3] = static_cast<std::uint8_t>(std::min(255.0f, std::round(alpha[i] * scale)));
}

}  // namespace

double alpha_coverage(std::span<const std::uint8_t> rgba8, std::uint8_t cutoff) {
  const std::size_t count = rgba8.size() / 4;
  if (count == 0) return 0.0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < count; ++i) n += rgba8[i * 4 + 3] >= cutoff;
  return double(n) / double(count);
}

TextureArray make_texture_array(std::span<const TextureSource> textures, std::uint32_t max_size) {
  if (max_size == 0 || !std::has_single_bit(max_size))
    throw Error("the texture size limit must be a power of two", "make_texture_array");
  TextureArray a;
  if (textures.empty()) {
    a.levels.push_back({255, 255, 255, 255});
    return a;
  }
  std::uint32_t largest = 1;
  for (const TextureSource& t : textures) {
    if (t.width == 0 || t.height == 0 || t.rgba8.size() != std::size_t(t.width) * t.height * 4)
      throw Error("texture has no pixels or the wrong number", "texture " + std::string(t.name));
    largest = std::max({largest, t.width, t.height});
  }
  a.size = std::min(max_size, std::bit_ceil(largest));
  a.layers = static_cast<std::uint32_t>(textures.size());
  const std::size_t layer_bytes = std::size_t(a.size) * a.size * 4;
  a.levels.emplace_back(layer_bytes * a.layers);
  std::vector<double> coverage(a.layers);
  for (std::uint32_t l = 0; l < a.layers; ++l) {
    std::uint8_t* layer = a.levels[0].data() + layer_bytes * l;
    resample(textures[l], a.size, layer);
    coverage[l] = alpha_coverage(std::span(layer, layer_bytes), kCoverageCutoff);
  }
  for (std::uint32_t size = a.size; size > 1; size /= 2) {
    const std::size_t in_bytes = std::size_t(size) * size * 4, out_bytes = in_bytes / 4;
    std::vector<std::uint8_t> next(out_bytes * a.layers);
    for (std::uint32_t l = 0; l < a.layers; ++l)
      halve(a.levels.back().data() + in_bytes * l, size, next.data() + out_bytes * l, coverage[l]);
    a.levels.push_back(std::move(next));
  }
  return a;
}

}  // namespace myriad
