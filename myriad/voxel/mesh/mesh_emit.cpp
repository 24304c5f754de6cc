// Mesh emission: vertices, indices and atlas records for the quads and loose polygons found by
// cull_and_merge, with per-vertex AO, soft light and texture transitions read from the padded block.
#include <algorithm>
#include <bit>

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/voxel/mesh/mesh_models.hpp"
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/mesh/shade.hpp"

namespace myriad::voxel {
namespace {

std::uint32_t face_normal(int face) {
  static const std::array<std::uint32_t, kFaceCount> kNormals = [] {
    std::array<std::uint32_t, kFaceCount> n{};
    for (int f = 0; f < kFaceCount; ++f) n[std::size_t(f)] = pack_octahedral(glm::vec3(face_direction(f)));
    return n;
  }();
  return kNormals[std::size_t(face)];
}

inline TerrainVertex make_vertex(glm::ivec3 lattice2, std::uint32_t normal, std::uint32_t light,
                                 std::uint32_t tex01, std::uint32_t tex23) {
  // lattice2: doubled padded coordinates; section-local position = lattice / 2 - 1.
  return {float(lattice2.x) * 0.5f - 1.0f,
          float(lattice2.y) * 0.5f - 1.0f,
          float(lattice2.z) * 0.5f - 1.0f,
          normal,
          light,
          tex01,
          tex23};
}

// Corner k of a cell face in quad-local order (0,0), (1,0), (1,1), (0,1).
constexpr int kCornerU[4] = {0, 1, 1, 0};
constexpr int kCornerV[4] = {0, 0, 1, 1};

// Write positions in the output buffers, which emit_mesh sizes exactly before emitting: plain stores
// instead of push_back's capacity checks in the innermost loops.
struct MeshCursor {
  TerrainVertex* vertices_begin;
  TerrainVertex* vertex;
  std::uint32_t* index;
  AtlasRecord* records_begin;
  AtlasRecord* record;
  std::uint32_t vertex_count() const { return std::uint32_t(vertex - vertices_begin); }
  std::uint32_t record_count() const { return std::uint32_t(record - records_begin); }
  void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    index[0] = a, index[1] = b, index[2] = c;
    index += 3;
  }
};

inline void push_quad_indices(MeshCursor& out, std::uint32_t base, std::uint32_t diagonal) {
  std::uint32_t* t = out.index;
  if (diagonal) {
    t[0] = base, t[1] = base + 1, t[2] = base + 3, t[3] = base + 1, t[4] = base + 2, t[5] = base + 3;
  } else {
    t[0] = base, t[1] = base + 1, t[2] = base + 2, t[3] = base, t[4] = base + 2, t[5] = base + 3;
  }
  out.index += 6;
}

// 0fps: split along the diagonal whose corners have the larger AO sum (ties: 0-2).
inline std::uint32_t choose_diagonal(int a0, int a1, int a2, int a3) { return a1 + a3 > a0 + a2 ? 1u : 0u; }
// Atlas meta bits 8-15: the whole AO level (0..3) of each corner.
inline std::uint32_t ao_meta(int a0, int a1, int a2, int a3) {
  return std::uint32_t(ao_whole_level(a0) | ao_whole_level(a1) << 2 | ao_whole_level(a2) << 4 |
                       ao_whole_level(a3) << 6)
         << 8;
}

// The cells in front of a greedy quad plus a one-cell rim, read from the block once per quad. Each cell is
// one u64: its light spread into 16-bit lanes (spread_light, zero for opaque cells), plus a count of one
// at bit 8 of the red lane when it lets light through. Adding the cells around a lattice point then gives
// the light sum and the light count at once; the lanes stay below 256 (4 x 15 light) and the count below
// 8. `ao` holds each cell's occlusion (quarters) at its four corners on the quad's plane, byte u | v << 1
// in the quad frame.
struct FrontWindow {
  static constexpr int kStride =
      kSectionSize + 2;  // cell (i, j), i and j from -1: (i + 1) + (j + 1) * kStride
  static constexpr std::uint64_t kLetsLight = 1u << 8;
  alignas(16) std::uint64_t cell[kStride * kStride];
  alignas(16) std::uint32_t ao[kStride * kStride];
};

// window_cell's part decided by the shade flags (3 bits): which light passes and which counts are set.
struct WindowFlagParts {
  std::uint64_t light_mask[8], counts[8];
};
inline constexpr WindowFlagParts kWindowFlagParts = [] {
  WindowFlagParts t{};
  for (unsigned f = 0; f < 8; ++f) {
    t.light_mask[f] = f & kShadeOpaque ? 0 : ~std::uint64_t(0);
    t.counts[f] = f & kShadeOpaque ? 0 : FrontWindow::kLetsLight;
  }
  return t;
}();

inline std::uint64_t window_cell(std::uint8_t flags, Light16 light) {
  return (spread_light(light) & kWindowFlagParts.light_mask[flags & 7]) | kWindowFlagParts.counts[flags & 7];
}

// Per side and form: the occlusion of a cell in front of a quad on that side at its four corners on the
// quad's plane (its near side), byte u | v << 1 of the quad frame (FrontWindow::ao).
struct WindowAoTable {
  std::uint32_t v[kFaceCount][256];
};
const WindowAoTable& window_ao_table() {
  static const WindowAoTable table = [] {
    const ShapeLut& lut = shape_lut();
    WindowAoTable t{};
    for (int f = 0; f < kFaceCount; ++f)
      for (int form = 0; form < 256; ++form)
        for (int k = 0; k < 4; ++k) {
          const int u = k & 1, v = k >> 1;
          const int corner = (face_positive(f) ? 0 : kCornerAxisBit[face_axis(f)]) |
                             (u ? kCornerAxisBit[quad_axis_u(f)] : 0) |
                             (v ? kCornerAxisBit[quad_axis_v(f)] : 0);
          t.v[f][form] |= (lut.ao_corners[std::size_t(form)] >> (4 * corner) & 0xFu) << (8 * k);
        }
    return t;
  }();
  return table;
}

inline int window_ao(const FrontWindow& fw, int i, int k) { return int(fw.ao[i] >> (8 * k) & 0xFFu); }

// Packed light from a window sum of `count` cells (bits 8-10) at AO level `ao` (shade_channel per lane).
inline std::uint32_t window_light(std::uint64_t sum, int ao) {
  const auto& t = kShadeChannel.v[sum >> 8 & 7][ao];
  return std::uint32_t(t[sum & 0xFF]) | std::uint32_t(t[sum >> 16 & 0xFF]) << 8 |
         std::uint32_t(t[sum >> 32 & 0xFF]) << 16 | std::uint32_t(t[sum >> 48 & 0xFF]) << 24;
}

// shade_cells on a FrontWindow: `front` and the steps du, dv are window indices.
inline VertexShade window_shade(const FrontWindow& fw, int front, int du, int dv) {
  const int i1 = front + du, i2 = front + dv, i3 = i1 + dv;
  const int k = (du > 0 ? 1 : 0) | (dv > 0 ? 2 : 0);  // the front cell's corner at the vertex
  const int o1 = window_ao(fw, i1, k ^ 1), o2 = window_ao(fw, i2, k ^ 2);
  VertexShade out;
  out.ao = lookup_ao(window_ao(fw, front, k), o1, o2, window_ao(fw, i3, k ^ 3));
  const std::uint64_t corner = corner_hidden(o1, o2) ? 0 : fw.cell[i3];
  out.light = window_light(fw.cell[front] + fw.cell[i1] + fw.cell[i2] + corner, out.ao);
  return out;
}

// The window index steps from a cell to the cells beside its corner k.
inline int window_du(int k) { return kCornerU[k] ? 1 : -1; }
inline int window_dv(int k) { return kCornerV[k] ? FrontWindow::kStride : -FrontWindow::kStride; }

// Lattice point (i, j) of a quad, 0..w x 0..h, shaded as the cell corner with the clamped cell as front.
inline VertexShade lattice_shade(const FrontWindow& fw, int i, int j, int w, int h) {
  const int ci = i < w ? i : w - 1, cj = j < h ? j : h - 1;
  return window_shade(fw, (ci + 1) + (cj + 1) * FrontWindow::kStride, i == ci ? -1 : 1,
                      j == cj ? -FrontWindow::kStride : FrontWindow::kStride);
}

// Shades of the (w + 1) x (h + 1) lattice points of a quad, row stride 17, when no cell in front of the quad
// fills an octant at its corners on the quad plane. The AO level of a point depends only on its four
// cells (vertex_ao is symmetric), and no diagonal pair at a point that is not a quad corner is fully
// blocked (each holds a front cell), so its light always counts all four cells: every cell touching the
// point shades it alike. kFronts = false when the front cells do not occlude at all: then no diagonal
// hides anything and the level is 12 minus the sum of the four cells' occlusion. The four quad corners
// take window_shade (the corner rule of their own cell).
template <bool kFronts>
void shade_lattice(const FrontWindow& fw, int w, int h, std::uint32_t* light, std::uint8_t* ao) {
  constexpr int kW = FrontWindow::kStride;
  std::uint64_t last_sum = ~std::uint64_t(0);
  std::uint32_t last_light = 0;
  int last_ao = 0;
  for (int j = 0; j <= h; ++j) {
    const std::uint64_t* below = fw.cell + j * kW;
    const std::uint64_t* above = below + kW;
    const std::uint32_t* ao_below = fw.ao + j * kW;
    const std::uint32_t* ao_above = ao_below + kW;
    std::uint64_t left = below[0] + above[0];
    for (int i = 0; i <= w; ++i) {
      const std::uint64_t right = below[i + 1] + above[i + 1];
      // Occlusion of the four cells at the point, each at its own corner there (bytes u | v << 1).
      std::uint32_t occlusion;
      if constexpr (kFronts) {
        occlusion =
            std::uint32_t(kAoLevels - lookup_ao(int(ao_below[i] >> 24), int(ao_below[i + 1] >> 16 & 0xFFu),
                                                int(ao_above[i] >> 8 & 0xFFu), int(ao_above[i + 1] & 0xFFu)));
      } else {
        // Masked in place and summed across the bytes with one multiply (each byte <= 4, no carries).
        occlusion = (((ao_below[i] & 0xFF000000u) + (ao_below[i + 1] & 0x00FF0000u) +
                      (ao_above[i] & 0x0000FF00u) + (ao_above[i + 1] & 0x000000FFu)) *
                     0x01010101u) >>
                    24;
      }
      // Bits 24-31 of the light sum are free (the green lane holds at most 60): the key holds both.
      const std::uint64_t sum = left + right + (std::uint64_t(occlusion) << 24);
      left = right;
      // Runs of equal neighbourhoods (open sky, one lamp's glow) repeat the last lookup.
      if (sum != last_sum) {
        last_sum = sum;
        last_ao = vertex_ao(0, 0, 0, int(occlusion));
        last_light = window_light(sum, last_ao);
      }
      light[j * 17 + i] = last_light;
      ao[j * 17 + i] = std::uint8_t(last_ao);
    }
  }
  for (const int j : {0, h})
    for (const int i : {0, w}) {
      const VertexShade s = lattice_shade(fw, i, j, w, h);
      light[j * 17 + i] = s.light;
      ao[j * 17 + i] = std::uint8_t(s.ao);
    }
}

// Texture layers of cell `cell` (padded index) on side f: the plain tile when its four in-plane
// neighbours share its material (no transition can appear), else cell_textures.
inline std::array<std::uint32_t, 2> quad_cell_textures(const PaddedBlock& b, const std::uint8_t* flags,
                                                       const Material* mats, int cell, int f, int su,
                                                       int sv) {
  const std::uint8_t* m = b.material.data() + cell;
  if (m[-su] == m[0] && m[su] == m[0] && m[-sv] == m[0] && m[sv] == m[0])
    return {f == kPosY ? mats[m[0]].tile_top : f == kNegY ? mats[m[0]].tile_bottom : mats[m[0]].tile_side, 0};
  return cell_textures(b, flags, mats, cell, f);
}

void emit_quad(const PaddedBlock& b, const std::uint8_t* flags, const Material* mats, const MeshQuad& q,
               bool variation, FrontWindow& win, MeshCursor& out) {
  constexpr int kW = FrontWindow::kStride;
  const int f = q.face, a = face_axis(f), u = quad_axis_u(f), v = quad_axis_v(f);
  int origin[3], size[3] = {1, 1, 1};  // plain arrays: glm's operator[] is a switch
  origin[a] = q.layer + 1;
  origin[kQuadRowAxis[a]] = q.row + 1;
  origin[kQuadBitAxis[a]] = q.bit + 1;
  size[kQuadRowAxis[a]] = q.height;
  size[kQuadBitAxis[a]] = q.len;
  const int w = size[u], h = size[v];
  const int su = kPadStride[u], sv = kPadStride[v];
  const int origin_index = pad_index(origin[0], origin[1], origin[2]);
  const int front_step = face_positive(f) ? kPadStride[a] : -kPadStride[a];
  // Read the window; `inside` gathers the occlusion of the cells right in front of the quad.
  const std::uint32_t* face_ao = window_ao_table().v[f];
  std::uint32_t inside = 0;
  for (int j = -1; j <= h; ++j) {
    std::uint64_t* row = win.cell + (j + 1) * kW;
    std::uint32_t* ao_row = win.ao + (j + 1) * kW;
    int p = origin_index + front_step + j * sv - su;
    for (int i = 0; i < w + 2; ++i, p += su) {
      const std::uint8_t form = b.form[std::size_t(p)];
      row[i] = window_cell(flags[form], b.light[std::size_t(p)]);
      ao_row[i] = face_ao[form];
      if (unsigned(j) < unsigned(h) && unsigned(i - 1) < unsigned(w)) inside |= ao_row[i];
    }
  }
  const std::uint32_t normal = face_normal(f);
  const std::uint32_t base = out.vertex_count();
  const float plane = float(origin[a] + (face_positive(f) ? 1 : 0) - 1);
  auto push_corner = [&](int k, std::uint32_t light, std::uint32_t tex01, std::uint32_t tex23) {
    TerrainVertex vert{0.0f, 0.0f, 0.0f, normal, light, tex01, tex23};
    float* pos = &vert.px;
    pos[a] = plane;
    pos[u] = float(origin[u] - 1 + kCornerU[k] * w);
    pos[v] = float(origin[v] - 1 + kCornerV[k] * h);
    *out.vertex++ = vert;
  };
  if (w * h == 1) {
    // One cell: its four corners are the quad's.
    VertexShade c[4];
    for (int k = 0; k < 4; ++k) c[k] = window_shade(win, 1 + kW, window_du(k), window_dv(k));
    const auto tex = quad_cell_textures(b, flags, mats, origin_index, f, su, sv);
    const std::uint32_t tex0 = tex[0] | cell_uv_bits(b, mats, origin_index, f, variation);
    for (int k = 0; k < 4; ++k) push_corner(k, c[k].light, tex0, tex[1]);
    push_quad_indices(out, base, choose_diagonal(c[0].ao, c[1].ao, c[2].ao, c[3].ao));
    return;
  }
  // Shade every lattice point of the quad once: when no cell in front of the quad fills a corner octant
  // on the quad plane, all cells sharing a point see the same AO and light (shade_lattice). (A front
  // cell can: e.g. a full bottom with two diagonal top corners has no polygon on its top side but fills
  // two of its bottom octants; then shade per cell.)
  const bool shared = (inside & 0x04040404u) == 0;  // no byte is kAoQuartersFull (bytes are 0..4)
  std::uint32_t lattice_light[17 * 17];
  std::uint8_t lattice_ao[17 * 17];
  if (shared) {
    if (inside)
      shade_lattice<true>(win, w, h, lattice_light, lattice_ao);
    else
      shade_lattice<false>(win, w, h, lattice_light, lattice_ao);
  }
  const std::uint32_t first = out.record_count();
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) {
      std::uint32_t light[4];
      int ao[4];
      for (int k = 0; k < 4; ++k) {
        if (shared) {
          const int at = (j + kCornerV[k]) * 17 + i + kCornerU[k];
          light[k] = lattice_light[at];
          ao[k] = lattice_ao[at];
        } else {
          const VertexShade s = window_shade(win, (i + 1) + (j + 1) * kW, window_du(k), window_dv(k));
          light[k] = s.light;
          ao[k] = s.ao;
        }
      }
      const int cell = origin_index + i * su + j * sv;
      const auto tex = quad_cell_textures(b, flags, mats, cell, f, su, sv);
      const std::uint32_t meta = cell_uv(b, mats, cell, f, variation) << MYRIAD_VOXEL_META_UV_SHIFT |
                                 choose_diagonal(ao[0], ao[1], ao[2], ao[3]) << 7 |
                                 ao_meta(ao[0], ao[1], ao[2], ao[3]);
      *out.record++ = {light[0], light[1], light[2], light[3], tex[0], tex[1], meta};
    }
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t tex01 = MYRIAD_VOXEL_ATLAS_MARKER | std::uint32_t(kCornerU[k] * w) << 16 |
                                std::uint32_t(kCornerV[k] * h) << 24;
    push_corner(k, first, tex01, std::uint32_t(w | h << 8));
  }
  push_quad_indices(out, base, 0);
}

