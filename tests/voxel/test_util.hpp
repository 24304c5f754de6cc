// Helpers shared by the voxel tests: random worlds and decoding of mesher output into world-space
// polygons with exact doubled-integer coordinates.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/data/world.hpp"

namespace myriad::voxel::test {

// Random world: each cell air with probability `air`, else a random block material and a random form
// byte (all 256 values, degenerate ones included); light left at zero. Baked models have their own tests
// (model_test.cpp).
inline World random_world(glm::ivec3 size, std::uint32_t seed, double air = 0.45) {
  World w(size.x, size.y, size.z);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int y = 0; y < size.y; ++y)
    for (int z = 0; z < size.z; ++z)
      for (int x = 0; x < size.x; ++x) {
        if (unit(rng) < air) continue;
        const auto m = std::uint8_t(1 + rng() % (kFirstModelMaterial - 1));
        const auto f = std::uint8_t(rng() % 256);
        w.set_voxel({x, y, z}, m, f);
      }
  return w;
}

// Doubled world coordinates of a vertex of section `sec` (positions are multiples of 1/2).
inline glm::ivec3 doubled(const TerrainVertex& v, glm::ivec3 sec) {
  const glm::vec3 p = glm::vec3(v.px, v.py, v.pz) + glm::vec3(sec * kSectionSize);
  return {int(std::lround(p.x * 2.0f)), int(std::lround(p.y * 2.0f)), int(std::lround(p.z * 2.0f))};
}

// A cell's tile variation: in bits 10-12 of a plain polygon's base texture index (tex01), in meta bits 4-6
// of an atlas record (whose layers then leave those bits zero).
inline constexpr std::uint32_t kVariationBits = MYRIAD_VOXEL_UV_TRANSFORM_MASK << MYRIAD_VOXEL_TILE_BITS;
inline std::uint32_t plain_uv(std::uint32_t tex01) {
  return tex01 >> MYRIAD_VOXEL_TILE_BITS & MYRIAD_VOXEL_UV_TRANSFORM_MASK;
}
inline std::uint32_t record_uv(const AtlasRecord& r) {
  return r.meta >> MYRIAD_VOXEL_META_UV_SHIFT & MYRIAD_VOXEL_UV_TRANSFORM_MASK;
}

// Side of a whole-face quad (its first three vertices, counter-clockwise from outside).
inline int quad_face(const TerrainVertex* v) {
  const glm::vec3 n = glm::cross(glm::vec3(v[1].px - v[0].px, v[1].py - v[0].py, v[1].pz - v[0].pz),
                                 glm::vec3(v[2].px - v[0].px, v[2].py - v[0].py, v[2].pz - v[0].pz));
  const int axis = std::abs(n.x) > 0.5f ? 0 : std::abs(n.y) > 0.5f ? 1 : 2;
  return axis * 2 + (n[axis] > 0 ? 1 : 0);
}

// World cell of corner 0 of a face quad of section `sec`: the vertex lies on the face plane; the cell is
// behind it.
inline glm::ivec3 cell_of_corner0(const TerrainVertex& v0, int face, glm::ivec3 sec) {
  glm::ivec3 c = glm::ivec3(glm::round(glm::vec3(v0.px, v0.py, v0.pz))) + sec * kSectionSize;
  if (face_positive(face)) c[face_axis(face)] -= 1;
  return c;
}

struct Tri {
  glm::ivec3 a, b, c;  // doubled world coordinates, counter-clockwise from outside
};

inline void append_triangles(const SectionMesh& m, glm::ivec3 sec, std::vector<Tri>& out) {
  for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3)
    out.push_back({doubled(m.vertices[m.indices[i]], sec), doubled(m.vertices[m.indices[i + 1]], sec),
                   doubled(m.vertices[m.indices[i + 2]], sec)});
}

}  // namespace myriad::voxel::test
