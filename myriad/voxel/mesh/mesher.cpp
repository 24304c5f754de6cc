// Section mesher. Culling and merging work on bit rows (one u32 per padded row, SSE2 compares to build
// them, ctz walks to merge, as in binary greedy meshing); only cut shapes take the per-cell LUT path.
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/mesh/mesh_models.hpp"

#include <bit>
#include <cstring>

#include <emmintrin.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/mesh/shade.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint32_t kInner = 0xFFFFu;

inline std::uint16_t* face_rows(MeshScratch& s, int face, int layer) {
  return s.faces.data() + (face * 16 + layer) * 16;
}

inline void set_face_bit(MeshScratch& s, int face, glm::ivec3 cell) {
  const int a = face_axis(face);
  std::uint16_t& row = face_rows(s, face, cell[a] - 1)[cell[kQuadRowAxis[a]] - 1];
  row = std::uint16_t(row | 1u << (cell[kQuadBitAxis[a]] - 1));
  s.face_layers[std::size_t(face)] = std::uint16_t(s.face_layers[std::size_t(face)] | 1u << (cell[a] - 1));
}

constexpr std::uint32_t kPadRow = (1u << kPad) - 1u;

// Full-cube bits and "empty or full cube" bits of the 18-byte row at p (SSE2): bytes 0-15 and 2-17, two
// overlapping loads that cover the row without scalar edges.
inline void row_masks(const std::uint8_t* p, std::uint32_t& cube, std::uint32_t& ends) {
  const __m128i full = _mm_set1_epi8(char(0xFF));
  const __m128i fa = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i fb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2));
  const __m128i full_a = _mm_cmpeq_epi8(fa, full), full_b = _mm_cmpeq_epi8(fb, full);
  const __m128i ends_a = _mm_or_si128(full_a, _mm_cmpeq_epi8(fa, _mm_setzero_si128()));
  const __m128i ends_b = _mm_or_si128(full_b, _mm_cmpeq_epi8(fb, _mm_setzero_si128()));
  auto row_bits = [](__m128i lo, __m128i hi) {  // bits 0-15 from lo, 16-17 from bytes 14-15 of hi
    return std::uint32_t(_mm_movemask_epi8(lo)) | (std::uint32_t(_mm_movemask_epi8(hi)) & 0xC000u) << 2;
  };
  cube = row_bits(full_a, full_b);
  ends = row_bits(ends_a, ends_b);
}

// Stores row r's masks; cells that are neither empty nor a full cube and have geometry are cut shapes.
inline void record_row(const ShapeLut& lut, const std::uint8_t* form, int r, std::uint32_t cube,
                       std::uint32_t ends, MeshScratch& s) {
  const int row = r * kPad;  // pad_index(0, py, pz) for r = py * kPad + pz
  std::uint32_t candidates = ~ends & kPadRow;
  std::uint32_t partial = 0;
  while (candidates) {
    const int px = std::countr_zero(candidates);
    candidates &= candidates - 1;
    if (!lut.shapes[form[row + px]].solid) continue;
    partial |= 1u << px;
    s.partial_cells.push_back(std::uint16_t(row + px));
  }
  s.cube_rows[std::size_t(r)] = cube & kPadRow;
  s.partial_rows[std::size_t(r)] = partial;
}