// A conventional greedy quad (MeshMode::kConventional) over cells whose corners all carry one light and
// whose texture layers are equal: plain vertices with that light and those layers.
void emit_plain_quad(const PaddedBlock& b, const std::uint8_t* flags, const Material* mats, const MeshQuad& q,
                     bool variation, MeshCursor& out) {
  const int f = q.face, a = face_axis(f), u = quad_axis_u(f), v = quad_axis_v(f);
  int origin[3], size[3] = {1, 1, 1};
  origin[a] = q.layer + 1;
  origin[kQuadRowAxis[a]] = q.row + 1;
  origin[kQuadBitAxis[a]] = q.bit + 1;
  size[kQuadRowAxis[a]] = q.height;
  size[kQuadBitAxis[a]] = q.len;
  const int cell = pad_index(origin[0], origin[1], origin[2]);
  const int front = cell + (face_positive(f) ? kPadStride[a] : -kPadStride[a]);
  const std::uint32_t light =
      shade_side_corner(b, flags, shape_lut().ao_corners.data(), front, f, 0, 0).light;
  const auto tex = cell_textures(b, flags, mats, cell, f);
  // Every cell of the quad has this variation (merge_faces_conventional merges only equal ones).
  const std::uint32_t tex0 = tex[0] | cell_uv_bits(b, mats, cell, f, variation);
  const std::uint32_t normal = face_normal(f), base = out.vertex_count();
  for (int k = 0; k < 4; ++k) {
    TerrainVertex vert{0.0f, 0.0f, 0.0f, normal, light, tex0, tex[1]};
    float* pos = &vert.px;
    pos[a] = float(origin[a] + (face_positive(f) ? 1 : 0) - 1);
    pos[u] = float(origin[u] - 1 + kCornerU[k] * size[u]);
    pos[v] = float(origin[v] - 1 + kCornerV[k] * size[v]);
    *out.vertex++ = vert;
  }
  push_quad_indices(out, base, 0);
}

