#include "myriad/crowd_bake/import/weld.hpp"

#include "myriad/core/io/error.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <string>
#include <unordered_map>

namespace myriad::crowd {
namespace {

// Position and skin binding as bits; -0 is folded into +0 so that equal coordinates compare equal.
struct Key {
  std::uint32_t bits[3 + 2 + 4 + 1];
  bool operator==(const Key& o) const { return std::memcmp(bits, o.bits, sizeof bits) == 0; }
};

std::uint32_t float_bits(float f) { return f == 0.0f ? 0u : std::bit_cast<std::uint32_t>(f); }

Key make_key(const BakeMesh& m, std::size_t v, std::span<const std::uint32_t> apart) {
  Key k{};
  for (int i = 0; i < 3; ++i) k.bits[i] = float_bits(m.positions[v][i]);
  k.bits[3] = std::uint32_t{m.joints[v].x} | std::uint32_t{m.joints[v].y} << 16;
  k.bits[4] = std::uint32_t{m.joints[v].z} | std::uint32_t{m.joints[v].w} << 16;
  for (int i = 0; i < 4; ++i) k.bits[5 + i] = float_bits(m.weights[v][i]);
  k.bits[9] = apart.empty() ? 0u : apart[v];
  return k;
}

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint32_t b : k.bits) h = (h ^ b) * 1099511628211ull;
    return static_cast<std::size_t>(h);
  }
};

}  // namespace

void WeldOptions::validate() const {
  if (!(normal_angle_deg >= 0.0f && normal_angle_deg <= 180.0f))
    throw Error("weld angle must be in [0, 180]", "WeldOptions::normal_angle_deg", "degrees between normals");
}

WeldResult weld(const BakeMesh& mesh, const WeldOptions& options, std::span<const std::uint32_t> apart) {
  options.validate();
  validate(mesh, 65536, "weld input");
  if (!apart.empty() && apart.size() != mesh.vertex_count())
    throw Error("weld: " + std::to_string(apart.size()) + " keep-apart keys for " +
                    std::to_string(mesh.vertex_count()) + " vertices",
                "weld");
  const float cos_limit = std::cos(options.normal_angle_deg * std::numbers::pi_v<float> / 180.0f);
  const std::size_t n = mesh.vertex_count();
  // Clusters at one key, in creation order; members are original vertex indices.
  std::unordered_map<Key, std::vector<std::uint32_t>, KeyHash> clusters_at;
  std::vector<std::vector<std::uint32_t>> members;
  WeldResult r;
  r.welded_of.reserve(n);  // filled in vertex order below
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<std::uint32_t>& candidates = clusters_at[make_key(mesh, v, apart)];
    std::uint32_t chosen = UINT32_MAX;
    for (std::uint32_t c : candidates) {
      bool all_within = true;
      for (std::uint32_t m : members[c]) {
        if (glm::dot(mesh.normals[m], mesh.normals[v]) < cos_limit) {
          all_within = false;
          break;
        }
      }
      if (all_within) {
        chosen = c;
        break;
      }
    }
    if (chosen == UINT32_MAX) {
      chosen = static_cast<std::uint32_t>(members.size());
      members.emplace_back();
      candidates.push_back(chosen);
    }
    members[chosen].push_back(static_cast<std::uint32_t>(v));
    r.welded_of.push_back(chosen);
  }
  BakeMesh& out = r.mesh;
  out.positions.reserve(members.size());
  for (const std::vector<std::uint32_t>& cluster : members) {
    const std::uint32_t seed = cluster.front();
    glm::vec3 sum(0.0f);
    for (std::uint32_t m : cluster) sum += mesh.normals[m];
    const float len = glm::length(sum);
    out.positions.push_back(mesh.positions[seed]);
    out.normals.push_back(len > 1e-6f ? sum / len : mesh.normals[seed]);
    out.joints.push_back(mesh.joints[seed]);
    out.weights.push_back(mesh.weights[seed]);
  }
  out.indices.reserve(mesh.indices.size());
  for (std::uint32_t i : mesh.indices) out.indices.push_back(r.welded_of[i]);
  out.triangle_material = mesh.triangle_material;
  r.vertices_before = n;
  r.vertices_after = members.size();
  return r;
}

}  // namespace myriad::crowd
