// Section mesher. Culling and merging work on bit rows (one u32 per padded row, SSE2 compares to build
// them, ctz walks to merge, as in binary greedy meshing); only cut shapes take the per-cell LUT path.
#include "myriad/voxel/mesher.hpp"

#include <bit>
#include <cstring>

#include <emmintrin.h>

#include "myriad/voxel/shade.hpp"
#include "myriad/voxel/shape.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint32_t kInner = 0xFFFFu;

// Mask layout per face axis: rows along R, bits along B (see MeshScratch::faces).
constexpr int kRowAxis[3] = {1, 2, 1};
constexpr int kBitAxis[3] = {2, 0, 0};

inline std::uint16_t* face_rows(MeshScratch& s, int face, int layer) {
  return s.faces.data() + (face * 16 + layer) * 16;
}

inline void set_face_bit(MeshScratch& s, int face, glm::ivec3 cell) {
  const int a = face_axis(face);
  std::uint16_t& row = face_rows(s, face, cell[a] - 1)[cell[kRowAxis[a]] - 1];
  row = std::uint16_t(row | 1u << (cell[kBitAxis[a]] - 1));
  s.face_layers[std::size_t(face)] = std::uint16_t(s.face_layers[std::size_t(face)] | 1u << (cell[a] - 1));
}

glm::ivec3 pad_coord(int index) { return {index % kPad, index / (kPad * kPad), index / kPad % kPad}; }

void build_rows(const PaddedBlock& b, MeshScratch& s) {
  const ShapeLut& lut = shape_lut();
  const std::uint8_t* form = b.form.data();
  const __m128i full = _mm_set1_epi8(char(0xFF));
  const __m128i zero = _mm_setzero_si128();
  s.partial_cells.clear();
  for (int py = 0; py < kPad; ++py)
    for (int pz = 0; pz < kPad; ++pz) {
      const int row = pad_index(0, py, pz);
      const __m128i f = _mm_loadu_si128(reinterpret_cast<const __m128i*>(form + row + 1));
      std::uint32_t cube = std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(f, full))) << 1;
      std::uint32_t nonzero = (~std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(f, zero))) & kInner) << 1;
      const std::uint8_t f0 = form[row], f17 = form[row + kPad - 1];
      cube |= std::uint32_t(f0 == kFormFull) | std::uint32_t(f17 == kFormFull) << (kPad - 1);
      nonzero |= std::uint32_t(f0 != kFormEmpty) | std::uint32_t(f17 != kFormEmpty) << (kPad - 1);
      std::uint32_t candidates = nonzero & ~cube;
      std::uint32_t partial = 0;
      while (candidates) {
        const int px = std::countr_zero(candidates);
        candidates &= candidates - 1;
        if (!lut.shapes[form[row + px]].solid) continue;
        partial |= 1u << px;
        s.partial_cells.push_back(std::uint16_t(row + px));
      }
      s.cube_rows[std::size_t(py * kPad + pz)] = cube;
      s.partial_rows[std::size_t(py * kPad + pz)] = partial;
    }
}

// Stores the 16 x 16 bit transpose of `rows` (bit b of rows[r]) as out[b * stride] (bit r): SSE2, the low and
// high bytes of the rows packed into one register each, then one movemask per bit with doubling shifts.
inline void store_transposed(const std::uint16_t* rows, std::uint16_t* out, int stride) {
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + 8));
  const __m128i low = _mm_set1_epi16(0xFF);
  __m128i lo = _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low));
  __m128i hi = _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8));
  for (int bit = 7; bit >= 0; --bit) {
    out[bit * stride] = std::uint16_t(_mm_movemask_epi8(lo));
    out[(bit + 8) * stride] = std::uint16_t(_mm_movemask_epi8(hi));
    lo = _mm_add_epi8(lo, lo);
    hi = _mm_add_epi8(hi, hi);
  }
}