std::uint32_t average_light(const VertexShade* s, int n) {
  int sum[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; ++i) {
    const Light l = unpack_light(s[i].light);
    sum[0] += l.r;
    sum[1] += l.g;
    sum[2] += l.b;
    sum[3] += l.sun;
  }
  auto avg = [&](int x) { return std::uint8_t((x + n / 2) / n); };
  return pack_light({avg(sum[0]), avg(sum[1]), avg(sum[2]), avg(sum[3])});
}

// Part of an outer side: a corner triangle (two quarters) or a centre triangle (one quarter).
void emit_side_part(const PaddedBlock& b, const std::uint8_t* flags, const Material* mats,
                    const LoosePolygon& poly, bool variation, MeshCursor& out) {
  const int f = poly.face, a = face_axis(f), p = side_axis_p(f), q = side_axis_q(f);
  const glm::ivec3 cell = pad_coord(poly.cell);
  // Side-local points in doubled units: corners (0|2, 0|2), centre (1, 1).
  glm::ivec2 pts[3];
  const std::uint8_t m = poly.quarters;
  if (std::popcount(m) == 2) {
    const int P = (m & 2) ? 1 : 0, Q = (m & 8) ? 1 : 0;
    pts[0] = {2 * P, 2 * Q};
    pts[1] = {2 - 2 * P, 2 * Q};
    pts[2] = {2 * P, 2 - 2 * Q};
  } else {
    const int k = std::countr_zero(m);
    if (k < 2) {
      pts[0] = {2 * k, 0};
      pts[1] = {2 * k, 2};
    } else {
      pts[0] = {0, 2 * (k - 2)};
      pts[1] = {2, 2 * (k - 2)};
    }
    pts[2] = {1, 1};
  }
  // Counter-clockwise in (p, q) faces +axis; negative sides need the other winding.
  const int cross =
      (pts[1].x - pts[0].x) * (pts[2].y - pts[0].y) - (pts[1].y - pts[0].y) * (pts[2].x - pts[0].x);
  if ((cross > 0) != face_positive(f)) std::swap(pts[1], pts[2]);
  VertexShade corner_shade[4];  // side corners indexed p | q << 1
  const int front = poly.cell + (face_positive(f) ? kPadStride[a] : -kPadStride[a]);
  const std::uint32_t* ao = shape_lut().ao_corners.data();
  for (int c = 0; c < 4; ++c) corner_shade[c] = shade_side_corner(b, flags, ao, front, f, c & 1, c >> 1);
  const auto tex = cell_textures(b, flags, mats, poly.cell, f);
  const std::uint32_t tex0 = tex[0] | cell_uv_bits(b, mats, poly.cell, f, variation);
  const std::uint32_t normal = face_normal(f);
  const std::uint32_t base = out.vertex_count();
  for (const glm::ivec2 pt : pts) {
    glm::ivec3 l2 = cell * 2;
    l2[a] += face_positive(f) ? 2 : 0;
    l2[p] += pt.x;
    l2[q] += pt.y;
    const std::uint32_t light = pt == glm::ivec2(1, 1) ? average_light(corner_shade, 4)
                                                       : corner_shade[pt.x / 2 | (pt.y / 2) << 1].light;
    *out.vertex++ = (make_vertex(l2, normal, light, tex0, tex[1]));
  }
  out.triangle(base, base + 1, base + 2);
}

