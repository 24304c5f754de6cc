// Section meshes decoded into plain per-vertex arrays for files and other renderers (glTF, an engine's
// own vertex format): positions, unit normals and linear RGB colours with the mesher's AO and soft light
// baked in. The mesher's own vertex format (voxel_layout.h) needs the terrain shader to be drawn
// (packed normals, texture tiles, surface-atlas lookups); the decoded arrays need nothing.
//
// Decoding needs meshes built with MeshMode::kUnmerged (every cell face its own polygon) or
// MeshMode::kConventional (quads merged only over identical shading): light and texture are then in the
// vertices. An atlas mesh (MeshMode::kAtlas) keeps per-cell light and textures in the
// surface atlas, which per-vertex colours cannot express (a greedy quad spans many materials), so a
// vertex that reads the atlas is refused.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/core/math/math.hpp"
#include "myriad/voxel/mesh/mesher.hpp"

namespace myriad::voxel {

struct DecodedMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;      // unit length
  std::vector<glm::vec3> colors;       // linear RGB in [0, 1]: tile colour x light (AO applied)
  std::vector<std::uint32_t> indices;  // 3 per triangle, counter-clockwise seen from outside

  std::size_t vertex_count() const { return positions.size(); }
  std::size_t triangle_count() const { return indices.size() / 3; }
  void clear() {
    positions.clear();
    normals.clear();
    colors.clear();
    indices.clear();
  }
};

// The mean colour of texture tile `tile` (the tile ids of material.cpp) as the terrain renderer's
// procedural tiles paint it; magenta for tiles no material uses.
glm::vec3 tile_color(std::uint32_t tile);

// A surface of colour `base` under packed light (core pack_light: R, G, B lamp and sun bytes, AO
// applied), lit as the terrain shader lights it with the sun straight on: lamp RGB plus sun plus a
// little ambient, clamped to [0, 1].
glm::vec3 lit_color(glm::vec3 base, std::uint32_t packed_light);

// Appends `mesh` decoded to `out`, with `offset` added to every position (the section origin
// section * kSectionSize for world positions, or 0 for section-local ones). Indices are rebased on the
// vertices `out` already holds. Throws myriad::Error when a vertex reads the surface atlas (a merged
// mesh; see above).
void decode_section_mesh(const SectionMesh& mesh, glm::vec3 offset, DecodedMesh& out);

}  // namespace myriad::voxel