void build_rows(const PaddedBlock& b, MeshScratch& s) {
  const ShapeLut& lut = shape_lut();
  const std::uint8_t* form = b.form.data();
  s.partial_cells.clear();
  for (int r = 0; r < kPad * kPad; ++r) {
    std::uint32_t cube, ends;
    row_masks(form + r * kPad, cube, ends);
    record_row(lut, form, r, cube, ends, s);
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// build_rows with one 32-byte AVX2 load per row (the row and 14 bytes of the next; their bits are
// dropped), half the instructions of the SSE2 form; the last rows, whose load would pass the end of the
// block, take the SSE2 form.
__attribute__((target("avx2"))) void build_rows_avx2(const PaddedBlock& b, MeshScratch& s) {
  const ShapeLut& lut = shape_lut();
  const std::uint8_t* form = b.form.data();
  const __m256i full = _mm256_set1_epi8(char(0xFF));
  s.partial_cells.clear();
  constexpr int kWideRows = (kPadCells - 32) / kPad + 1;  // rows r with r * kPad + 32 <= kPadCells
  for (int r = 0; r < kWideRows; ++r) {
    const __m256i f = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(form + r * kPad));
    const __m256i is_full = _mm256_cmpeq_epi8(f, full);
    const std::uint32_t cube = std::uint32_t(_mm256_movemask_epi8(is_full));
    const std::uint32_t ends = std::uint32_t(
        _mm256_movemask_epi8(_mm256_or_si256(is_full, _mm256_cmpeq_epi8(f, _mm256_setzero_si256()))));
    record_row(lut, form, r, cube, ends, s);
  }
  for (int r = kWideRows; r < kPad * kPad; ++r) {
    std::uint32_t cube, ends;
    row_masks(form + r * kPad, cube, ends);
    record_row(lut, form, r, cube, ends, s);
  }
}

bool avx2_available() {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return available;
}
#else
void build_rows_avx2(const PaddedBlock& b, MeshScratch& s) { build_rows(b, s); }
bool avx2_available() { return false; }
#endif

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

// Four u32 lanes (each below 2^16) to the low four u16 lanes: sign-extend from 16 bits, then the signed pack
// saturates nothing (SSE2 has no unsigned 32-to-16 pack).
inline __m128i pack_u16(__m128i lo, __m128i hi) {
  return _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(lo, 16), 16),
                         _mm_srai_epi32(_mm_slli_epi32(hi, 16), 16));
}

// Packs 16 rows (u32 below 2^16, four per vector) to u16 rows at dst. Returns bit z set when row z is
// non-zero; any_bits, when given, receives the OR of the rows.
inline std::uint32_t store_rows(std::uint16_t* dst, const __m128i v[4], std::uint32_t* any_bits = nullptr) {
  const __m128i lo = pack_u16(v[0], v[1]), hi = pack_u16(v[2], v[3]);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), lo);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 8), hi);
  if (any_bits) {
    __m128i o = _mm_or_si128(lo, hi);
    o = _mm_or_si128(o, _mm_srli_si128(o, 8));
    o = _mm_or_si128(o, _mm_srli_si128(o, 4));
    o = _mm_or_si128(o, _mm_srli_si128(o, 2));
    *any_bits = std::uint32_t(_mm_cvtsi128_si32(o)) & kInner;
  }
  const __m128i zero = _mm_setzero_si128();
  return ~std::uint32_t(
             _mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(lo, zero), _mm_cmpeq_epi16(hi, zero)))) &
         kInner;
}