// Full faces of full cubes against cells with no geometry; faces touching cut shapes come later.
// kPartials = false when the block holds no cut shape (partial_rows all zero): the common all-cube case.
template <bool kPartials>
void cull_cubes(MeshScratch& s) {
  // No clearing: merge_faces leaves every face row zero, and rows skipped here are zero already.
  const std::uint32_t* cube = s.cube_rows.data();
  const std::uint32_t* part = s.partial_rows.data();
  std::uint16_t* faces = s.faces.data();
  auto solid = [&](int i) { return kPartials ? cube[i] | part[i] : cube[i]; };
  auto rows = [&](int face, int layer) { return faces + (face * 16 + layer) * 16; };
  // Layers holding faces (locals: the u16 face rows would alias the u16 face_layers in memory).
  std::uint32_t layers_pos_y = 0, layers_neg_y = 0, layers_pos_z = 0, layers_neg_z = 0;
  std::uint32_t layers_pos_x = 0, layers_neg_x = 0;
  alignas(16) std::uint16_t pos_x[16], neg_x[16];  // X faces of one y layer: [z], bit x
  for (int y = 1; y <= kSectionSize; ++y) {
    std::uint32_t any_pos_y = 0, any_neg_y = 0, any_pos_x = 0, any_neg_x = 0;
    for (int z = 1; z <= kSectionSize; ++z) {
      const int i = y * kPad + z;
      const std::uint32_t c = cube[i];
      if (!c) {
        pos_x[z - 1] = neg_x[z - 1] = 0;
        continue;
      }
      const std::uint32_t up = solid(i + kPad), down = solid(i - kPad);
      const std::uint32_t north = solid(i + 1), south = solid(i - 1);
      const std::uint32_t pos_y = (c & ~up) >> 1 & kInner, neg_y = (c & ~down) >> 1 & kInner;
      const std::uint32_t pos_z = (c & ~north) >> 1 & kInner, neg_z = (c & ~south) >> 1 & kInner;
      rows(kPosY, y - 1)[z - 1] = std::uint16_t(pos_y);
      rows(kNegY, y - 1)[z - 1] = std::uint16_t(neg_y);
      rows(kPosZ, z - 1)[y - 1] = std::uint16_t(pos_z);
      rows(kNegZ, z - 1)[y - 1] = std::uint16_t(neg_z);
      any_pos_y |= pos_y;
      any_neg_y |= neg_y;
      layers_pos_z |= std::uint32_t(pos_z != 0) << (z - 1);
      layers_neg_z |= std::uint32_t(neg_z != 0) << (z - 1);
      // X faces: the neighbour is the next bit; transposed to layer x, row y, bit z below.
      const std::uint32_t sol = solid(i);
      const std::uint32_t px = (c & ~(sol >> 1)) >> 1 & kInner, nx = (c & ~(sol << 1)) >> 1 & kInner;
      pos_x[z - 1] = std::uint16_t(px);
      neg_x[z - 1] = std::uint16_t(nx);
      any_pos_x |= px;
      any_neg_x |= nx;
    }
    layers_pos_y |= std::uint32_t(any_pos_y != 0) << (y - 1);
    layers_neg_y |= std::uint32_t(any_neg_y != 0) << (y - 1);
    layers_pos_x |= any_pos_x;
    layers_neg_x |= any_neg_x;
    if (any_pos_x) store_transposed(pos_x, rows(kPosX, 0) + (y - 1), 16);
    if (any_neg_x) store_transposed(neg_x, rows(kNegX, 0) + (y - 1), 16);
  }
  s.face_layers[kPosY] = std::uint16_t(s.face_layers[kPosY] | layers_pos_y);
  s.face_layers[kNegY] = std::uint16_t(s.face_layers[kNegY] | layers_neg_y);
  s.face_layers[kPosZ] = std::uint16_t(s.face_layers[kPosZ] | layers_pos_z);
  s.face_layers[kNegZ] = std::uint16_t(s.face_layers[kNegZ] | layers_neg_z);
  s.face_layers[kPosX] = std::uint16_t(s.face_layers[kPosX] | layers_pos_x);
  s.face_layers[kNegX] = std::uint16_t(s.face_layers[kNegX] | layers_neg_x);
}

