#include "myriad/vegetation/plant/plant_impostor.hpp"

#include "myriad/core/image/uv_wrap.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "myriad/core/image/texture_array.hpp"
#include "myriad/core/io/error.hpp"

namespace myriad::vegetation {
namespace {

constexpr std::uint32_t kSamples = 2;  // per texel side: partly covered texels get fractional alpha

// View k looks along -toward; `right` and +Y span its image. Its window is LOD0's extent in it; `depth`
// is the middle of LOD0's extent along `toward`, where the quad stands: a plant that is not centred on
// its origin then shifts least when seen from between two views.
struct View {
  glm::vec3 right{1.0f, 0.0f, 0.0f}, toward{0.0f, 0.0f, 1.0f};
  float s0 = 0.0f, s1 = 0.0f, y0 = 0.0f, y1 = 0.0f, depth = 0.0f;
};

View make_view(const PlantMesh& m, float azimuth) {
  View v;
  // right x up = toward: seen from +toward, `right` points right and +Y up.
  v.right = glm::vec3(std::cos(azimuth), 0.0f, -std::sin(azimuth));
  v.toward = glm::vec3(std::sin(azimuth), 0.0f, std::cos(azimuth));
  v.s0 = v.y0 = std::numeric_limits<float>::max();
  v.s1 = v.y1 = std::numeric_limits<float>::lowest();
  float near = std::numeric_limits<float>::lowest(), far = std::numeric_limits<float>::max();
  for (const std::uint32_t i : m.indices) {
    const glm::vec3& p = m.positions[i];
    const float s = glm::dot(p, v.right), d = glm::dot(p, v.toward);
    v.s0 = std::min(v.s0, s), v.s1 = std::max(v.s1, s);
    v.y0 = std::min(v.y0, p.y), v.y1 = std::max(v.y1, p.y);
    far = std::min(far, d), near = std::max(near, d);
  }
  v.depth = 0.5f * (near + far);
  // A plant flat in this view (a single card seen edge-on) still gets a quad that can be sampled.
  if (v.s1 - v.s0 < 1e-3f) v.s0 -= 5e-4f, v.s1 += 5e-4f;
  if (v.y1 - v.y0 < 1e-3f) v.y0 -= 5e-4f, v.y1 += 5e-4f;
  return v;
}

// Nearest texel, addressed as the texture's sampler says (repeat, clamp, mirror), channels 0..1.
glm::vec4 texel(const PlantTexture& t, glm::vec2 uv) {
  uv = wrap_uv(uv, t.wrap, glm::vec2(static_cast<float>(t.width), static_cast<float>(t.height)));
  const auto wrap = [](float c, std::uint32_t n) {
    if (!std::isfinite(c)) return std::size_t(0);  // a file's UV may be anything
    const auto i = static_cast<std::uint32_t>((c - std::floor(c)) * float(n));
    return std::size_t(std::min(i, n - 1));
  };
  const std::uint8_t* p = &t.rgba8[(wrap(uv.y, t.height) * t.width + wrap(uv.x, t.width)) * 4];
  return glm::vec4(p[0], p[1], p[2], p[3]) * (1.0f / 255.0f);
}

struct Sample {
  float depth = std::numeric_limits<float>::lowest();  // dot(p, toward): larger is nearer the viewer
  glm::vec3 color{0.0f};
};

// Depth-tested samples of `m` in view `v` on an n x n grid (row 0 at the top), both faces of every
// triangle (cards are seen from both sides), each fragment alpha-tested as veg_plant.frag does it.
std::vector<Sample> rasterize(const PlantMesh& m, std::span<const PlantTexture> textures, const View& v,
                              std::uint32_t n) {
  std::vector<Sample> grid(std::size_t(n) * n);
  const float sx = float(n) / (v.s1 - v.s0), sy = float(n) / (v.y1 - v.y0);
  const auto project = [&](const glm::vec3& p) {
    return glm::vec2((glm::dot(p, v.right) - v.s0) * sx, (v.y1 - p.y) * sy);
  };
  const auto edge = [](glm::vec2 a, glm::vec2 b, glm::vec2 c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  };
  std::array<std::uint32_t, 3> previous{};
  for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const std::uint32_t i0 = m.indices[t], i1 = m.indices[t + 1], i2 = m.indices[t + 2];
    // The back of a double-sided card (the same corners wound the other way) adds nothing.
    std::array<std::uint32_t, 3> corners{i0, i1, i2};
    std::sort(corners.begin(), corners.end());
    if (t > 0 && corners == previous) continue;
    previous = corners;
    const glm::vec2 a = project(m.positions[i0]), b = project(m.positions[i1]), c = project(m.positions[i2]);
    const float area = edge(a, b, c);
    // Corners far enough apart to overflow the projection give no sample (and no NaN pixel bounds).
    if (!(std::abs(area) >= 1e-9f) || !std::isfinite(area)) continue;
    // The surface is flat over a triangle: the shader takes its first vertex's.
    const PlantSurface surface = m.surfaces.empty() ? PlantSurface{} : m.surfaces[i0];
    const PlantTexture* image = surface.texture == kNoPlantTexture ? nullptr : &textures[surface.texture];
    const glm::vec3 base = glm::vec3(surface.color) / 255.0f;
    const float depth[3] = {glm::dot(m.positions[i0], v.toward), glm::dot(m.positions[i1], v.toward),
                            glm::dot(m.positions[i2], v.toward)};
    const bool has_uv = !m.uvs.empty();
    // The pixel range, inside the grid whatever the corners (a triangle beside the grid gives none).
    const glm::vec2 lo = glm::clamp(glm::min(glm::min(a, b), c), glm::vec2(0.0f), glm::vec2(float(n)));
    const glm::vec2 hi = glm::clamp(glm::max(glm::max(a, b), c), glm::vec2(0.0f), glm::vec2(float(n)));
    // Barycentrics as planes in the sample position: w = k.x * x + k.y * y + k.z.
    const auto plane = [&](glm::vec2 p, glm::vec2 r) {
      const float inv = 1.0f / area;
      return glm::vec3(-(r.y - p.y) * inv, (r.x - p.x) * inv, ((r.y - p.y) * p.x - (r.x - p.x) * p.y) * inv);
    };
    const glm::vec3 k0 = plane(b, c), k1 = plane(c, a);
    for (auto y = std::uint32_t(lo.y); y < std::uint32_t(std::ceil(hi.y)); ++y)
      for (auto x = std::uint32_t(lo.x); x < std::uint32_t(std::ceil(hi.x)); ++x) {
        const float qx = float(x) + 0.5f, qy = float(y) + 0.5f;
        const float w0 = k0.x * qx + k0.y * qy + k0.z, w1 = k1.x * qx + k1.y * qy + k1.z, w2 = 1.0f - w0 - w1;
        if (w0 < 0.0f || w1 < 0.0f || w2 < 0.0f) continue;
        Sample& s = grid[std::size_t(y) * n + x];
        const float d = w0 * depth[0] + w1 * depth[1] + w2 * depth[2];
        if (d <= s.depth) continue;
        glm::vec3 color = base;
        if (image) {
          const glm::vec2 uv = has_uv ? w0 * m.uvs[i0] + w1 * m.uvs[i1] + w2 * m.uvs[i2] : glm::vec2(0.0f);
          const glm::vec4 tex = texel(*image, uv);
          if (tex.a < float(surface.alpha_cutoff) / 255.0f) continue;
          color *= glm::vec3(tex);
        }
        s = {d, color};
      }
  }
  return grid;
}

PlantTexture resolve(const std::vector<Sample>& grid, std::uint32_t size, std::string name) {
  const auto covered = [](const Sample& s) { return s.depth > std::numeric_limits<float>::lowest(); };
  glm::dvec3 sum(0.0);
  std::size_t hits = 0;
  for (const Sample& s : grid)
    if (covered(s)) sum += glm::dvec3(s.color), ++hits;
  // Uncovered texels take the view's mean colour, so filtering at the silhouette does not darken it.
  const glm::vec3 mean = hits ? glm::vec3(sum / double(hits)) : glm::vec3(0.0f);
  const auto byte = [](float f) { return std::uint8_t(std::lround(std::clamp(f, 0.0f, 1.0f) * 255.0f)); };
  PlantTexture out{std::move(name), size, size, {}};
  out.rgba8.reserve(std::size_t(size) * size * 4);
  const std::uint32_t n = size * kSamples;
  for (std::uint32_t y = 0; y < size; ++y)
    for (std::uint32_t x = 0; x < size; ++x) {
      glm::vec3 color(0.0f);
      std::uint32_t count = 0;
      for (std::uint32_t dy = 0; dy < kSamples; ++dy)
        for (std::uint32_t dx = 0; dx < kSamples; ++dx) {
          const Sample& s = grid[std::size_t(y * kSamples + dy) * n + x * kSamples + dx];
          if (covered(s)) color += s.color, ++count;
        }
      color = count ? color / float(count) : mean;
      out.rgba8.insert(out.rgba8.end(), {byte(color.r), byte(color.g), byte(color.b),
                                         byte(float(count) / float(kSamples * kSamples))});
    }
  return out;
}

}  // namespace

