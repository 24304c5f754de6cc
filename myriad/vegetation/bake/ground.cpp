#include "myriad/vegetation/bake/ground.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "myriad/core/io/error.hpp"

namespace myriad::vegetation {
namespace {

constexpr double kSinkDepth = 3.0;  // metres inside a block over which the ground sinks under it

double smoothstep(double edge0, double edge1, double x) {
  const double t = std::clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

}  // namespace

float GroundPad::target(double x, double z, double& outside) const {
  const double cx = std::clamp(x, min.x, max.x), cz = std::clamp(z, min.y, max.y);
  outside = std::hypot(x - cx, z - cz);
  if (tops.empty()) return height;
  const auto ix = static_cast<std::uint32_t>(std::clamp(std::floor(cx - min.x), 0.0, double(columns.x - 1)));
  const auto iz = static_cast<std::uint32_t>(std::clamp(std::floor(cz - min.y), 0.0, double(columns.y - 1)));
  const float top = tops[std::size_t(iz) * columns.x + ix];
  if (outside > 0.0) return top;
  const double inside = std::min({x - min.x, max.x - x, z - min.y, max.y - z});
  return float(double(top) * (1.0 - smoothstep(0.0, kSinkDepth, inside)));
}

GroundPad block_pad(glm::dvec2 min, glm::uvec2 columns, std::span<const float> tops, float blend,
                    std::uint32_t smooth) {
  if (columns.x == 0 || columns.y == 0 || tops.size() != std::size_t(columns.x) * columns.y)
    throw Error("a block pad needs one top per column", "block_pad");
  GroundPad pad;
  pad.min = min;
  pad.max = min + glm::dvec2(columns);
  pad.blend = blend;
  pad.columns = columns;
  pad.tops.assign(tops.begin(), tops.end());
  // Only edge columns are read from outside; each takes the lowest top along its edge nearby.
  const auto at = [&](std::uint32_t x, std::uint32_t z) { return tops[std::size_t(z) * columns.x + x]; };
  const auto lowest = [&](std::uint32_t x, std::uint32_t z, bool along_x) {
    float v = at(x, z);
    const std::uint32_t n = along_x ? columns.x : columns.y, c = along_x ? x : z;
    for (std::uint32_t k = c > smooth ? c - smooth : 0; k <= std::min(n - 1, c + smooth); ++k)
      v = std::min(v, along_x ? at(k, z) : at(x, k));
    return v;
  };
  for (std::uint32_t x = 0; x < columns.x; ++x) {
    pad.tops[x] = lowest(x, 0, true);
    pad.tops[std::size_t(columns.y - 1) * columns.x + x] = lowest(x, columns.y - 1, true);
  }
  for (std::uint32_t z = 0; z < columns.y; ++z) {
    pad.tops[std::size_t(z) * columns.x] =
        std::min(pad.tops[std::size_t(z) * columns.x], lowest(0, z, false));
    const std::size_t last = std::size_t(z) * columns.x + columns.x - 1;
    pad.tops[last] = std::min(pad.tops[last], lowest(columns.x - 1, z, false));
  }
  return pad;
}

float level_ground(float height, double x, double z, std::span<const GroundPad> pads) {
  double h = double(height);
  for (const GroundPad& p : pads) {
    double outside = 0.0;
    const double t = double(p.target(x, z, outside));
    const double w = 1.0 - smoothstep(0.0, std::max(double(p.blend), 1e-3), outside);
    h += (t - h) * w;
  }
  return float(h);
}

std::string pads_signature(std::span<const GroundPad> pads) {
  // FNV-1a over every field's bytes.
  std::uint64_t hash = 1469598103934665603ull;
  const auto mix = [&](const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  };
  for (const GroundPad& p : pads) {
    mix(&p.min, sizeof(p.min));
    mix(&p.max, sizeof(p.max));
    mix(&p.blend, sizeof(p.blend));
    mix(&p.height, sizeof(p.height));
    mix(&p.columns, sizeof(p.columns));
    if (!p.tops.empty()) mix(p.tops.data(), p.tops.size() * sizeof(float));
  }
  return std::to_string(pads.size()) + " pads " + std::to_string(hash);
}

void GroundTileOptions::validate() const {
  if (!(tile_size > 0.0) || !std::isfinite(tile_size))
    throw Error("ground tiles need a finite, positive size", "GroundTileOptions::tile_size");
  for (const double s : spacing)
    if (!(s > 0.0) || !std::isfinite(s))
      throw Error("ground grid spacings must be finite and positive", "GroundTileOptions::spacing");
  for (std::size_t l = 0; l < switch_distance.size(); ++l)
    if (!(switch_distance[l] > 0.0f) || !std::isfinite(switch_distance[l]) ||
        (l > 0 && !(switch_distance[l] > switch_distance[l - 1])))
      throw Error("ground LOD switch distances must be finite, positive and increasing",
                  "GroundTileOptions::switch_distance");
  if (!(skirt >= 0.0f) || !std::isfinite(skirt))
    throw Error("the ground skirt must be a finite number of metres >= 0", "GroundTileOptions::skirt");
  material.validate();
}

std::vector<GroundTile> make_ground_tiles(const GroundHeightFn& height, glm::dvec2 min, glm::dvec2 max,
                                          glm::dvec3 origin, const GroundTileOptions& o) {
  o.validate();
  if (!(max.x > min.x) || !(max.y > min.y))
    throw Error("ground tiles need a positive extent", "make_ground_tiles");
  std::vector<GroundTile> tiles;
  for (double z0 = min.y; z0 < max.y; z0 += o.tile_size)
    for (double x0 = min.x; x0 < max.x; x0 += o.tile_size) {
      const double x1 = std::min(max.x, x0 + o.tile_size), z1 = std::min(max.y, z0 + o.tile_size);
      GroundTile tile;
      for (std::uint32_t l = 0; l < kGroundLods; ++l) {
        const auto cx = static_cast<std::uint32_t>(std::max(1.0, std::ceil((x1 - x0) / o.spacing[l])));
        const auto cz = static_cast<std::uint32_t>(std::max(1.0, std::ceil((z1 - z0) / o.spacing[l])));
        const float skirt = o.skirt + float(o.spacing[l]) * 0.25f;
        PlantMesh& m = tile.lods[l];
        // Grid vertices (cx + 1) x (cz + 1), then the skirt: each border vertex again, lower.
        const auto vertex = [&](std::uint32_t i, std::uint32_t j) {
          const double x = x0 + (x1 - x0) * double(i) / double(cx),
                       z = z0 + (z1 - z0) * double(j) / double(cz);
          const double h = double(height(x, z));
          const double hx = double(height(x + 0.5, z)) - double(height(x - 0.5, z));
          const double hz = double(height(x, z + 0.5)) - double(height(x, z - 0.5));
          m.positions.push_back(glm::vec3(glm::dvec3(x, h, z) - origin));
          m.normals.push_back(glm::normalize(glm::vec3(float(-hx), 1.0f, float(-hz))));
          if (l == 0) tile.bounds.expand(m.positions.back());
        };
        for (std::uint32_t j = 0; j <= cz; ++j)
          for (std::uint32_t i = 0; i <= cx; ++i) vertex(i, j);
        const std::uint32_t row = cx + 1;
        for (std::uint32_t j = 0; j < cz; ++j)
          for (std::uint32_t i = 0; i < cx; ++i) {
            const std::uint32_t a = j * row + i, b = a + 1, c = a + row, d = c + 1;
            m.indices.insert(m.indices.end(), {a, c, d, a, d, b});  // counter-clockwise from above
          }
        // The border walked once around; a skirt quad hangs from each border edge.
        std::vector<std::uint32_t> ring;
        for (std::uint32_t i = 0; i < cx; ++i) ring.push_back(i);
        for (std::uint32_t j = 0; j < cz; ++j) ring.push_back(j * row + cx);
        for (std::uint32_t i = cx; i > 0; --i) ring.push_back(cz * row + i);
        for (std::uint32_t j = cz; j > 0; --j) ring.push_back(j * row);
        const auto first_skirt = static_cast<std::uint32_t>(m.positions.size());
        for (const std::uint32_t v : ring) {
          m.positions.push_back(m.positions[v] - glm::vec3(0.0f, skirt, 0.0f));
          m.normals.push_back(m.normals[v]);
        }
        const auto n = static_cast<std::uint32_t>(ring.size());
        for (std::uint32_t k = 0; k < n; ++k) {
          const std::uint32_t a = ring[k], b = ring[(k + 1) % n];
          const std::uint32_t as = first_skirt + k, bs = first_skirt + (k + 1) % n;
          m.indices.insert(m.indices.end(), {a, as, bs, a, bs, b});
        }
      }
      tiles.push_back(std::move(tile));
    }
  return tiles;
}

void pick_ground_lods(std::span<const GroundTile> tiles, const Frustum& frustum, glm::vec3 eye,
                      const GroundTileOptions& o, std::vector<int>& levels) {
  levels.resize(tiles.size());
  for (std::size_t t = 0; t < tiles.size(); ++t) {
    const Aabb& b = tiles[t].bounds;
    // Skirts hang below the bounds: grow them down so a tile seen from below its rim is not dropped.
    Aabb grown = b;
    grown.min.y -= o.skirt + float(o.spacing[kGroundLods - 1]) * 0.25f;
    if (!frustum.intersects(grown)) {
      levels[t] = -1;
      continue;
    }
    const float d = glm::length(glm::clamp(eye, b.min, b.max) - eye);
    int level = 0;
    while (level < int(kGroundLods) - 1 && d > o.switch_distance[std::size_t(level)]) ++level;
    levels[t] = level;
  }
}

}  // namespace myriad::vegetation