// Full faces of full cubes against cells with no geometry; faces touching cut shapes come later.
// kPartials = false when the block holds no cut shape (partial_rows all zero): the common all-cube case.
// The 16 rows z = 1..16 of a y layer lie side by side in cube_rows, as do their neighbours above, below,
// north and south (one row over), so a layer is four SSE2 vectors of four rows: no per-row branch.
template <bool kPartials>
void cull_cubes(MeshScratch& s) {
  // No clearing: merge_faces leaves every face row zero, and layers skipped here are zero already.
  const std::uint32_t* cube = s.cube_rows.data();
  const std::uint32_t* part = s.partial_rows.data();
  std::uint16_t* faces = s.faces.data();
  auto load = [](const std::uint32_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
  auto solid = [&](int i) {
    return kPartials ? _mm_or_si128(load(cube + i), load(part + i)) : load(cube + i);
  };
  auto rows = [&](int face, int layer) { return faces + (face * 16 + layer) * 16; };
  const __m128i inner = _mm_set1_epi32(kInner);
  // Face bits of a cube row c against neighbour row n: c & ~n, shifted to inner coordinates.
  auto visible = [&](__m128i c, __m128i n) {
    return _mm_and_si128(_mm_srli_epi32(_mm_andnot_si128(n, c), 1), inner);
  };
  // Layers holding faces (locals: the u16 face rows would alias the u16 face_layers in memory).
  std::uint32_t layers_pos_y = 0, layers_neg_y = 0, layers_pos_z = 0, layers_neg_z = 0;
  std::uint32_t layers_pos_x = 0, layers_neg_x = 0;
  alignas(16) std::uint16_t pos_z[16], neg_z[16];  // Z faces of one y layer: [z], bit x
  alignas(16) std::uint16_t pos_x[16], neg_x[16];  // X faces of one y layer: [z], bit x
  for (int y = 1; y <= kSectionSize; ++y) {
    const int first = y * kPad + 1;
    __m128i c[4];
    for (int g = 0; g < 4; ++g) c[g] = load(cube + first + 4 * g);
    const __m128i any_cube = _mm_or_si128(_mm_or_si128(c[0], c[1]), _mm_or_si128(c[2], c[3]));
    if (_mm_movemask_epi8(_mm_cmpeq_epi32(any_cube, _mm_setzero_si128())) == 0xFFFF) continue;
    __m128i py[4], ny[4], pz[4], nz[4], px[4], nx[4];
    for (int g = 0; g < 4; ++g) {
      const int i = first + 4 * g;
      py[g] = visible(c[g], solid(i + kPad));
      ny[g] = visible(c[g], solid(i - kPad));
      pz[g] = visible(c[g], solid(i + 1));
      nz[g] = visible(c[g], solid(i - 1));
      // X faces: the neighbour is the next bit; transposed to layer x, row y, bit z below.
      const __m128i sol = solid(i);
      px[g] = visible(c[g], _mm_srli_epi32(sol, 1));
      nx[g] = visible(c[g], _mm_slli_epi32(sol, 1));
    }
    layers_pos_y |= std::uint32_t(store_rows(rows(kPosY, y - 1), py) != 0) << (y - 1);
    layers_neg_y |= std::uint32_t(store_rows(rows(kNegY, y - 1), ny) != 0) << (y - 1);
    // Z faces go to layer z, row y: one u16 store per z.
    layers_pos_z |= store_rows(pos_z, pz);
    layers_neg_z |= store_rows(neg_z, nz);
    for (int z = 0; z < 16; ++z) {
      rows(kPosZ, z)[y - 1] = pos_z[z];
      rows(kNegZ, z)[y - 1] = neg_z[z];
    }
    std::uint32_t any_pos_x = 0, any_neg_x = 0;
    store_rows(pos_x, px, &any_pos_x);
    store_rows(neg_x, nx, &any_neg_x);
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

// Greedy growth of the run `run` of row r upward: the rows r + 1, r + 2, ... that hold the whole run,
// found for all 16 rows at once (SSE2 compare, movemask, ctz) instead of a row-by-row loop whose exit
// mispredicts for nearly every quad; their run bits are then cleared in place. Returns the height.
inline int extend_run(std::uint16_t* rows, int r, std::uint32_t run) {
  const __m128i runs = _mm_set1_epi16(static_cast<short>(run));
  __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows));
  __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + 8));
  const __m128i has_a = _mm_cmpeq_epi16(_mm_and_si128(a, runs), runs);
  const __m128i has_b = _mm_cmpeq_epi16(_mm_and_si128(b, runs), runs);
  const std::uint32_t has = std::uint32_t(_mm_movemask_epi8(_mm_packs_epi16(has_a, has_b)));
  const int h = 1 + std::countr_zero(~(has >> (r + 1)));
  if (h == 1) return 1;
  // Rows r + 1 .. r + h - 1 as lane masks: lane k tests bit k of `grown`.
  const std::uint32_t grown = ((1u << (h - 1)) - 1u) << (r + 1);
  const __m128i bits_a = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
  const __m128i bits_b = _mm_slli_epi16(bits_a, 8);
  const __m128i g = _mm_set1_epi16(static_cast<short>(grown));
  const __m128i in_a = _mm_cmpeq_epi16(_mm_and_si128(g, bits_a), bits_a);
  const __m128i in_b = _mm_cmpeq_epi16(_mm_and_si128(g, bits_b), bits_b);
  a = _mm_andnot_si128(_mm_and_si128(in_a, runs), a);
  b = _mm_andnot_si128(_mm_and_si128(in_b, runs), b);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(rows), a);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(rows + 8), b);
  return h;
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
          if (kMerge) h = extend_run(rows, r, run);
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