// Branch-free (unsigned wrap-around): cut shapes sit at random places, so these tests mispredict as branches.
inline bool inner_cell(glm::ivec3 c) {
  static_assert(kSectionSize == 16, "the or-trick needs a power-of-two bound");
  return (unsigned(c.x - 1) | unsigned(c.y - 1) | unsigned(c.z - 1)) < unsigned(kSectionSize);
}
inline bool padded_cell(glm::ivec3 c) {
  return (unsigned(c.x) < unsigned(kPad)) & (unsigned(c.y) < unsigned(kPad)) &
         (unsigned(c.z) < unsigned(kPad));
}

// Cut shapes: their own sides and inner planes, and the sides of inner cubes that touch them.
void cull_partials(const PaddedBlock& b, MeshScratch& s, bool merge) {
  const ShapeLut& lut = shape_lut();
  const std::uint8_t* form = b.form.data();
  for (const std::uint16_t index : s.partial_cells) {
    const glm::ivec3 cell = pad_coord(index);
    const ShapeInfo& shape = lut.shapes[form[index]];
    const bool own = inner_cell(cell);
    for (int f = 0; f < kFaceCount; ++f) {
      const glm::ivec3 n = cell + face_direction(f);
      if (!padded_cell(n)) continue;
      const std::uint8_t nform = form[pad_index(n)];
      const std::uint8_t theirs = lut.shapes[nform].side_quarters[std::size_t(opposite(f))];
      // The full cube across side f: its side opposite(f) minus what this cut shape covers.
      if (nform == kFormFull && inner_cell(n)) {
        const std::uint8_t vis = std::uint8_t(kQuartersFull & ~shape.side_quarters[std::size_t(f)]);
        if (vis == kQuartersFull)
          set_face_bit(s, opposite(f), n);
        else if (vis)
          s.loose.push_back({std::uint16_t(pad_index(n)), -1, std::uint8_t(opposite(f)), vis, 1});
      }
      if (!own) continue;
      const std::uint8_t mine = shape.side_quarters[std::size_t(f)];
      const std::uint8_t vis = std::uint8_t(mine & ~theirs);
      if (vis == kQuartersFull)
        set_face_bit(s, f, cell);
      else if (vis)
        s.loose.push_back({index, -1, std::uint8_t(f), vis, 1});
    }
    if (!own) continue;
    for (int i = 0; i < shape.inner_count; ++i) {
      const int plane = shape.first_plane + shape.outer_count + i;
      const int axis = lut.planes[std::size_t(plane)].merge_axis;
      std::uint8_t run = 1;
      if (merge && axis >= 0) {
        // Slope rectangles of equal shapes in a row along their edge axis are one plane: the first cell
        // of the run emits it, the others nothing (the atlas keeps their light and textures).
        const int step = kPadStride[axis];
        if (cell[axis] > 1 && form[index - step] == form[index]) continue;
        while (cell[axis] + run <= kSectionSize && form[index + run * step] == form[index]) ++run;
      }
      s.loose.push_back({index, std::int16_t(plane), 0, 0, run});
    }
  }
}

// Bit r set when rows[r] (16 rows) is non-zero: SSE2 compare, pack to bytes, movemask.
inline std::uint32_t nonzero_rows(const std::uint16_t* rows) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i a = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows)), zero);
  const __m128i b = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + 8)), zero);
  return ~std::uint32_t(_mm_movemask_epi8(_mm_packs_epi16(a, b))) & kInner;
}