Impostor bake_impostor(const PlantMesh& lod0, std::span<const PlantTexture> textures,
                       std::uint16_t first_texture, const ImpostorOptions& o) {
  if (lod0.indices.empty()) throw Error("LOD0 has no triangles to make an impostor of", o.name);
  if (o.views == 0 || o.size == 0 || o.size > 4096)
    throw Error("an impostor needs 1 or more views of 1 to 4096 texels", o.name);
  if (std::size_t(first_texture) + o.views >= kNoPlantTexture)
    throw Error("the impostor's views would pass 65,534 textures", o.name);
  const std::size_t n = lod0.positions.size();
  if ((!lod0.surfaces.empty() && lod0.surfaces.size() != n) || (!lod0.uvs.empty() && lod0.uvs.size() != n) ||
      std::any_of(lod0.indices.begin(), lod0.indices.end(), [&](std::uint32_t i) { return i >= n; }))
    throw Error("LOD0's indices, surfaces or uvs do not match its vertices", o.name);
  for (const PlantSurface& s : lod0.surfaces)
    if (s.texture != kNoPlantTexture && s.texture >= textures.size())
      throw Error(
          "LOD0 names texture " + std::to_string(s.texture) + " of " + std::to_string(textures.size()),
          o.name);
  Impostor out;
  PlantMesh& m = out.mesh;
  for (std::uint32_t k = 0; k < o.views; ++k) {
    const View v = make_view(lod0, std::numbers::pi_v<float> * float(k) / float(o.views));
    out.textures.push_back(resolve(rasterize(lod0, textures, v, o.size * kSamples), o.size,
                                   o.name + " impostor " + std::to_string(k)));
    // Normals lean outwards from the plant's axis and more upwards towards the top: a flat quad then
    // shades like a rounded crown (lit on the sun's side, from both faces alike) instead of one flat tone.
    const float half = std::max({std::abs(v.s0), std::abs(v.s1), 1e-3f});
    const PlantSurface surface{{255, 255, 255}, kCoverageCutoff, std::uint16_t(first_texture + k)};
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    const glm::vec2 corners[4] = {{v.s0, v.y0}, {v.s1, v.y0}, {v.s1, v.y1}, {v.s0, v.y1}};
    for (const glm::vec2 c : corners) {
      const float height = (c.y - v.y0) / (v.y1 - v.y0);
      m.positions.push_back(v.right * c.x + glm::vec3(0.0f, c.y, 0.0f) + v.toward * v.depth);
      m.normals.push_back(
          glm::normalize(v.right * (c.x / half) + glm::vec3(0.0f, 0.4f + 0.6f * height, 0.0f)));
      m.uvs.emplace_back((c.x - v.s0) / (v.s1 - v.s0), (v.y1 - c.y) / (v.y1 - v.y0));
      m.surfaces.push_back(surface);
    }
    m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3,    // front
                                       base, base + 2, base + 1, base, base + 3, base + 2});  // back
  }
  return out;
}

void add_impostor(PlantModel& model, const ImpostorOptions& options) {
  Impostor impostor = bake_impostor(
      model.lods[0], model.textures,
      static_cast<std::uint16_t>(std::min<std::size_t>(model.textures.size(), kNoPlantTexture)), options);
  model.lods[kPlantLodCount - 1] = std::move(impostor.mesh);
  for (PlantTexture& t : impostor.textures) model.textures.push_back(std::move(t));
}

}  // namespace myriad::vegetation
