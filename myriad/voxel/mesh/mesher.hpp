// The section mesher: padded gather, shape-aware face culling, greedy merging of full faces by surface
// shape only, per-vertex AO and soft light, and the surface atlas (one 28-byte record per cell of a greedy
// quad). Output is written in the GPU layout of voxel_layout.h into caller-owned buffers that are cleared,
// never shrunk, so steady-state meshing does not allocate (SPEC V3-V8).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "myriad/voxel/mesh/padded.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/mesh/voxel_layout.h"
#include "myriad/voxel/data/world.hpp"

namespace myriad::voxel {

// How visible full cell faces are merged into quads.
enum class MeshMode : std::uint8_t {
  // Greedy by surface shape only: light, AO and textures of every cell go to the surface atlas (one record
  // per cell of a quad covering >= 2 cells); slope rectangles of equal shapes merge into runs.
  kAtlas,
  // Conventional greedy meshing (no atlas): coplanar full faces merge only where the merged quad's vertices
  // carry exactly what the cells' own quads would (every corner of every cell the same light, the same
  // texture layers), so it looks like the unmerged mesh; slopes stay per cell.
  kConventional,
  // Every visible cell face is its own quad with light and texture in its vertices (no atlas).
  kUnmerged,
};

struct MeshOptions {
  MeshMode mode = MeshMode::kAtlas;
  // false: the world rests on solid ground, so the bottom faces of the lowest layer (seen only from below
  // the world) are culled. true: outside the world is air on every side and the surface is closed.
  bool world_bottom_faces = false;
  // Per-cell tile variation (mesh/tile_variation.hpp): each cell side's tile mirrored and turned by a hash
  // of its world cell. false: every transform is 0 (tiles repeat on the cell grid, as packs whose tiles
  // have a direction, e.g. bricks, need).
  bool tile_variation = true;
  // World cell of the meshed world's cell (0, 0, 0) when it is a window of a larger world (a streamed
  // column's neighbourhood, a far block): the variation hashes world cells, so a window meshes as the
  // whole world would.
  glm::ivec3 cell_origin{0};
};

struct ModelFace;  // voxel/model/model.hpp

// A visible face of a baked model in the block: the face of its variant and the cell (padded index).
struct ModelFaceRef {
  const ModelFace* face;
  std::uint16_t cell;
};

struct SectionMesh {
  std::vector<TerrainVertex> vertices;
  std::vector<std::uint32_t> indices;  // section-local, 3 per triangle, counter-clockwise from outside
  std::vector<AtlasRecord> atlas;
  // Vertices [0, quad_vertices) are whole-face quads, 4 vertices and 6 indices each, emitted first;
  // then triangles and inner planes (3 or 4 vertices); last the baked models' faces (4 vertices each),
  // plain polygons like the loose ones.
  std::uint32_t quad_vertices = 0;
  // The vertices' box in mesh units (the least and greatest px, py, pz), written by the mesher beside the
  // vertices, on the worker that meshed them: a renderer places the section without reading every vertex
  // again on the frame thread. A mesh built or changed by hand leaves `has_bounds` false (clear() resets
  // it) and its reader measures the vertices.
  std::array<float, 3> bounds_min{}, bounds_max{};
  bool has_bounds = false;
  void clear() {
    quad_vertices = 0;
    vertices.clear();
    indices.clear();
    atlas.clear();
    has_bounds = false;
  }
};

// Face mask layout per face axis (x, y, z): rows run along kQuadRowAxis, bits along kQuadBitAxis.
inline constexpr int kQuadRowAxis[3] = {1, 2, 1};
inline constexpr int kQuadBitAxis[3] = {2, 0, 0};

// A greedy rectangle of full faces on side `face`, in the face mask's coordinates (inner cells 0..15):
// layer along the face axis, `height` rows from `row`, `len` bits from `bit` (see MeshScratch::faces).
struct MeshQuad {
  std::uint8_t face, layer, row, bit, len, height;
};

// A polygon that is not a full cell face: part of an outer side (quarter mask) or an inner plane.
struct LoosePolygon {
  std::uint16_t cell;     // padded index
  std::int16_t plane;     // index into ShapeLut::planes for inner planes, -1 for outer parts
  std::uint8_t face;      // outer: the side
  std::uint8_t quarters;  // outer: visible quarters (never 0 or 0xF)
  std::uint8_t run;       // inner: cells merged along the plane's merge_axis (1 = this cell only)
};

// Scratch reused between sections (one per worker thread); about 44 KiB.
struct MeshScratch {
  PaddedBlock block;                                                // filled by mesh_section
  alignas(64) std::array<std::uint32_t, kPad * kPad> cube_rows;     // [py * 18 + pz], bit px: full cubes
  alignas(64) std::array<std::uint32_t, kPad * kPad> partial_rows;  // cut shapes with geometry
  // Visible full faces per side and layer: [face][layer][row] with bit/row axes per face axis
  // (x faces: rows y, bits z; y faces: rows z, bits x; z faces: rows y, bits x), inner coordinates.
  alignas(64) std::array<std::uint16_t, kFaceCount * 16 * 16> faces{};  // all zero between calls
  std::array<std::uint16_t, kFaceCount> face_layers{};  // bit l: layer l of faces[face] may be non-zero
  std::vector<std::uint16_t> partial_cells;             // padded indices of cut shapes in the block
  std::vector<MeshQuad> quads;
  std::vector<LoosePolygon> loose;
  std::vector<ModelFaceRef> model_faces;  // the baked models' visible faces, in cell order
  MeshMode mode = MeshMode::kAtlas;       // of the last cull_and_merge: emit_mesh writes quads accordingly
  bool tile_variation = true;             // of the last cull_and_merge (MeshOptions::tile_variation)
  // kConventional: shading key per cell of the layer being merged, [row * 16 + bit].
  struct CellShade {
    std::uint32_t light, tex01, tex23;
    bool uniform;  // the four corners carry the same light
  };
  std::array<CellShade, 16 * 16> cell_shades;
};

// Meshes one section of `world` into `out` (cleared first).
void mesh_section(const World& world, glm::ivec3 section, const MeshOptions& options, MeshScratch& scratch,
                  SectionMesh& out);

// The stages of mesh_section after the gather, exposed for benchmarks and tests. cull_and_merge fills
// scratch.quads, scratch.loose and scratch.model_faces from `block`; emit_mesh writes vertices, indices
// and atlas records.
void cull_and_merge(const PaddedBlock& block, MeshScratch& scratch, MeshMode mode,
                    bool tile_variation = true);
void emit_mesh(const PaddedBlock& block, const MeshScratch& scratch, SectionMesh& out);
// Sets `mesh.bounds_min/max` from its vertices, and `has_bounds` when it has any (emit_mesh calls it).
void measure_bounds(SectionMesh& mesh);

}  // namespace myriad::voxel
