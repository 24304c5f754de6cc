#include "myriad/crowd_bake/texture/texture_rebake.hpp"

#include "myriad/core/image/srgb.hpp"
#include "myriad/core/image/uv_wrap.hpp"

#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace myriad::crowd {

namespace {

const anim::Texture* material_texture(const BakeMaterial& material, std::span<const anim::Texture> textures) {
  if (material.texture < 0 || static_cast<std::size_t>(material.texture) >= textures.size()) return nullptr;
  const anim::Texture& texture = textures[static_cast<std::size_t>(material.texture)];
  if (texture.width == 0 || texture.height == 0 ||
      texture.rgba8.size() < static_cast<std::size_t>(texture.width) * texture.height * 4) {
    return nullptr;
  }
  return &texture;
}

float edge(glm::vec2 a, glm::vec2 b, glm::vec2 p) {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

// Sums a triangle's model-space area and its area in texels of a width × height texture.
void add_texel_area(const BakeMesh& mesh, std::size_t t, std::uint32_t width, std::uint32_t height,
                    double& area, double& texels) {
  const std::uint32_t* f = &mesh.indices[3 * t];
  const glm::vec3 a = mesh.positions[f[0]];
  area +=
      0.5 * static_cast<double>(glm::length(glm::cross(mesh.positions[f[1]] - a, mesh.positions[f[2]] - a)));
  const glm::vec2 size(static_cast<float>(width), static_cast<float>(height));
  const glm::vec2 e1 = (mesh.uvs[f[1]] - mesh.uvs[f[0]]) * size;
  const glm::vec2 e2 = (mesh.uvs[f[2]] - mesh.uvs[f[0]]) * size;
  texels += 0.5 * std::abs(static_cast<double>(e1.x * e2.y - e1.y * e2.x));
}

float density_of(double area, double texels) {
  if (area <= 0.0 || texels <= 0.0) return 0.0f;
  return static_cast<float>(std::sqrt(texels / area));
}

}  // namespace

float texel_density(const BakeMesh& mesh, std::span<const BakeMaterial> materials,
                    std::span<const anim::Texture> textures) {
  if (mesh.uvs.size() != mesh.positions.size()) return 0.0f;
  double texels = 0.0, area = 0.0;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const std::size_t m = mesh.triangle_material[t];
    if (m >= materials.size()) continue;
    if (const anim::Texture* texture = material_texture(materials[m], textures)) {
      add_texel_area(mesh, t, texture->width, texture->height, area, texels);
    }
  }
  return density_of(area, texels);
}

float atlas_texel_density(const BakeMesh& mesh, std::uint32_t width, std::uint32_t height) {
  if (mesh.uvs.size() != mesh.positions.size()) return 0.0f;
  double texels = 0.0, area = 0.0;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    add_texel_area(mesh, t, width, height, area, texels);
  return density_of(area, texels);
}

glm::vec4 sample_texture(const anim::Texture& texture, glm::vec2 uv) {
  const int w = static_cast<int>(texture.width), h = static_cast<int>(texture.height);
  const float fx = uv.x * static_cast<float>(w) - 0.5f, fy = uv.y * static_cast<float>(h) - 0.5f;
  const float x0f = std::floor(fx), y0f = std::floor(fy);
  const float tx = fx - x0f, ty = fy - y0f;
  auto wrap = [](float v, int n) {
    const int i = static_cast<int>(std::fmod(v, static_cast<float>(n)));
    return i < 0 ? i + n : i;
  };
  const int x0 = wrap(x0f, w), y0 = wrap(y0f, h), x1 = (x0 + 1) % w, y1 = (y0 + 1) % h;
  auto texel = [&](int x, int y) {
    const std::uint8_t* p = &texture.rgba8[(static_cast<std::size_t>(y) * static_cast<std::size_t>(w) +
                                            static_cast<std::size_t>(x)) *
                                           4];
    return glm::vec4(p[0], p[1], p[2], p[3]) / 255.0f;
  };
  return glm::mix(glm::mix(texel(x0, y0), texel(x1, y0), tx), glm::mix(texel(x0, y1), texel(x1, y1), tx), ty);
}

glm::vec4 sample_base_color(const BakeMaterial& material, std::span<const anim::Texture> textures,
                            glm::vec2 uv) {
  glm::vec4 colour(1.0f);
  if (const anim::Texture* texture = material_texture(material, textures)) {
    const glm::vec2 size(static_cast<float>(texture->width), static_cast<float>(texture->height));
    const glm::vec4 s = sample_texture(*texture, wrap_uv(uv, material.wrap, size));
    colour = glm::vec4(srgb_to_linear(s.r), srgb_to_linear(s.g), srgb_to_linear(s.b), s.a);
  }
  colour *= material.base_color;
  return {linear_to_srgb(colour.r), linear_to_srgb(colour.g), linear_to_srgb(colour.b),
          std::clamp(colour.a, 0.0f, 1.0f)};
}