template <bool kMerge>
void merge_faces(MeshScratch& s) {
  for (int f = 0; f < kFaceCount; ++f) {
    std::uint32_t layers = s.face_layers[std::size_t(f)];
    s.face_layers[std::size_t(f)] = 0;
    while (layers) {
      const int layer = std::countr_zero(layers);
      layers &= layers - 1;
      std::uint16_t* rows = face_rows(s, f, layer);
      // Only the rows that start with faces; merging only removes bits, so the others stay empty.
      std::uint32_t live = nonzero_rows(rows);
      while (live) {
        const int r = std::countr_zero(live);
        live &= live - 1;
        std::uint32_t m = rows[r];
        while (m) {
          const int start = std::countr_zero(m);
          const int len = kMerge ? std::countr_zero(~(m >> start)) : 1;
          const std::uint32_t run = ((1u << len) - 1u) << start;
          m &= ~run;
          int h = 1;
          if (kMerge)
            while (r + h < kSectionSize && (rows[r + h] & run) == run) {
              rows[r + h] = std::uint16_t(rows[r + h] & ~run);
              ++h;
            }
          s.quads.push_back({std::uint8_t(f), std::uint8_t(layer), std::uint8_t(r), std::uint8_t(start),
                             std::uint8_t(len), std::uint8_t(h)});
        }
      }
      // Every face of the layer is now in a quad: leave the rows zero for the next section.
      _mm_storeu_si128(reinterpret_cast<__m128i*>(rows), _mm_setzero_si128());
      _mm_storeu_si128(reinterpret_cast<__m128i*>(rows + 8), _mm_setzero_si128());
    }
  }
}

// --- emission ---------------------------------------------------------------------------------------

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

inline void push_quad_indices(std::vector<std::uint32_t>& idx, std::uint32_t base, std::uint32_t diagonal) {
  const std::size_t n = idx.size();
  idx.resize(n + 6);
  std::uint32_t* t = idx.data() + n;
  if (diagonal) {
    t[0] = base, t[1] = base + 1, t[2] = base + 3, t[3] = base + 1, t[4] = base + 2, t[5] = base + 3;
  } else {
    t[0] = base, t[1] = base + 1, t[2] = base + 2, t[3] = base, t[4] = base + 2, t[5] = base + 3;
  }
}

// 0fps: split along the diagonal whose corners have the larger AO sum (ties: 0-2).
inline std::uint32_t choose_diagonal(int a0, int a1, int a2, int a3) { return a1 + a3 > a0 + a2 ? 1u : 0u; }