// shade_vertex for a cell corner, as padded-index steps from the cell: [corner][light side].
struct CornerSteps {
  int front, dp, dq;
  int corner, cp, cq;  // the front cell's corner at the vertex, the corner bits flipping along dp / dq
};
constexpr std::array<std::array<CornerSteps, kFaceCount>, kCornerCount> kCornerSteps = [] {
  std::array<std::array<CornerSteps, kFaceCount>, kCornerCount> t{};
  for (int c = 0; c < kCornerCount; ++c)
    for (int f = 0; f < kFaceCount; ++f) {
      const glm::ivec3 o = corner_offset(c);
      const int a = face_axis(f), p = side_axis_p(f), q = side_axis_q(f);
      t[std::size_t(c)][std::size_t(f)] = {(face_positive(f) ? o[a] : o[a] - 1) * kPadStride[a],
                                           o[p] ? kPadStride[p] : -kPadStride[p],
                                           o[q] ? kPadStride[q] : -kPadStride[q],
                                           front_corner(f, o[p], o[q]),
                                           kCornerAxisBit[p],
                                           kCornerAxisBit[q]};
    }
  return t;
}();

// The template corner (0..3) whose edge to the next corner runs along +merge_axis: corner 0 of a slope
// rectangle drawn alone or as a merged run, so both shade alike.
int run_start_corner(const PlaneTemplate& t) {
  int start = 0;
  for (int i = 0; i < 4; ++i) {
    const glm::ivec3 e =
        corner_offset(t.corners[std::size_t((i + 1) % 4)]) - corner_offset(t.corners[std::size_t(i)]);
    if (e[t.merge_axis] == 1) start = i;
  }
  return start;
}

