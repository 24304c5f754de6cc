#include "myriad/voxel/mesh/mesh_export.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/packing.hpp"

namespace myriad::voxel {
namespace {

// The terrain renderer's tile styles (render/terrain/terrain_tiles.cpp) reduced to their mean colour:
// the base colour with a share of accent speckles, and on the grass and snow side tiles a band of the top
// colour over 3.5 of the 16 rows. Index = tile id.
struct TileMean {
  glm::vec3 color, accent;
  float speckle;
  glm::vec3 top;  // zero: no band
};
constexpr std::array<TileMean, 13> kTiles = {{
    {{1.00f, 0.00f, 1.00f}, {1.00f, 0.00f, 1.00f}, 0.00f, {}},                     // 0: unused
    {{0.50f, 0.50f, 0.52f}, {0.38f, 0.38f, 0.40f}, 0.30f, {}},                     // 1: stone
    {{0.45f, 0.32f, 0.20f}, {0.36f, 0.25f, 0.15f}, 0.25f, {}},                     // 2: dirt
    {{0.30f, 0.56f, 0.22f}, {0.38f, 0.66f, 0.26f}, 0.30f, {}},                     // 3: grass top
    {{0.45f, 0.32f, 0.20f}, {0.36f, 0.25f, 0.15f}, 0.25f, {0.30f, 0.56f, 0.22f}},  // 4: grass side
    {{0.86f, 0.80f, 0.56f}, {0.78f, 0.71f, 0.48f}, 0.25f, {}},                     // 5: sand
    {{0.55f, 0.52f, 0.50f}, {0.40f, 0.38f, 0.37f}, 0.45f, {}},                     // 6: gravel
    {{0.62f, 0.45f, 0.38f}, {0.55f, 0.40f, 0.34f}, 0.20f, {}},                     // 7: clay
    {{0.94f, 0.95f, 0.98f}, {0.86f, 0.88f, 0.93f}, 0.20f, {}},                     // 8: snow
    {{0.45f, 0.32f, 0.20f}, {0.36f, 0.25f, 0.15f}, 0.25f, {0.94f, 0.95f, 0.98f}},  // 9: snow side
    {{1.00f, 0.85f, 0.55f}, {1.00f, 0.95f, 0.75f}, 0.35f, {}},                     // 10: warm lamp
    {{0.65f, 0.85f, 1.00f}, {0.85f, 0.95f, 1.00f}, 0.35f, {}},                     // 11: cold lamp
    {{1.00f, 0.35f, 0.30f}, {1.00f, 0.60f, 0.50f}, 0.35f, {}},                     // 12: red lamp
}};

constexpr float kTopBandShare = 3.5f / 16.0f;

}  // namespace

glm::vec3 tile_color(std::uint32_t tile) {
  if (tile == 0 || tile >= kTiles.size()) return {1.0f, 0.0f, 1.0f};
  const TileMean& t = kTiles[tile];
  glm::vec3 c = t.color * (1.0f - t.speckle) + t.accent * t.speckle;
  if (t.top != glm::vec3(0.0f)) c = c * (1.0f - kTopBandShare) + t.top * kTopBandShare;
  return c;
}

glm::vec3 lit_color(glm::vec3 base, std::uint32_t packed_light) {
  const Light l = unpack_light(packed_light);
  const glm::vec3 lamp = glm::vec3(float(l.r), float(l.g), float(l.b)) / 255.0f;
  const float sun = float(l.sun) / 255.0f;
  // terrain.frag: base * (lamp + sun * facing * (1, 0.97, 0.9) + 0.04), facing 1 here.
  const glm::vec3 light = lamp + sun * glm::vec3(1.0f, 0.97f, 0.9f) + glm::vec3(0.04f);
  return glm::clamp(base * light, glm::vec3(0.0f), glm::vec3(1.0f));
}

void decode_section_mesh(const SectionMesh& mesh, glm::vec3 offset, DecodedMesh& out) {
  const std::size_t first = out.positions.size();
  if (first + mesh.vertices.size() > UINT32_MAX)
    throw Error("too many vertices for 32-bit indices", "decode_section_mesh",
                "decode fewer sections at once");
  out.positions.reserve(first + mesh.vertices.size());
  out.normals.reserve(first + mesh.vertices.size());
  out.colors.reserve(first + mesh.vertices.size());
  for (const TerrainVertex& v : mesh.vertices) {
    if ((v.tex01 & 0xFFFFu) == MYRIAD_VOXEL_ATLAS_MARKER) {
      throw Error("the mesh has greedy quads that read the surface atlas", "decode_section_mesh",
                  "mesh with MeshMode::kUnmerged (or kConventional)");
    }
    out.positions.push_back(glm::vec3(v.px, v.py, v.pz) + offset);
    out.normals.push_back(glm::normalize(unpack_octahedral(v.normal)));
    out.colors.push_back(lit_color(tile_color(v.tex01 & MYRIAD_VOXEL_TILE_MASK), v.light));
  }
  const auto base = std::uint32_t(first);
  out.indices.reserve(out.indices.size() + mesh.indices.size());
  for (const std::uint32_t i : mesh.indices) {
    if (i >= mesh.vertices.size())
      throw Error("index " + std::to_string(i) + " is past the section's vertices", "decode_section_mesh");
    out.indices.push_back(base + i);
  }
}

}  // namespace myriad::voxel
