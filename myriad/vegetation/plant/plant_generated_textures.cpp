// Shapes are painted with anti-aliased edges (coverage from the distance to the shape's edge), so the
// texture array's coverage-keeping mip chain starts from smooth alpha, not from stair steps.
#include "myriad/vegetation/plant/plant_generated_textures.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "myriad/core/math/noise.hpp"

namespace myriad::vegetation {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// Deterministic uniform numbers: the n-th draw of a stream is a hash of (seed, n).
struct Random {
  std::uint64_t seed;
  std::uint64_t n = 0;
  float unit() { return hash_unit(mix64(seed * 0x100000001B3ull + n++)); }
  float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
};

// A square RGBA image in straight (not premultiplied) alpha; coordinates in texture units (0..1).
class Canvas {
 public:
  explicit Canvas(std::uint32_t size) : size_(size), texels_(std::size_t(size) * size, glm::vec4(0.0f)) {}

  std::uint32_t size() const { return size_; }
  glm::vec4& at(std::uint32_t x, std::uint32_t y) { return texels_[std::size_t(y) * size_ + x]; }

  // Paints `color` over texel (x, y) with coverage `a` (the "over" operator).
  void over(int x, int y, glm::vec3 color, float a) {
    if (x < 0 || y < 0 || x >= int(size_) || y >= int(size_) || a <= 0.0f) return;
    glm::vec4& d = at(std::uint32_t(x), std::uint32_t(y));
    const float out = a + d.a * (1.0f - a);
    d = glm::vec4((color * a + glm::vec3(d) * d.a * (1.0f - a)) / out, out);
  }

  // A stroke from a to b whose radius and colour go from (ra, ca) to (rb, cb): needles, twigs, blades.
  void stroke(glm::vec2 a, glm::vec2 b, float ra, float rb, glm::vec3 ca, glm::vec3 cb) {
    const float s = float(size_);
    const glm::vec2 pa = a * s, pb = b * s, ab = pb - pa;
    const float len2 = std::max(glm::dot(ab, ab), 1e-6f), r = std::max(ra, rb) * s + 1.0f;
    const glm::ivec2 lo(glm::floor(glm::min(pa, pb) - r)), hi(glm::ceil(glm::max(pa, pb) + r));
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        const glm::vec2 p(float(x) + 0.5f, float(y) + 0.5f);
        const float t = std::clamp(glm::dot(p - pa, ab) / len2, 0.0f, 1.0f);
        const float radius = (ra + (rb - ra) * t) * s;
        const float cover = std::clamp(radius - glm::length(p - (pa + ab * t)) + 0.5f, 0.0f, 1.0f);
        over(x, y, glm::mix(ca, cb, t), cover);
      }
  }

  // A pointed leaf from `base` along unit `dir`: half-width (width / 2) * sin(pi s)^0.7 at s in [0, 1],
  // lighter towards its tip, with a pale midrib.
  void leaf(glm::vec2 base, glm::vec2 dir, float length, float width, glm::vec3 color) {
    const float s = float(size_);
    const glm::vec2 side(-dir.y, dir.x);
    const glm::vec2 tip = base + dir * length, c = (base + tip) * 0.5f * s;
    const float r = length * 0.5f * s + 2.0f;
    for (int y = int(c.y - r); y <= int(c.y + r); ++y)
      for (int x = int(c.x - r); x <= int(c.x + r); ++x) {
        const glm::vec2 p = (glm::vec2(float(x), float(y)) + 0.5f) / s - base;
        const float along = glm::dot(p, dir) / length, across = std::abs(glm::dot(p, side));
        if (along <= 0.0f || along >= 1.0f) continue;
        const float half = 0.5f * width * std::pow(std::sin(kPi * along), 0.7f);
        const float cover = std::clamp((half - across) * s + 0.5f, 0.0f, 1.0f);
        const float edge = half > 0.0f ? across / half : 1.0f;
        glm::vec3 shade = color * (0.8f + 0.3f * along) * (1.0f - 0.2f * edge * edge);
        if (across * s < 0.6f && along < 0.9f) shade = glm::mix(shade, glm::vec3(0.62f, 0.74f, 0.40f), 0.5f);
        over(x, y, shade, cover);
      }
  }

