#include "myriad/crowd_bake/remesh/remesh_steps.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <map>

namespace myriad::crowd {

namespace {

// A triangle's vertex ids rotated so the smallest comes first: equal keys with opposite winding
// are the same triangle facing both ways.
std::array<std::uint32_t, 3> canonical(const std::uint32_t* f) {
  const int first = f[0] <= f[1] && f[0] <= f[2] ? 0 : (f[1] <= f[2] ? 1 : 2);
  return {f[first], f[(first + 1) % 3], f[(first + 2) % 3]};
}

}  // namespace

void simplify_surface(VoxelSurface& surface, std::size_t target_triangles) {
  std::vector<std::uint32_t> simplified(surface.indices.size());
  // Error bound 1 (the whole mesh extent): the triangle budget alone decides where to stop.
  const std::size_t count = meshopt_simplify(
      simplified.data(), surface.indices.data(), surface.indices.size(), &surface.positions[0].x,
      surface.positions.size(), sizeof(glm::vec3), target_triangles * 3, 1.0f, 0, nullptr);
  simplified.resize(count);
  // Collapses can leave a sliver pair: the same three vertices wound both ways. Together they hide
  // nothing and make edges shared by four triangles, so both go.
  std::map<std::array<std::uint32_t, 3>, int> facing;  // +1 per triangle one way, -1 the other
  std::vector<std::array<std::uint32_t, 3>> keys;
  for (std::size_t t = 0; t < count / 3; ++t) {
    const std::uint32_t* f = &simplified[3 * t];
    std::array<std::uint32_t, 3> key = canonical(f);
    int sign = 1;
    if (key[1] > key[2]) {
      std::swap(key[1], key[2]);
      sign = -1;
    }
    facing[key] += sign;
    keys.push_back(key);
  }
  std::vector<std::uint32_t> remap(surface.positions.size(), 0xffffffffu);
  VoxelSurface kept;
  for (std::size_t t = 0; t < count / 3; ++t) {
    const std::uint32_t* f = &simplified[3 * t];
    if (f[0] == f[1] || f[1] == f[2] || f[0] == f[2]) continue;
    if (facing[keys[t]] == 0) continue;
    for (std::size_t k = 0; k < 3; ++k) {
      if (remap[f[k]] == 0xffffffffu) {
        remap[f[k]] = static_cast<std::uint32_t>(kept.positions.size());
        kept.positions.push_back(surface.positions[f[k]]);
      }
      kept.indices.push_back(remap[f[k]]);
    }
  }
  surface = std::move(kept);
}

}  // namespace myriad::crowd
