#include "myriad/voxel/mesh/mesh_models.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/mesh/shade.hpp"
#include "myriad/voxel/model/model.hpp"

namespace myriad::voxel {
namespace {

// AO level (quarters, of kAoLevels) at the floor of a model standing on a full top side.
constexpr int kGroundedAo = 8;

bool side_full(const ShapeLut& lut, std::uint8_t material, std::uint8_t form, int side) {
  return material != kAir && (lut.shapes[form].full_sides >> side & 1u) != 0;
}

// True when one of the 16 materials at `row` is a model (id >= kFirstModelMaterial).
inline bool row_has_model(const std::uint8_t* row) {
#if defined(__SSE2__)
  const __m128i first = _mm_set1_epi8(char(kFirstModelMaterial));
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row));
  return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, first), v)) != 0;
#else
  bool any = false;
  for (int x = 0; x < kSectionSize; ++x) any |= row[x] >= kFirstModelMaterial;
  return any;
#endif
}

std::uint32_t face_tile(const Material& m, int side) {
  return side == kPosY ? m.tile_top : side == kNegY ? m.tile_bottom : m.tile_side;
}

std::uint32_t shaded_light(Light16 l, int ao) {
  return pack_light({shade_channel(light_channel(l, 0), 1, ao), shade_channel(light_channel(l, 1), 1, ao),
                     shade_channel(light_channel(l, 2), 1, ao), shade_channel(light_channel(l, 3), 1, ao)});
}

}  // namespace

void collect_model_faces(const PaddedBlock& block, std::vector<ModelFaceRef>& out) {
  out.clear();
  const ShapeLut& lut = shape_lut();
  const Material* mats = materials().data();
  for (int y = 1; y <= kSectionSize; ++y)
    for (int z = 1; z <= kSectionSize; ++z) {
      const std::uint8_t* row = block.material.data() + pad_index(1, y, z);
      if (!row_has_model(row)) continue;  // most rows: one 16-byte test
      for (int x = 0; x < kSectionSize; ++x) {
        const std::uint8_t m = row[x];
        if (!is_model_material(m)) continue;
        const int cell = pad_index(x + 1, y, z);
        const ModelKind kind = mats[m].model;
        const unsigned connections =
            model_connections(kind, [&](int face, std::uint8_t& nm, std::uint8_t& nf) {
              const auto n = std::size_t(cell + (face_positive(face) ? 1 : -1) * kPadStride[face_axis(face)]);
              nm = block.material[n];
              nf = block.form[n];
              return true;
            });
        const ModelVariant v = model_variant(kind, block.form[std::size_t(cell)], connections);
        for (const ModelFace& f : v.faces) {
          if (f.boundary >= 0) {
            const int n = cell + (face_positive(f.boundary) ? 1 : -1) * kPadStride[face_axis(f.boundary)];
            if (side_full(lut, block.material[std::size_t(n)], block.form[std::size_t(n)],
                          opposite(f.boundary)))
              continue;
          }
          out.push_back({&f, std::uint16_t(cell)});
        }
      }
    }
}

void write_model_faces(const PaddedBlock& block, std::span<const ModelFaceRef> faces, std::uint32_t base,
                       TerrainVertex* vertices, std::uint32_t* indices) {
  const ShapeLut& lut = shape_lut();
  const Material* mats = materials().data();
  for (const ModelFaceRef& r : faces) {
    const ModelFace& f = *r.face;
    const glm::vec3 origin = glm::vec3(pad_coord(r.cell) - glm::ivec3(1));
    const Light16 own = block.light[r.cell];
    const std::size_t below = std::size_t(r.cell - kPad * kPad);
    const bool on_ground = side_full(lut, block.material[below], block.form[below], kPosY);
    const std::uint32_t open = shaded_light(own, kAoLevels);
    const std::uint32_t floor = on_ground ? shaded_light(own, kGroundedAo) : open;
    const std::uint32_t tex01 = face_tile(mats[f.material], f.side);
    for (int c = 0; c < 4; ++c) {
      const glm::vec3 p = origin + f.corners[std::size_t(c)];
      *vertices++ = {p.x,   p.y, p.z, f.packed_normal, f.corners[std::size_t(c)].y == 0.0f ? floor : open,
                     tex01, 0};
    }
    indices[0] = base, indices[1] = base + 1, indices[2] = base + 2;
    indices[3] = base, indices[4] = base + 2, indices[5] = base + 3;
    indices += 6;
    base += 4;
  }
}

}  // namespace myriad::voxel
