// The lower levels made from the level above: LOD2's fallbacks (simplified further, or the level
// above itself) and LOD1's (LOD0 itself). Their vertices are LOD0 vertices, so they animate from LOD0's
// skinned VAT columns and sample LOD0's atlas.
#include "myriad/crowd_bake/lod/lod1_simplify.hpp"

#include "myriad/core/io/error.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace myriad::crowd {

namespace {

// meshoptimizer never moves a position with more than two wedges (see lod1_simplify.cpp): two unused
// copies of each locked vertex pin it.
std::vector<glm::vec3> pinned_positions(const BakeMesh& lod0, const std::vector<std::uint8_t>& locked) {
  std::vector<glm::vec3> out = lod0.positions;
  for (std::size_t v = 0; v < locked.size(); ++v) {
    if (!locked[v]) continue;
    out.push_back(lod0.positions[v]);
    out.push_back(lod0.positions[v]);
  }
  return out;
}

Lod1Result from_lod0_triangles(const BakeMesh& lod0, const std::vector<std::uint32_t>& indices,
                               const std::vector<std::uint16_t>& materials) {
  Lod1Result r;
  std::vector<std::uint32_t> local(lod0.vertex_count(), UINT32_MAX);
  for (const std::uint32_t v : indices) {
    if (local[v] == UINT32_MAX) {
      local[v] = static_cast<std::uint32_t>(r.lod0_vertex.size());
      r.lod0_vertex.push_back(v);
    }
    r.mesh.indices.push_back(local[v]);
  }
  r.mesh.triangle_material = materials;
  for (const std::uint32_t v : r.lod0_vertex) {
    r.mesh.positions.push_back(lod0.positions[v]);
    r.mesh.normals.push_back(lod0.normals[v]);
    if (!lod0.uvs.empty()) r.mesh.uvs.push_back(lod0.uvs[v]);
    r.mesh.joints.push_back(lod0.joints[v]);
    r.mesh.weights.push_back(lod0.weights[v]);
  }
  r.pass1_triangles = r.mesh.triangle_count();
  return r;
}

}  // namespace

Lod1Result simplify_further(const BakeMesh& lod0, const Lod1Result& above, std::size_t target_triangles) {
  if (above.lod0_vertex.size() != above.mesh.vertex_count())
    throw Error("simplify further: the level above does not name its LOD0 vertices");
  std::map<std::uint16_t, std::vector<std::uint32_t>> by_material;  // in LOD0 vertex numbers
  for (std::size_t t = 0; t < above.mesh.triangle_count(); ++t) {
    std::vector<std::uint32_t>& idx = by_material[above.mesh.triangle_material[t]];
    for (std::size_t k = 0; k < 3; ++k) idx.push_back(above.lod0_vertex[above.mesh.indices[3 * t + k]]);
  }
  // Locked: positions two materials share.
  std::vector<unsigned int> remap(lod0.vertex_count());
  meshopt_generateVertexRemap(remap.data(), nullptr, lod0.vertex_count(), lod0.positions.data(),
                              lod0.vertex_count(), sizeof(glm::vec3));
  std::vector<std::uint32_t> first_material(lod0.vertex_count(), UINT32_MAX);
  std::vector<std::uint8_t> shared(lod0.vertex_count(), 0);
  for (const auto& [material, idx] : by_material) {
    for (const std::uint32_t v : idx) {
      std::uint32_t& m = first_material[remap[v]];
      if (m == UINT32_MAX)
        m = material;
      else if (m != material)
        shared[remap[v]] = 1;
    }
  }
  std::vector<std::uint8_t> locked(lod0.vertex_count(), 0);
  for (std::size_t v = 0; v < locked.size(); ++v) locked[v] = shared[remap[v]];
  const std::vector<glm::vec3> positions = pinned_positions(lod0, locked);
  const double ratio =
      std::min(1.0, static_cast<double>(target_triangles) /
                        std::max<double>(1.0, static_cast<double>(above.mesh.triangle_count())));
  std::vector<std::uint32_t> indices;
  std::vector<std::uint16_t> materials;
  std::vector<unsigned int> simplified;
  for (const auto& [material, idx] : by_material) {
    const auto goal =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(double(idx.size() / 3) * ratio)));
    simplified.resize(idx.size());
    float error = 0.0f;
    const std::size_t count =
        meshopt_simplify(simplified.data(), idx.data(), idx.size(), &positions[0].x, positions.size(),
                         sizeof(glm::vec3), goal * 3, 1.0f, 0, &error);
    indices.insert(indices.end(), simplified.begin(),
                   simplified.begin() + static_cast<std::ptrdiff_t>(count));
    materials.insert(materials.end(), count / 3, material);
  }
  if (indices.empty()) throw Error("simplify further: no triangle left");
  return from_lod0_triangles(lod0, indices, materials);
}

Lod1Result copy_level(const BakeMesh& lod0, const Lod1Result& above) {
  std::vector<std::uint32_t> indices;
  indices.reserve(above.mesh.indices.size());
  for (const std::uint32_t i : above.mesh.indices) indices.push_back(above.lod0_vertex[i]);
  return from_lod0_triangles(lod0, indices, above.mesh.triangle_material);
}

Lod1Result whole_lod0(const BakeMesh& lod0) {
  return from_lod0_triangles(lod0, lod0.indices, lod0.triangle_material);
}

}  // namespace myriad::crowd