  // Bytes; transparent texels take the mean colour of the opaque ones, so filtering at the edge of a
  // shape (bilinear, mip levels) blends towards the shape's own colour instead of black.
  PlantTexture finish(std::string name) const {
    glm::dvec3 sum(0.0);
    double weight = 0.0;
    for (const glm::vec4& t : texels_) {
      sum += glm::dvec3(glm::vec3(t)) * double(t.a);
      weight += double(t.a);
    }
    const glm::vec3 mean = weight > 0.0 ? glm::vec3(sum / weight) : glm::vec3(0.0f);
    PlantTexture out{std::move(name), size_, size_, {}};
    out.rgba8.reserve(texels_.size() * 4);
    const auto byte = [](float v) { return std::uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
    for (const glm::vec4& t : texels_) {
      const glm::vec3 c = glm::mix(mean, glm::vec3(t), std::min(1.0f, t.a * 4.0f));
      out.rgba8.insert(out.rgba8.end(), {byte(c.r), byte(c.g), byte(c.b), byte(t.a)});
    }
    return out;
  }

 private:
  std::uint32_t size_;
  std::vector<glm::vec4> texels_;
};

// Value noise in [0, 1) that repeats every `period` lattice cells along each axis (so a texture tiles).
float tiled_noise(std::uint64_t seed, double x, double y, std::int64_t px, std::int64_t py) {
  return value_noise2(x, y, NoiseFade::kCubic, [&](std::int64_t i, std::int64_t j) {
    const std::uint64_t wi = std::uint64_t(((i % px) + px) % px), wj = std::uint64_t(((j % py) + py) % py);
    return hash_unit(mix64(seed ^ (wi << 32 | wj)));
  });
}

// Needles either side of the twig from a to b, pointing forward (towards b) like a fir's.
void needles(Canvas& c, Random& rnd, glm::vec2 a, glm::vec2 b, float length, glm::vec3 color) {
  const glm::vec2 dir = glm::normalize(b - a), side(-dir.y, dir.x);
  const float span = glm::length(b - a);
  const int count = std::max(2, int(span / 0.017f));
  for (int i = 0; i < count; ++i) {
    const float t = (float(i) + rnd.range(0.2f, 0.8f)) / float(count);
    const glm::vec2 at = a + (b - a) * t;
    for (const float s : {-1.0f, 1.0f}) {
      const float l = length * (1.0f - 0.45f * t) * rnd.range(0.8f, 1.15f);
      const glm::vec2 to = glm::normalize(side * s + dir * rnd.range(0.5f, 0.9f));
      const glm::vec3 shade = color * rnd.range(0.8f, 1.15f);
      c.stroke(at, at + to * l, 0.01f, 0.005f, shade * 0.8f, shade);
    }
  }
}

}  // namespace

PlantTexture make_bark_texture() {
  constexpr std::uint32_t kSize = 64;
  Canvas c(kSize);
  const glm::vec3 furrow(0.24f, 0.18f, 0.13f), ridge(0.52f, 0.41f, 0.30f);
  for (std::uint32_t y = 0; y < kSize; ++y)
    for (std::uint32_t x = 0; x < kSize; ++x) {
      const double u = (double(x) + 0.5) / kSize, v = (double(y) + 0.5) / kSize;
      // Ridges run up the trunk: 16 noise cells around, 3 along, then a finer grain on top.
      const float ridges = tiled_noise(11, u * 16.0, v * 3.0, 16, 3);
      const float grain = tiled_noise(12, u * 32.0, v * 16.0, 32, 16);
      const float k = std::clamp((ridges - 0.3f) * 2.5f, 0.0f, 1.0f);
      c.at(x, y) = glm::vec4(glm::mix(furrow, ridge, k) * (0.85f + 0.3f * grain), 1.0f);
    }
  return c.finish("generated bark");
}