void emit_quad(const PaddedBlock& b, const std::uint8_t* flags, const Material* mats, const MeshQuad& q,
               SectionMesh& out) {
  const int f = q.face, a = face_axis(f), u = quad_axis_u(f), v = quad_axis_v(f);
  glm::ivec3 origin, size{1, 1, 1};
  origin[a] = q.layer + 1;
  origin[kRowAxis[a]] = q.row + 1;
  origin[kBitAxis[a]] = q.bit + 1;
  size[kRowAxis[a]] = q.height;
  size[kBitAxis[a]] = q.len;
  const int w = size[u], h = size[v];
  const int su = kPadStride[u], sv = kPadStride[v];
  const int origin_index = pad_index(origin);
  const int front_step = face_positive(f) ? kPadStride[a] : -kPadStride[a];
  // Shade every lattice point of the quad once: when no cell in front of the quad occludes, all cells
  // sharing a point see the same AO and light. (A front cell can occlude: e.g. a full bottom with two
  // diagonal top corners has no polygon on its top side but 2/3 of a cube; then shade per cell.)
  bool shared = true;
  for (int j = 0; j < h && shared; ++j)
    for (int i = 0; i < w; ++i)
      if (flags[b.form[std::size_t(origin_index + i * su + j * sv + front_step)]] & kShadeOccluder)
        shared = false;
  VertexShade shade[17 * 17];
  if (shared)
    for (int j = 0; j <= h; ++j) {
      const int cj = j < h ? j : h - 1;
      for (int i = 0; i <= w; ++i) {
        const int ci = i < w ? i : w - 1;
        const int front = origin_index + ci * su + cj * sv + front_step;
        shade[j * 17 + i] = shade_cells(b, flags, front, i == ci ? -su : su, j == cj ? -sv : sv);
      }
    }
  auto corner_shade = [&](int i, int j, int k) -> VertexShade {
    if (shared) return shade[(j + kCornerV[k]) * 17 + i + kCornerU[k]];
    const int front = origin_index + i * su + j * sv + front_step;
    return shade_cells(b, flags, front, kCornerU[k] ? su : -su, kCornerV[k] ? sv : -sv);
  };
  const std::uint32_t normal = face_normal(f);
  const std::uint32_t base = std::uint32_t(out.vertices.size());
  const float plane = float(origin[a] + (face_positive(f) ? 1 : 0) - 1);
  auto push_corner = [&](int k, std::uint32_t light, std::uint32_t tex01, std::uint32_t tex23) {
    TerrainVertex vert{0.0f, 0.0f, 0.0f, normal, light, tex01, tex23};
    float* pos = &vert.px;
    pos[a] = plane;
    pos[u] = float(origin[u] - 1 + kCornerU[k] * w);
    pos[v] = float(origin[v] - 1 + kCornerV[k] * h);
    out.vertices.push_back(vert);
  };
  if (w * h == 1) {
    const auto tex = cell_textures(b, flags, mats, origin_index, f);
    for (int k = 0; k < 4; ++k) push_corner(k, corner_shade(0, 0, k).light, tex[0], tex[1]);
    push_quad_indices(out.indices, base,
                      choose_diagonal(corner_shade(0, 0, 0).ao, corner_shade(0, 0, 1).ao,
                                      corner_shade(0, 0, 2).ao, corner_shade(0, 0, 3).ao));
    return;
  }
  const std::uint32_t first = std::uint32_t(out.atlas.size());
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) {
      const VertexShade c0 = corner_shade(i, j, 0), c1 = corner_shade(i, j, 1);
      const VertexShade c2 = corner_shade(i, j, 2), c3 = corner_shade(i, j, 3);
      const auto tex = cell_textures(b, flags, mats, origin_index + i * su + j * sv, f);
      const std::uint32_t meta = 0xFu | kUvTransform[f] << 4 |
                                 choose_diagonal(c0.ao, c1.ao, c2.ao, c3.ao) << 7 |
                                 std::uint32_t(c0.ao | c1.ao << 2 | c2.ao << 4 | c3.ao << 6) << 8;
      out.atlas.push_back({c0.light, c1.light, c2.light, c3.light, tex[0], tex[1], meta});
    }
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t tex01 = MYRIAD_VOXEL_ATLAS_MARKER | std::uint32_t(kCornerU[k] * w) << 16 |
                                std::uint32_t(kCornerV[k] * h) << 24;
    push_corner(k, first, tex01, std::uint32_t(w | h << 8));
  }
  push_quad_indices(out.indices, base, 0);
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
                    const LoosePolygon& poly, SectionMesh& out) {
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
  for (int c = 0; c < 4; ++c)
    corner_shade[c] = shade_cells(b, flags, front, (c & 1) ? kPadStride[p] : -kPadStride[p],
                                  (c >> 1) ? kPadStride[q] : -kPadStride[q]);
  const auto tex = cell_textures(b, flags, mats, poly.cell, f);
  const std::uint32_t normal = face_normal(f);
  const std::uint32_t base = std::uint32_t(out.vertices.size());
  for (const glm::ivec2 pt : pts) {
    glm::ivec3 l2 = cell * 2;
    l2[a] += face_positive(f) ? 2 : 0;
    l2[p] += pt.x;
    l2[q] += pt.y;
    const std::uint32_t light = pt == glm::ivec2(1, 1) ? average_light(corner_shade, 4)
                                                       : corner_shade[pt.x / 2 | (pt.y / 2) << 1].light;
    out.vertices.push_back(make_vertex(l2, normal, light, tex[0], tex[1]));
  }
  const std::uint32_t t[3] = {base, base + 1, base + 2};
  out.indices.insert(out.indices.end(), t, t + 3);
}