// A run of equal slope rectangles along the template's merge axis: one quad reading the atlas, one record
// per cell. Quad corner 0 is the template corner whose edge to the next corner runs along +axis, so u
// runs along the axis and the winding stays counter-clockwise.
void emit_inner_run(const PaddedBlock& b, const std::uint8_t* flags, const Material* mats,
                    const PlaneTemplate& t, const LoosePolygon& poly, bool variation, MeshCursor& out) {
  const int axis = t.merge_axis, step = kPadStride[axis], run = poly.run;
  const std::uint32_t* ao = shape_lut().ao_corners.data();
  const int start = run_start_corner(t);
  int q[4];
  for (int k = 0; k < 4; ++k) q[k] = t.corners[std::size_t((start + k) % 4)];
  const std::uint32_t first = out.record_count();
  for (int j = 0; j < run; ++j) {
    const int cell = poly.cell + j * step;
    VertexShade c[4];
    for (int k = 0; k < 4; ++k) {
      const CornerSteps& st = kCornerSteps[std::size_t(q[k])][t.light_side];
      c[k] = shade_cells(b, flags, ao, cell + st.front, st.dp, st.dq, st.corner, st.cp, st.cq);
    }
    const auto tex = cell_textures(b, flags, mats, cell, t.light_side);
    const std::uint32_t meta = cell_uv(b, mats, cell, t.light_side, variation) << MYRIAD_VOXEL_META_UV_SHIFT |
                               choose_diagonal(c[0].ao, c[1].ao, c[2].ao, c[3].ao) << 7 |
                               ao_meta(c[0].ao, c[1].ao, c[2].ao, c[3].ao);
    *out.record++ = {c[0].light, c[1].light, c[2].light, c[3].light, tex[0], tex[1], meta};
  }
  const glm::ivec3 cell0 = pad_coord(poly.cell);
  const std::uint32_t base = out.vertex_count();
  for (int k = 0; k < 4; ++k) {
    glm::ivec3 lattice = cell0 + corner_offset(q[k]);
    lattice[axis] += (run - 1) * corner_offset(q[k])[axis];
    const std::uint32_t u = (k == 1 || k == 2) ? std::uint32_t(run) : 0u, v = k >= 2 ? 1u : 0u;
    *out.vertex++ =
        (make_vertex(lattice * 2, t.packed_normal, first, MYRIAD_VOXEL_ATLAS_MARKER | u << 16 | v << 24,
                     std::uint32_t(run) | 1u << 8));
  }
  push_quad_indices(out, base, 0);
}

