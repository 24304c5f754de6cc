// Far LOD blocks: fine columns (generated or read from their save files) downsampled column by column into
// a level-1 grid, halved again up to the block's level, copied into a lone coarse World, lit with
// light_column and meshed section by section with mesh_section.
#include "myriad/voxel/stream/far_mesh.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <system_error>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/stream/stream_world.hpp"

namespace myriad::voxel {
namespace {

// Lookup tables of the downsampling rules, built once.
struct Rank {
  bool emissive[256] = {};
  std::uint8_t priority[256] = {};
  bool solid_form[256] = {};  // ShapeLut::solid
};

const Rank& rank_table() {
  static const Rank rank = [] {
    Rank r;
    const auto table = materials();
    for (std::size_t m = 0; m < table.size(); ++m) {
      r.emissive[m] = table[m].emit_r != 0 || table[m].emit_g != 0 || table[m].emit_b != 0;
      r.priority[m] = table[m].priority;
    }
    const ShapeLut& lut = shape_lut();
    for (int f = 0; f < 256; ++f) r.solid_form[f] = lut.shapes[std::size_t(f)].solid;
    return r;
  }();
  return rank;
}

std::uint8_t parent_material(const std::uint8_t (&m)[kCornerCount], unsigned solid, const Rank& rank) {
  if (solid == 0xFFu && m[0] == m[1] && m[0] == m[2] && m[0] == m[3] && m[0] == m[4] && m[0] == m[5] &&
      m[0] == m[6] && m[0] == m[7])
    return m[0];  // the common case inside the ground
  if (std::popcount(solid) < 4) return kAir;
  unsigned plain = 0;
  for (int c = 0; c < kCornerCount; ++c)
    if ((solid >> c & 1u) != 0 && !rank.emissive[m[c]]) plain |= 1u << c;
  const unsigned pick = plain != 0 ? plain : solid;
  const unsigned layer = (pick & 0xF0u) != 0 ? pick & 0xF0u : pick & 0x0Fu;
  std::uint8_t best = kAir;
  int best_count = 0;
  for (int c = 0; c < kCornerCount; ++c) {
    if ((layer >> c & 1u) == 0) continue;
    const std::uint8_t id = m[c];
    int count = 0;
    for (int k = 0; k < kCornerCount; ++k) count += (layer >> k & 1u) != 0 && m[k] == id ? 1 : 0;
    const bool better = count > best_count ||
                        (count == best_count && (rank.priority[id] > rank.priority[best] ||
                                                 (rank.priority[id] == rank.priority[best] && id < best)));
    if (better) {
      best = id;
      best_count = count;
    }
  }
  return best;
}

std::string text(glm::ivec2 c) { return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")"; }

void check_world_size(glm::ivec3 size) {
  for (int a = 0; a < 3; ++a)
    if (size[a] <= 0 || size[a] % kSectionSize != 0 || size[a] > 4096)
      throw Error("far LOD world size (" + std::to_string(size.x) + ", " + std::to_string(size.y) + ", " +
                      std::to_string(size.z) + ") is invalid",
                  "FarSource::world_size", "each size must be a positive multiple of 16, at most 4096");
}

void check_level(int level) {
  if (level < 1 || level > kFarMaxLevel)
    throw Error("far LOD level " + std::to_string(level) + " is invalid", "far level",
                "use 1.." + std::to_string(kFarMaxLevel));
}

// One 2 x 2 x 2 step over a dense grid of full cubes or air (x fastest, then z, then y).
void halve(const std::uint8_t* src, int d, int h, std::uint8_t* dst, const Rank& rank) {
  const int dd = d / 2, hh = h / 2;
  const std::size_t row = std::size_t(d), layer = std::size_t(d) * std::size_t(d);
  std::uint8_t m[kCornerCount];
  for (int y = 0; y < hh; ++y)
    for (int z = 0; z < dd; ++z)
      for (int x = 0; x < dd; ++x) {
        const std::size_t base = std::size_t(2 * y) * layer + std::size_t(2 * z) * row + std::size_t(2 * x);
        unsigned solid = 0;
        for (int c = 0; c < kCornerCount; ++c) {
          const glm::ivec3 o = corner_offset(c);
          m[c] = src[base + std::size_t(o.y) * layer + std::size_t(o.z) * row + std::size_t(o.x)];
          solid |= (m[c] != kAir ? 1u : 0u) << c;
        }
        dst[(std::size_t(y) * std::size_t(dd) + std::size_t(z)) * std::size_t(dd) + std::size_t(x)] =
            parent_material(m, solid, rank);
      }
}

}  // namespace

bool far_child_solid(std::uint8_t material, std::uint8_t form) {
  return material != kAir && rank_table().solid_form[form];
}

std::uint8_t far_parent_material(const std::uint8_t (&m)[kCornerCount], unsigned solid) {
  return parent_material(m, solid & 0xFFu, rank_table());
}

int far_sections_y(int world_height, int level) {
  const int coarse = world_height >> level;
  return std::max(1, (coarse + kSectionSize - 1) / kSectionSize);
}

glm::ivec2 far_blocks(glm::ivec3 world_size, int level) {
  const int n = far_block_columns(level);
  return {(world_size.x / kSectionSize + n - 1) / n, (world_size.z / kSectionSize + n - 1) / n};
}

const World& build_far_block(const FarSource& source, int level, glm::ivec2 block, FarScratch& s) {
  check_level(level);
  const glm::ivec3 size = source.world_size;
  check_world_size(size);
  const glm::ivec2 blocks = far_blocks(size, level);
  if (block.x < 0 || block.y < 0 || block.x >= blocks.x || block.y >= blocks.y)
    throw Error("far block " + text(block) + " of level " + std::to_string(level) + " is outside the world",
                "build_far_block", "use blocks 0 <= b < " + text(blocks));
  const int n = far_block_columns(level);
  const glm::ivec2 columns{size.x / kSectionSize, size.z / kSectionSize};
  const int height = size.y;
  const std::size_t column_cells = std::size_t(height) * kSectionSize * kSectionSize;
  s.column_materials.resize(column_cells);
  s.column_forms.resize(column_cells);

  // Step 1, column by column: each column's 16 x 16 cells give 8 x 8 level-1 cells.
  constexpr int kHalf = kSectionSize / 2;
  const int d1 = kHalf * n, h1 = height / 2;
  const std::size_t row1 = std::size_t(d1), layer1 = std::size_t(d1) * std::size_t(d1);
  s.grid[0].resize(layer1 * std::size_t(h1));
  const Rank& rank = rank_table();
  std::uint8_t m[kCornerCount];
  for (int lz = 0; lz < n; ++lz)
    for (int lx = 0; lx < n; ++lx) {
      const glm::ivec2 c = block * n + glm::ivec2(lx, lz);
      std::uint8_t* out = s.grid[0].data() + std::size_t(lz * kHalf) * row1 + std::size_t(lx * kHalf);
      if (c.x >= columns.x || c.y >= columns.y) {
        for (int y = 0; y < h1; ++y)
          for (int z = 0; z < kHalf; ++z)
            std::fill_n(out + std::size_t(y) * layer1 + std::size_t(z) * row1, kHalf, kAir);
        continue;
      }
      bool saved = false;
      if (!source.save_directory.empty()) {
        std::error_code ec;
        saved = std::filesystem::is_regular_file(column_save_path(source.save_directory, c), ec);
      }
      if (saved)
        read_column_file(column_save_path(source.save_directory, c), size, c, source.generator,
                         s.column_materials, s.column_forms);
      else
        generate_column(size, c, source.generator,
                        {s.column_materials.data(), s.column_forms.data(), kSectionCells}, s.generate);
      const std::uint8_t* mats = s.column_materials.data();
      const std::uint8_t* forms = s.column_forms.data();
      for (int y = 0; y < h1; ++y) {
        const std::size_t sec = std::size_t((2 * y) >> 4) * kSectionCells;
        const int fy = (2 * y) & 15;
        for (int z = 0; z < kHalf; ++z) {
          // The four fine rows of this coarse row, in corner order (dz | dy << 1).
          std::size_t rows[4];
          for (int r = 0; r < 4; ++r)
            rows[r] = sec + std::size_t(cell_index(0, fy + (r >> 1), 2 * z + (r & 1)));
          std::uint8_t* dst = out + std::size_t(y) * layer1 + std::size_t(z) * row1;
          for (int x = 0; x < kHalf; ++x) {
            unsigned solid = 0;
            for (int k = 0; k < kCornerCount; ++k) {
              const std::size_t i = rows[k >> 1] + std::size_t(2 * x + (k & 1));
              m[k] = mats[i];
              solid |= (mats[i] != kAir && rank.solid_form[forms[i]] ? 1u : 0u) << k;
            }
            dst[x] = parent_material(m, solid, rank);
          }
        }
      }
    }

  // Steps 2..L on the dense grid.
  int d = d1, h = h1, cur = 0;
  for (int step = 1; step < level; ++step) {
    s.grid[1 - cur].resize(std::size_t(d / 2) * std::size_t(d / 2) * std::size_t(h / 2));
    halve(s.grid[cur].data(), d, h, s.grid[1 - cur].data(), rank);
    d /= 2;
    h /= 2;
    cur = 1 - cur;
  }

  // The coarse world: d = 16 cells square, h cells of the world, air above up to whole sections.
  const int world_height = far_sections_y(height, level) * kSectionSize;
  if (!s.world || s.world->size().y != world_height)
    s.world = std::make_unique<World>(kSectionSize, world_height, kSectionSize);
  World& w = *s.world;
  auto wm = w.materials();
  auto wf = w.forms();
  const std::uint8_t* grid = s.grid[cur].data();
  for (int y = 0; y < world_height; ++y)
    for (int z = 0; z < kSectionSize; ++z)
      for (int x = 0; x < kSectionSize; ++x) {
        const std::size_t i = w.index({x, y, z});
        const std::uint8_t mat =
            y < h ? grid[(std::size_t(y) * kSectionSize + std::size_t(z)) * kSectionSize + std::size_t(x)]
                  : std::uint8_t(kAir);
        wm[i] = mat;
        wf[i] = mat == kAir ? kFormEmpty : kFormFull;
      }
  std::fill(w.flag_data().begin(), w.flag_data().end(), std::uint8_t(0));
  ColumnNeighbourhood hood;
  hood.world_size = w.size();
  hood.column = {0, 0};
  hood.materials[1][1] = wm.data();
  hood.forms[1][1] = wf.data();
  light_column(hood, w.lights(), s.light);
  return w;
}

void mesh_far_block(const FarSource& source, int level, glm::ivec2 block, const MeshOptions& options,
                    FarScratch& scratch, std::span<SectionMesh> out) {
  check_level(level);
  const int sections = far_sections_y(source.world_size.y, level);
  if (int(out.size()) != sections)
    throw Error("far block output holds " + std::to_string(out.size()) + " meshes, the block has " +
                    std::to_string(sections) + " sections",
                "mesh_far_block", "pass far_sections_y(world height, level) meshes");
  const World& w = build_far_block(source, level, block, scratch);
  // Coarse cells of this level: the block's cell (0, 0, 0) is coarse cell block * 16.
  MeshOptions mesh = options;
  mesh.cell_origin = glm::ivec3(block.x, 0, block.y) * kSectionSize;
  for (int sy = 0; sy < sections; ++sy) mesh_section(w, {0, sy, 0}, mesh, scratch.mesh, out[std::size_t(sy)]);
}

}  // namespace myriad::voxel