// shade_vertex for a cell corner, as padded-index steps from the cell: [corner][light side].
struct CornerSteps {
  int front, dp, dq;
};
constexpr std::array<std::array<CornerSteps, kFaceCount>, kCornerCount> kCornerSteps = [] {
  std::array<std::array<CornerSteps, kFaceCount>, kCornerCount> t{};
  for (int c = 0; c < kCornerCount; ++c)
    for (int f = 0; f < kFaceCount; ++f) {
      const glm::ivec3 o = corner_offset(c);
      const int a = face_axis(f), p = side_axis_p(f), q = side_axis_q(f);
      t[std::size_t(c)][std::size_t(f)] = {(face_positive(f) ? o[a] : o[a] - 1) * kPadStride[a],
                                           o[p] ? kPadStride[p] : -kPadStride[p],
                                           o[q] ? kPadStride[q] : -kPadStride[q]};
    }
  return t;
}();

// A run of equal slope rectangles along the template's merge axis: one quad reading the atlas, one record
// per cell. Quad corner 0 is the template corner whose edge to the next corner runs along +axis, so u
// runs along the axis and the winding stays counter-clockwise.
void emit_inner_run(const PaddedBlock& b, const std::uint8_t* flags, const Material* mats,
                    const PlaneTemplate& t, const LoosePolygon& poly, SectionMesh& out) {
  const int axis = t.merge_axis, step = kPadStride[axis], run = poly.run;
  int start = 0;
  for (int i = 0; i < 4; ++i) {
    const glm::ivec3 e =
        corner_offset(t.corners[std::size_t((i + 1) % 4)]) - corner_offset(t.corners[std::size_t(i)]);
    if (e[axis] == 1) start = i;
  }
  int q[4];
  for (int k = 0; k < 4; ++k) q[k] = t.corners[std::size_t((start + k) % 4)];
  const std::uint32_t first = std::uint32_t(out.atlas.size());
  for (int j = 0; j < run; ++j) {
    const int cell = poly.cell + j * step;
    VertexShade c[4];
    for (int k = 0; k < 4; ++k) {
      const CornerSteps& st = kCornerSteps[std::size_t(q[k])][t.light_side];
      c[k] = shade_cells(b, flags, cell + st.front, st.dp, st.dq);
    }
    const auto tex = cell_textures(b, flags, mats, cell, t.light_side);
    const std::uint32_t meta = 0xFu | choose_diagonal(c[0].ao, c[1].ao, c[2].ao, c[3].ao) << 7 |
                               std::uint32_t(c[0].ao | c[1].ao << 2 | c[2].ao << 4 | c[3].ao << 6) << 8;
    out.atlas.push_back({c[0].light, c[1].light, c[2].light, c[3].light, tex[0], tex[1], meta});
  }
  const glm::ivec3 cell0 = pad_coord(poly.cell);
  const std::uint32_t base = std::uint32_t(out.vertices.size());
  for (int k = 0; k < 4; ++k) {
    glm::ivec3 lattice = cell0 + corner_offset(q[k]);
    lattice[axis] += (run - 1) * corner_offset(q[k])[axis];
    const std::uint32_t u = (k == 1 || k == 2) ? std::uint32_t(run) : 0u, v = k >= 2 ? 1u : 0u;
    out.vertices.push_back(make_vertex(lattice * 2, t.packed_normal, first,
                                       MYRIAD_VOXEL_ATLAS_MARKER | u << 16 | v << 24,
                                       std::uint32_t(run) | 1u << 8));
  }
  push_quad_indices(out.indices, base, 0);
}