void emit_inner_plane(const PaddedBlock& b, const std::uint8_t* flags, const Material* mats,
                      const PlaneTemplate& t, const LoosePolygon& poly, bool variation, MeshCursor& out) {
  if (poly.run > 1) return emit_inner_run(b, flags, mats, t, poly, variation, out);
  const std::uint32_t* occlusion = shape_lut().ao_corners.data();
  const glm::ivec3 cell = pad_coord(poly.cell);
  auto tex = cell_textures(b, flags, mats, poly.cell, t.light_side);
  tex[0] |= cell_uv_bits(b, mats, poly.cell, t.light_side, variation);
  const std::uint32_t base = out.vertex_count();
  if (t.count == 4) {
    // A slope rectangle: the same corner order as a merged run (emit_inner_run) and the same 0fps
    // diagonal choice, so a run drawn through the atlas shades exactly like its cells drawn alone.
    const int start = run_start_corner(t);
    int ao[4];
    for (int k = 0; k < 4; ++k) {
      const int corner = t.corners[std::size_t((start + k) % 4)];
      const CornerSteps& st = kCornerSteps[std::size_t(corner)][t.light_side];
      const VertexShade vs =
          shade_cells(b, flags, occlusion, poly.cell + st.front, st.dp, st.dq, st.corner, st.cp, st.cq);
      ao[k] = vs.ao;
      *out.vertex++ =
          (make_vertex((cell + corner_offset(corner)) * 2, t.packed_normal, vs.light, tex[0], tex[1]));
    }
    push_quad_indices(out, base, choose_diagonal(ao[0], ao[1], ao[2], ao[3]));
    return;
  }
  for (int i = 0; i < t.count; ++i) {
    const int corner = t.corners[std::size_t(i)];
    const CornerSteps& st = kCornerSteps[std::size_t(corner)][t.light_side];
    const VertexShade vs =
        shade_cells(b, flags, occlusion, poly.cell + st.front, st.dp, st.dq, st.corner, st.cp, st.cq);
    *out.vertex++ =
        (make_vertex((cell + corner_offset(corner)) * 2, t.packed_normal, vs.light, tex[0], tex[1]));
  }
  for (std::uint32_t i = 1; i + 1 < t.count; ++i) {
    out.triangle(base, base + i, base + i + 1);
  }
}

}  // namespace