// Conventional greedy meshing: the article's baseline, which splits quads where light, AO or textures
// differ. A cell face joins a quad only when its four corners carry one light (so no interpolation inside
// it) and its light and texture layers equal those of the quad's other cells; a cell whose corners differ
// is its own quad. The merged quad then draws exactly what its cells' own quads draw.
void merge_faces_conventional(const PaddedBlock& b, MeshScratch& s) {
  const std::uint8_t* flags = shape_lut().shade_flags.data();
  const std::uint32_t* ao = shape_lut().ao_corners.data();
  const Material* mats = materials().data();
  for (int f = 0; f < kFaceCount; ++f) {
    const int a = face_axis(f);
    const int row_stride = kPadStride[kQuadRowAxis[a]], bit_stride = kPadStride[kQuadBitAxis[a]];
    const int front_step = face_positive(f) ? kPadStride[a] : -kPadStride[a];
    std::uint32_t layers = s.face_layers[std::size_t(f)];
    s.face_layers[std::size_t(f)] = 0;
    while (layers) {
      const int layer = std::countr_zero(layers);
      layers &= layers - 1;
      std::uint16_t* rows = face_rows(s, f, layer);
      int origin[3];
      origin[a] = layer + 1;
      origin[kQuadRowAxis[a]] = 1;
      origin[kQuadBitAxis[a]] = 1;
      const int first = pad_index(origin[0], origin[1], origin[2]);
      for (int r = 0; r < 16; ++r)
        for (std::uint32_t m = rows[r]; m; m &= m - 1) {
          const int bit = std::countr_zero(m);
          const int cell = first + r * row_stride + bit * bit_stride;
          std::uint32_t light[4];
          for (int c = 0; c < 4; ++c)
            light[c] = shade_side_corner(b, flags, ao, cell + front_step, f, c & 1, c >> 1).light;
          const auto tex = cell_textures(b, flags, mats, cell, f);
          // The tile variation is part of what a cell draws: cells merge only when it is the same too.
          const std::uint32_t base = tex[0] | cell_uv_bits(b, mats, cell, f, s.tile_variation);
          s.cell_shades[std::size_t(r * 16 + bit)] = {
              light[0], base, tex[1], light[0] == light[1] && light[0] == light[2] && light[0] == light[3]};
        }
      auto same = [&](int r0, int b0, int r1, int b1) {
        const MeshScratch::CellShade& x = s.cell_shades[std::size_t(r0 * 16 + b0)];
        const MeshScratch::CellShade& y = s.cell_shades[std::size_t(r1 * 16 + b1)];
        return y.uniform && x.light == y.light && x.tex01 == y.tex01 && x.tex23 == y.tex23;
      };
      for (int r = 0; r < 16; ++r) {
        std::uint32_t m = rows[r];
        while (m) {
          const int start = std::countr_zero(m);
          int len = 1, h = 1;
          if (s.cell_shades[std::size_t(r * 16 + start)].uniform) {
            while (start + len < 16 && (m >> (start + len) & 1u) && same(r, start, r, start + len)) ++len;
            const std::uint32_t run = ((1u << len) - 1u) << start;
            while (r + h < 16 && (rows[r + h] & run) == run) {
              bool all = true;
              for (int i = 0; i < len && all; ++i) all = same(r, start, r + h, start + i);
              if (!all) break;
              rows[r + h] = std::uint16_t(rows[r + h] & ~run);
              ++h;
            }
          }
          m &= ~(((1u << len) - 1u) << start);
          s.quads.push_back({std::uint8_t(f), std::uint8_t(layer), std::uint8_t(r), std::uint8_t(start),
                             std::uint8_t(len), std::uint8_t(h)});
        }
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(rows), _mm_setzero_si128());
      _mm_storeu_si128(reinterpret_cast<__m128i*>(rows + 8), _mm_setzero_si128());
    }
  }
}

}  // namespace

void cull_and_merge(const PaddedBlock& block, MeshScratch& scratch, MeshMode mode, bool tile_variation) {
  const bool merge = mode == MeshMode::kAtlas;
  scratch.mode = mode;
  scratch.tile_variation = tile_variation;
  scratch.quads.clear();
  scratch.loose.clear();
  collect_model_faces(block, scratch.model_faces);
  if (avx2_available())
    build_rows_avx2(block, scratch);
  else
    build_rows(block, scratch);
  if (scratch.partial_cells.empty()) {
    cull_cubes<false>(scratch);
  } else {
    cull_cubes<true>(scratch);
    cull_partials(block, scratch, merge);
  }
  if (mode == MeshMode::kAtlas)
    merge_faces<true>(scratch);
  else if (mode == MeshMode::kConventional)
    merge_faces_conventional(block, scratch);
  else
    merge_faces<false>(scratch);
}

void mesh_section(const World& world, glm::ivec3 section, const MeshOptions& options, MeshScratch& scratch,
                  SectionMesh& out) {
  const bool solid_floor = !options.world_bottom_faces;
  if (section_is_air(world, section) || section_is_buried(world, section, solid_floor)) {
    out.clear();
    return;
  }
  gather_padded(world, section, scratch.block, solid_floor);
  scratch.block.origin += options.cell_origin;
  cull_and_merge(scratch.block, scratch, options.mode, options.tile_variation);
  emit_mesh(scratch.block, scratch, out);
}

}  // namespace myriad::voxel