anim::Texture bake_atlas(const BakeMesh& mesh, int width, int height, int gutter_px,
                         const TriangleColour& colour) {
  if (width <= 0 || height <= 0 || mesh.uvs.size() != mesh.positions.size()) {
    throw Error("atlas bake: the mesh has no UVs or the atlas has no texels");
  }
  const std::size_t w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
  std::vector<glm::vec4> texels(w * h, glm::vec4(0.0f));
  std::vector<std::uint8_t> filled(w * h, 0);
  const glm::vec2 size(static_cast<float>(width), static_cast<float>(height));
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    glm::vec2 p[3];
    for (int k = 0; k < 3; ++k) p[k] = mesh.uvs[mesh.indices[3 * t + static_cast<std::uint32_t>(k)]] * size;
    const float area = edge(p[0], p[1], p[2]);
    if (std::abs(area) < 1e-12f) continue;
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min({p[0].x, p[1].x, p[2].x}))));
    const int x1 = std::min(width - 1, static_cast<int>(std::ceil(std::max({p[0].x, p[1].x, p[2].x}))));
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min({p[0].y, p[1].y, p[2].y}))));
    const int y1 = std::min(height - 1, static_cast<int>(std::ceil(std::max({p[0].y, p[1].y, p[2].y}))));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const glm::vec2 c(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
        // Barycentric weights; all of one sign (the triangle's winding in UV space) inside.
        const glm::vec3 bary(edge(p[1], p[2], c) / area, edge(p[2], p[0], c) / area,
                             edge(p[0], p[1], c) / area);
        if (bary.x < 0.0f || bary.y < 0.0f || bary.z < 0.0f) continue;
        const std::size_t i = static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x);
        texels[i] = colour(t, bary);
        filled[i] = 1;
      }
    }
  }
  // A triangle smaller than a texel may cover no texel centre; its chart would then have no texels to
  // grow a gutter from. Each such triangle writes the texel under its centre.
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    glm::vec2 centre(0.0f);
    for (std::uint32_t k = 0; k < 3; ++k) centre += mesh.uvs[mesh.indices[3 * t + k]] * size / 3.0f;
    const int x = std::clamp(static_cast<int>(std::floor(centre.x)), 0, width - 1);
    const int y = std::clamp(static_cast<int>(std::floor(centre.y)), 0, height - 1);
    const std::size_t i = static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x);
    if (filled[i]) continue;
    texels[i] = colour(t, glm::vec3(1.0f / 3.0f));
    filled[i] = 1;
  }
  // Gutter: grow every chart ring by ring from its own texels.
  std::vector<std::uint8_t> next = filled;
  for (int ring = 0; ring < gutter_px; ++ring) {
    for (std::size_t y = 0; y < h; ++y) {
      for (std::size_t x = 0; x < w; ++x) {
        const std::size_t i = y * w + x;
        if (filled[i]) continue;
        glm::vec4 sum(0.0f);
        int count = 0;
        for (std::size_t ny = y > 0 ? y - 1 : 0; ny <= std::min(h - 1, y + 1); ++ny) {
          for (std::size_t nx = x > 0 ? x - 1 : 0; nx <= std::min(w - 1, x + 1); ++nx) {
            if (filled[ny * w + nx]) {
              sum += texels[ny * w + nx];
              ++count;
            }
          }
        }
        if (count > 0) {
          texels[i] = sum / static_cast<float>(count);
          next[i] = 1;
        }
      }
    }
    filled = next;
  }
  // Beyond the gutter every texel takes the colour of the nearest filled one (breadth-first from all of
  // them at once): no background is left between charts, so the mip chain built from the atlas does
  // not bleed a foreign colour into chart edges at a distance.
  std::vector<std::size_t> queue;
  for (std::size_t i = 0; i < w * h; ++i) {
    if (filled[i]) queue.push_back(i);
  }
  glm::vec4 mean(0.0f);  // only for an atlas no triangle touched
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const std::size_t i = queue[q], x = i % w, y = i / w;
    const std::size_t nbr[4] = {x > 0 ? i - 1 : i, x + 1 < w ? i + 1 : i, y > 0 ? i - w : i,
                                y + 1 < h ? i + w : i};
    for (const std::size_t n : nbr) {
      if (filled[n]) continue;
      texels[n] = texels[i];
      filled[n] = 1;
      queue.push_back(n);
    }
  }
  anim::Texture atlas;
  atlas.name = "crowd atlas";
  atlas.width = static_cast<std::uint32_t>(width);
  atlas.height = static_cast<std::uint32_t>(height);
  atlas.rgba8.resize(w * h * 4);
  for (std::size_t i = 0; i < w * h; ++i) {
    const glm::vec4 c = glm::clamp(filled[i] ? texels[i] : mean, 0.0f, 1.0f);
    for (std::size_t k = 0; k < 4; ++k)
      atlas.rgba8[4 * i + k] =
          static_cast<std::uint8_t>(std::lround(c[static_cast<glm::length_t>(k)] * 255.0f));
  }
  return atlas;
}

}  // namespace myriad::crowd