void emit_mesh(const PaddedBlock& block, const MeshScratch& scratch, SectionMesh& out) {
  out.clear();
  const ShapeLut& lut = shape_lut();
  const std::uint8_t* flags = lut.shade_flags.data();
  // Exact sizes first: one allocation per buffer even for a cold, empty SectionMesh.
  std::size_t vertices = 4 * scratch.quads.size(), indices = 6 * scratch.quads.size(), records = 0;
  const bool atlas = scratch.mode == MeshMode::kAtlas;
  if (atlas)
    for (const MeshQuad& q : scratch.quads)
      if (q.len * q.height > 1) records += std::size_t(q.len) * q.height;
  for (const LoosePolygon& p : scratch.loose) {
    const std::size_t n = p.plane >= 0 ? lut.planes[std::size_t(p.plane)].count : 3;
    vertices += n;
    indices += 3 * (n - 2);
    if (p.run > 1) records += p.run;
  }
  vertices += 4 * scratch.model_faces.size();
  indices += 6 * scratch.model_faces.size();
  out.vertices.resize(vertices);
  out.indices.resize(indices);
  out.atlas.resize(records);
  MeshCursor cursor{out.vertices.data(), out.vertices.data(), out.indices.data(), out.atlas.data(),
                    out.atlas.data()};
  const Material* mats = materials().data();
  FrontWindow window;  // rewritten by each quad
  for (const MeshQuad& q : scratch.quads) {
    if (!atlas && q.len * q.height > 1)
      emit_plain_quad(block, flags, mats, q, scratch.tile_variation, cursor);
    else
      emit_quad(block, flags, mats, q, scratch.tile_variation, window, cursor);
  }
  out.quad_vertices = cursor.vertex_count();
  for (const LoosePolygon& p : scratch.loose) {
    if (p.plane >= 0)
      emit_inner_plane(block, flags, mats, lut.planes[std::size_t(p.plane)], p, scratch.tile_variation,
                       cursor);
    else
      emit_side_part(block, flags, mats, p, scratch.tile_variation, cursor);
  }
  write_model_faces(block, scratch.model_faces, cursor.vertex_count(), cursor.vertex, cursor.index);
  cursor.vertex += 4 * scratch.model_faces.size();
  cursor.index += 6 * scratch.model_faces.size();
  if (cursor.vertex != out.vertices.data() + vertices || cursor.index != out.indices.data() + indices ||
      cursor.record != out.atlas.data() + records)
    throw Error("emitted counts differ from the sizes computed before", "voxel::emit_mesh",
                "the size pass and the emitters disagree on a polygon kind");
  measure_bounds(out);
}

void measure_bounds(SectionMesh& mesh) {
  mesh.has_bounds = !mesh.vertices.empty();
  if (!mesh.has_bounds) return;
  std::array<float, 3> lo{mesh.vertices[0].px, mesh.vertices[0].py, mesh.vertices[0].pz}, hi = lo;
  for (const TerrainVertex& v : mesh.vertices) {
    lo = {std::min(lo[0], v.px), std::min(lo[1], v.py), std::min(lo[2], v.pz)};
    hi = {std::max(hi[0], v.px), std::max(hi[1], v.py), std::max(hi[2], v.pz)};
  }
  mesh.bounds_min = lo;
  mesh.bounds_max = hi;
}

}  // namespace myriad::voxel