void emit_inner_plane(const PaddedBlock& b, const std::uint8_t* flags, const Material* mats,
                      const PlaneTemplate& t, const LoosePolygon& poly, SectionMesh& out) {
  if (poly.run > 1) return emit_inner_run(b, flags, mats, t, poly, out);
  const glm::ivec3 cell = pad_coord(poly.cell);
  const auto tex = cell_textures(b, flags, mats, poly.cell, t.light_side);
  const std::uint32_t base = std::uint32_t(out.vertices.size());
  if (t.count == 4) {
    // A slope rectangle: the same corner order as a merged run (emit_inner_run) and the same 0fps
    // diagonal choice, so a run drawn through the atlas shades exactly like its cells drawn alone.
    const int axis = t.merge_axis;
    int start = 0;
    for (int i = 0; i < 4; ++i) {
      const glm::ivec3 e =
          corner_offset(t.corners[std::size_t((i + 1) % 4)]) - corner_offset(t.corners[std::size_t(i)]);
      if (e[axis] == 1) start = i;
    }
    int ao[4];
    for (int k = 0; k < 4; ++k) {
      const int corner = t.corners[std::size_t((start + k) % 4)];
      const CornerSteps& st = kCornerSteps[std::size_t(corner)][t.light_side];
      const VertexShade vs = shade_cells(b, flags, poly.cell + st.front, st.dp, st.dq);
      ao[k] = vs.ao;
      out.vertices.push_back(
          make_vertex((cell + corner_offset(corner)) * 2, t.packed_normal, vs.light, tex[0], tex[1]));
    }
    push_quad_indices(out.indices, base, choose_diagonal(ao[0], ao[1], ao[2], ao[3]));
    return;
  }
  for (int i = 0; i < t.count; ++i) {
    const int corner = t.corners[std::size_t(i)];
    const CornerSteps& st = kCornerSteps[std::size_t(corner)][t.light_side];
    const VertexShade vs = shade_cells(b, flags, poly.cell + st.front, st.dp, st.dq);
    out.vertices.push_back(
        make_vertex((cell + corner_offset(corner)) * 2, t.packed_normal, vs.light, tex[0], tex[1]));
  }
  for (std::uint32_t i = 1; i + 1 < t.count; ++i) {
    const std::uint32_t tri[3] = {base, base + i, base + i + 1};
    out.indices.insert(out.indices.end(), tri, tri + 3);
  }
}

}  // namespace

void cull_and_merge(const PaddedBlock& block, MeshScratch& scratch, bool merge) {
  scratch.quads.clear();
  scratch.loose.clear();
  build_rows(block, scratch);
  if (scratch.partial_cells.empty()) {
    cull_cubes<false>(scratch);
  } else {
    cull_cubes<true>(scratch);
    cull_partials(block, scratch, merge);
  }
  if (merge)
    merge_faces<true>(scratch);
  else
    merge_faces<false>(scratch);
}

void emit_mesh(const PaddedBlock& block, const MeshScratch& scratch, SectionMesh& out) {
  out.clear();
  const ShapeLut& lut = shape_lut();
  const std::uint8_t* flags = lut.shade_flags.data();
  // Exact sizes first: one allocation per buffer even for a cold, empty SectionMesh.
  std::size_t vertices = 4 * scratch.quads.size(), indices = 6 * scratch.quads.size(), records = 0;
  for (const MeshQuad& q : scratch.quads)
    if (q.len * q.height > 1) records += std::size_t(q.len) * q.height;
  for (const LoosePolygon& p : scratch.loose) {
    const std::size_t n = p.plane >= 0 ? lut.planes[std::size_t(p.plane)].count : 3;
    vertices += n;
    indices += 3 * (n - 2);
    if (p.run > 1) records += p.run;
  }
  out.vertices.reserve(vertices);
  out.indices.reserve(indices);
  out.atlas.reserve(records);
  const Material* mats = materials().data();
  for (const MeshQuad& q : scratch.quads) emit_quad(block, flags, mats, q, out);
  out.quad_vertices = std::uint32_t(out.vertices.size());
  for (const LoosePolygon& p : scratch.loose) {
    if (p.plane >= 0)
      emit_inner_plane(block, flags, mats, lut.planes[std::size_t(p.plane)], p, out);
    else
      emit_side_part(block, flags, mats, p, out);
  }
}

void mesh_section(const World& world, glm::ivec3 section, const MeshOptions& options, MeshScratch& scratch,
                  SectionMesh& out) {
  const bool solid_floor = !options.world_bottom_faces;
  if (section_is_air(world, section) || section_is_buried(world, section, solid_floor)) {
    out.clear();
    return;
  }
  gather_padded(world, section, scratch.block, solid_floor);
  cull_and_merge(scratch.block, scratch, options.merge);
  emit_mesh(scratch.block, scratch, out);
}

}  // namespace myriad::voxel