PlantTexture make_needle_texture() {
  Canvas c(128);
  Random rnd{21};
  const glm::vec3 twig(0.33f, 0.25f, 0.16f), needle(0.14f, 0.29f, 0.14f), fresh(0.24f, 0.40f, 0.17f);
  const glm::vec2 base(0.5f, 0.02f), tip(0.5f, 0.97f);
  // Side twigs alternate left and right; the longest sit a third of the way out, so the spray is widest
  // there and tapers to the tip, like a fir branch.
  constexpr int kSideTwigs = 13;
  for (int k = 0; k < kSideTwigs; ++k) {
    const float v = 0.05f + 0.068f * float(k);
    const float reach = 0.42f * std::pow(1.0f - v, 0.5f) * std::min(1.0f, 0.5f + 2.2f * v);
    const float s = k % 2 ? 1.0f : -1.0f;
    const glm::vec2 from(0.5f, v), to(std::clamp(0.5f + s * reach * 0.82f, 0.05f, 0.95f), v + reach * 0.55f);
    c.stroke(from, to, 0.007f, 0.003f, twig, twig);
    needles(c, rnd, from, to, 0.07f, glm::mix(needle, fresh, v * v));
  }
  c.stroke(base, tip, 0.011f, 0.005f, twig, twig);
  needles(c, rnd, base, tip, 0.075f, needle);
  return c.finish("generated needles");
}

PlantTexture make_leaf_texture() {
  Canvas c(128);
  Random rnd{31};
  const glm::vec3 greens[3] = {{0.28f, 0.48f, 0.18f}, {0.36f, 0.52f, 0.19f}, {0.22f, 0.42f, 0.17f}};
  constexpr int kLeaves = 22;
  for (int k = 0; k < kLeaves; ++k) {
    // Bases on a golden-angle spiral about the centre, leaves pointing outwards: a rosette clump.
    const float a = 2.39996323f * float(k), r = 0.3f * std::sqrt((float(k) + 0.5f) / float(kLeaves));
    const glm::vec2 out(std::cos(a), std::sin(a));
    const glm::vec2 base = glm::vec2(0.5f) + out * r;
    const float turn = rnd.range(-0.6f, 0.6f);
    const glm::vec2 dir(out.x * std::cos(turn) - out.y * std::sin(turn),
                        out.x * std::sin(turn) + out.y * std::cos(turn));
    const float length = std::min(rnd.range(0.17f, 0.24f), 0.47f - r);
    c.stroke(glm::vec2(0.5f) + out * r * 0.5f, base, 0.004f, 0.003f, {0.30f, 0.30f, 0.15f},
             {0.30f, 0.36f, 0.15f});
    c.leaf(base, dir, length, length * rnd.range(0.42f, 0.55f), greens[k % 3] * rnd.range(0.9f, 1.1f));
  }
  return c.finish("generated leaves");
}

PlantTexture make_grass_texture() {
  Canvas c(128);
  Random rnd{41};
  constexpr int kBlades = 11;
  const glm::vec3 root(0.30f, 0.38f, 0.12f), tip(0.64f, 0.70f, 0.30f);
  for (int k = 0; k < kBlades; ++k) {
    const float x0 = 0.12f + 0.76f * (float(k) + rnd.range(0.2f, 0.8f)) / float(kBlades);
    const float height = rnd.range(0.6f, 0.96f);
    const float lean = std::clamp(rnd.range(-0.2f, 0.2f), 0.04f - x0, 0.96f - x0);
    const glm::vec3 shade = rnd.range(0.85f, 1.1f) * glm::vec3(1.0f, 1.0f, rnd.range(0.8f, 1.2f));
    // A quadratic curve (the lean grows towards the tip) drawn as a chain of tapered strokes.
    constexpr int kSegments = 10;
    for (int s = 0; s < kSegments; ++s) {
      const float t0 = float(s) / kSegments, t1 = float(s + 1) / kSegments;
      const auto at = [&](float t) { return glm::vec2(x0 + lean * t * t, 1.02f - height * t); };
      const auto radius = [](float t) { return 0.026f * (1.0f - t) + 0.002f; };
      c.stroke(at(t0), at(t1), radius(t0), radius(t1), glm::mix(root, tip, t0) * shade,
               glm::mix(root, tip, t1) * shade);
    }
  }
  return c.finish("generated grass");
}

}  // namespace myriad::vegetation
