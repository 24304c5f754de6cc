#include "myriad/crowd_bake/uv/uv_keep_original.hpp"

#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace myriad::crowd {

namespace {

struct KeyHash {
  std::size_t operator()(const std::array<std::uint32_t, 4>& k) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (const std::uint32_t v : k) h = (h ^ v) * 0x100000001b3ull + (h >> 29);
    return static_cast<std::size_t>(h);
  }
};

std::uint32_t find(std::vector<std::uint32_t>& parent, std::uint32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

OriginalUvKeys original_uv_keys(const BakeMesh& welded, std::span<const glm::vec2> corner_uvs) {
  if (corner_uvs.size() != welded.indices.size())
    throw Error("unwrap: one original UV per corner expected", "original_uv_keys");
  OriginalUvKeys keys;
  keys.key_of_corner.reserve(welded.indices.size());
  std::unordered_map<std::array<std::uint32_t, 4>, std::uint32_t, KeyHash> id_of;
  id_of.reserve(welded.indices.size());
  for (std::size_t i = 0; i < welded.indices.size(); ++i) {
    const glm::vec2 uv = corner_uvs[i] + glm::vec2(0.0f);  // -0 + 0 = +0
    const std::array<std::uint32_t, 4> key{welded.indices[i], std::bit_cast<std::uint32_t>(uv.x),
                                           std::bit_cast<std::uint32_t>(uv.y),
                                           welded.triangle_material[i / 3]};
    keys.key_of_corner.push_back(id_of.emplace(key, static_cast<std::uint32_t>(id_of.size())).first->second);
  }
  keys.count = id_of.size();
  return keys;
}

OriginalUvChoice choose_original_charts(std::span<const FlatChart> charts,
                                        std::span<const std::uint32_t> corner_vertex,
                                        const OriginalUvKeys& keys) {
  OriginalUvChoice choice;
  choice.keep_original.assign(charts.size(), 0);
  std::vector<std::size_t> cost(charts.size());
  for (std::size_t c = 0; c < charts.size(); ++c) {
    cost[c] = chart_output_vertices(charts[c].mesh, corner_vertex);
    choice.vertices += cost[c];
  }
  // Charts with the largest re-unwrap cost per triangle first: they gain most.
  std::vector<std::size_t> order(charts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return cost[a] * charts[b].mesh.triangles.size() > cost[b] * charts[a].mesh.triangles.size();
  });
  std::vector<std::uint8_t> used(keys.count, 0);  // keys already paid for by an original-mode chart
  std::vector<std::uint32_t> stamp(keys.count, UINT32_MAX);
  for (const std::size_t c : order) {
    std::size_t fresh = 0;
    for (const std::uint32_t t : charts[c].mesh.triangles) {
      for (std::size_t k = 0; k < 3; ++k) {
        const std::uint32_t key = keys.key_of_corner[3 * t + k];
        if (used[key] || stamp[key] == c) continue;
        stamp[key] = static_cast<std::uint32_t>(c);
        ++fresh;
      }
    }
    if (fresh >= cost[c]) continue;
    choice.keep_original[c] = 1;
    choice.vertices -= cost[c] - fresh;
    for (const std::uint32_t t : charts[c].mesh.triangles) {
      for (std::size_t k = 0; k < 3; ++k) used[keys.key_of_corner[3 * t + k]] = 1;
    }
  }
  if (choice.vertices > keys.count) {
    std::fill(choice.keep_original.begin(), choice.keep_original.end(), std::uint8_t{1});
    choice.vertices = keys.count;
  }
  return choice;
}

OriginalIslands original_uv_islands(const BakeMesh& welded, std::span<const glm::vec2> corner_uvs,
                                    const OriginalUvKeys& keys, std::span<const std::uint32_t> triangles) {
  OriginalIslands out;
  std::vector<std::uint32_t> parent(keys.count);
  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<std::uint8_t> used(keys.count, 0);
  std::vector<glm::vec2> uv_of_key(keys.count, glm::vec2(0.0f));
  for (const std::uint32_t t : triangles) {
    const std::uint32_t* k = &keys.key_of_corner[3 * static_cast<std::size_t>(t)];
    for (int i = 0; i < 3; ++i) {
      used[k[i]] = 1;
      uv_of_key[k[i]] = corner_uvs[3 * static_cast<std::size_t>(t) + static_cast<std::size_t>(i)];
    }
    const std::uint32_t r = find(parent, k[0]);
    parent[find(parent, k[1])] = r;
    parent[find(parent, k[2])] = r;
  }
  out.island_of_key.assign(keys.count, UINT32_MAX);
  out.local_of_key.assign(keys.count, UINT32_MAX);
  std::vector<std::uint32_t> island_of_root(keys.count, UINT32_MAX);
  for (std::uint32_t key = 0; key < keys.count; ++key) {
    if (!used[key]) continue;
    std::uint32_t& island = island_of_root[find(parent, key)];
    if (island == UINT32_MAX) {
      island = static_cast<std::uint32_t>(out.charts.size());
      out.charts.emplace_back();
    }
    out.island_of_key[key] = island;
    out.local_of_key[key] = static_cast<std::uint32_t>(out.charts[island].size());
    out.charts[island].push_back(uv_of_key[key]);
  }
  // Scale per island: UV area to surface area (the texel density of the re-unwrap), capped so that a
  // nearly degenerate UV island never grows past twice its surface's extent.
  std::vector<double> area3(out.charts.size(), 0.0), area_uv(out.charts.size(), 0.0);
  std::vector<glm::vec3> lo3(out.charts.size(), glm::vec3(INFINITY)),
      hi3(out.charts.size(), glm::vec3(-INFINITY));
  for (const std::uint32_t t : triangles) {
    const std::size_t c0 = 3 * static_cast<std::size_t>(t);
    const std::uint32_t island = out.island_of_key[keys.key_of_corner[c0]];
    const glm::vec3 a = welded.positions[welded.indices[c0]], b = welded.positions[welded.indices[c0 + 1]],
                    c = welded.positions[welded.indices[c0 + 2]];
    area3[island] += 0.5 * static_cast<double>(glm::length(glm::cross(b - a, c - a)));
    const glm::vec2 e1 = corner_uvs[c0 + 1] - corner_uvs[c0], e2 = corner_uvs[c0 + 2] - corner_uvs[c0];
    area_uv[island] += 0.5 * std::abs(static_cast<double>(e1.x) * static_cast<double>(e2.y) -
                                      static_cast<double>(e1.y) * static_cast<double>(e2.x));
    for (const glm::vec3& p : {a, b, c})
      lo3[island] = glm::min(lo3[island], p), hi3[island] = glm::max(hi3[island], p);
  }
  for (std::size_t i = 0; i < out.charts.size(); ++i) {
    glm::vec2 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec2& p : out.charts[i]) lo = glm::min(lo, p), hi = glm::max(hi, p);
    const double diag_uv = static_cast<double>(glm::length(hi - lo));
    const double diag3 = static_cast<double>(glm::length(hi3[i] - lo3[i]));
    double scale = 0.0;
    if (diag_uv > 0.0 && std::isfinite(diag_uv)) {
      scale = 2.0 * diag3 / diag_uv;
      if (area_uv[i] > 0.0) scale = std::min(scale, std::sqrt(area3[i] / area_uv[i]));
    }
    for (glm::vec2& p : out.charts[i])
      p = scale > 0.0 ? (p - lo) * static_cast<float>(scale) : glm::vec2(0.0f);
  }
  return out;
}

}  // namespace myriad::crowd
