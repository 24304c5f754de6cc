// Vegetation placement from per-cell hashes, and the tree templates baked from a seed.
#include "myriad/voxel/data/vegetation.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "myriad/core/layout/packing.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/noise.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint64_t kVegetationSalt = 0x5005, kTemplateSalt = 0x7EE5;
constexpr float kGrassChance = 0.45f, kTreeChance = 0.012f;
// Slopes carry tufts as densely as flat ground.
constexpr float kSlopeGrassChance = kGrassChance;
constexpr std::uint32_t kNoVegetationFlag = 1;

std::uint32_t light_bytes(Light16 l) {
  auto ch = [&](int c) { return std::uint8_t(light_channel(l, c) * 17); };
  return pack_light({ch(0), ch(1), ch(2), ch(3)});
}

std::uint32_t signed6(float v) {
  const int q = std::clamp(int(std::lround(v * 31.0f)), -31, 31);
  return std::uint32_t(q) & 0x3Fu;
}
float unsigned6(std::uint32_t bits) {
  const int q = int(bits & 0x3Fu);
  return float(q >= 32 ? q - 64 : q) / 31.0f;
}

// A tuft at cell-local (jx, jz) of the cell `p` standing on its top surface `s`.
GrassInstance grass_instance(glm::ivec3 p, float jx, float jz, const SurfacePoint& s, std::uint64_t r,
                             Light16 light) {
  const std::uint32_t templ =
      (r >> 28 & 0xF) == 0 ? kFlowerTemplate : std::uint32_t(r >> 32) % kGrassTemplates;
  return {float(p.x) + jx, float(p.y) + s.height, float(p.z) + jz,
          pack_grass_template(templ, s.normal) | std::uint32_t(light) << 16};
}

// Tree templates ---------------------------------------------------------------------------------

struct Rng {
  std::uint64_t state;
  float unit() {
    state = mix64(state + 0x9E3779B97F4A7C15ull);
    return hash_unit(state);
  }
  float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
};

// The triangle p0..p2, wound counter-clockwise seen from the side `outward` points to.
void add_triangle(TreeTemplateMesh& m, const std::array<glm::vec3, 3>& p, glm::vec3 outward, float kind) {
  glm::vec3 n = glm::normalize(glm::cross(p[1] - p[0], p[2] - p[0]));
  std::array<int, 3> order{0, 1, 2};
  if (glm::dot(n, outward) < 0.0f) {
    order = {0, 2, 1};
    n = -n;
  }
  for (const int i : order) {
    m.positions.emplace_back(p[std::size_t(i)], kind);
    m.normals.push_back(n);
  }
}

// Two triangles of the quad p0..p3, wound counter-clockwise seen from the side `outward` points to.
void add_quad(TreeTemplateMesh& m, const std::array<glm::vec3, 4>& p, glm::vec3 outward, float kind) {
  glm::vec3 n = glm::normalize(glm::cross(p[1] - p[0], p[2] - p[0]));
  std::array<int, 6> order{0, 1, 2, 0, 2, 3};
  if (glm::dot(n, outward) < 0.0f) {
    order = {0, 2, 1, 0, 3, 2};
    n = -n;
  }
  for (const int i : order) {
    m.positions.emplace_back(p[std::size_t(i)], kind);
    m.normals.push_back(n);
  }
}

constexpr float kCrownCell = 1.0f / 12.0f;
constexpr int kCrownHalf = 5;                  // cells -5..5 in x and z: within 0.46 of the trunk
constexpr int kCrownLow = 3, kCrownHigh = 11;  // cell rows 3..11: y from 0.25 to 1

// The crown of template (type, variant): occupied cells of the grid, eroded at the outline.
std::vector<std::uint8_t> crown_cells(int type, Rng& rng, std::uint64_t salt) {
  constexpr int n = 2 * kCrownHalf + 1, rows = kCrownHigh - kCrownLow + 1;
  auto at = [](int i, int j, int k) {
    return std::size_t((i + kCrownHalf) + n * ((k + kCrownHalf) + n * (j - kCrownLow)));
  };
  std::vector<std::uint8_t> cells(std::size_t(n * n * rows), 0);
  struct Blob {
    glm::vec3 c;
    glm::vec3 r;
  };
  std::vector<Blob> blobs;
  if (type == 0) {  // round: a few merged blobs
    const int count = 3 + int(rng.unit() * 2.0f);
    for (int b = 0; b < count; ++b) {
      const float r = rng.range(0.16f, 0.26f);
      blobs.push_back(
          {{rng.range(-0.14f, 0.14f), rng.range(0.55f, 0.78f), rng.range(-0.14f, 0.14f)}, glm::vec3(r)});
    }
  } else if (type == 2) {  // tall and narrow, with a side bump or two
    blobs.push_back({{0.0f, rng.range(0.6f, 0.66f), 0.0f},
                     {rng.range(0.17f, 0.23f), rng.range(0.3f, 0.36f), rng.range(0.17f, 0.23f)}});
    const int bumps = 2 + int(rng.unit() * 2.0f);
    for (int b = 0; b < bumps; ++b) {
      const float a = rng.range(0.0f, 6.2831853f), d = rng.range(0.17f, 0.23f);
      blobs.push_back(
          {{d * std::cos(a), rng.range(0.45f, 0.8f), d * std::sin(a)}, glm::vec3(rng.range(0.12f, 0.16f))});
    }
  }
  const int tiers = 3 + int(rng.unit() * 2.0f);
  const float tier_phase = rng.unit();
  for (int j = kCrownLow; j <= kCrownHigh; ++j)
    for (int k = -kCrownHalf; k <= kCrownHalf; ++k)
      for (int i = -kCrownHalf; i <= kCrownHalf; ++i) {
        const glm::vec3 c((float(i)) * kCrownCell, (float(j) + 0.5f) * kCrownCell, float(k) * kCrownCell);
        // A per-cell wobble of the outline: the same seed gives the same crown.
        const float wobble = (hash_unit(hash3(salt, i, j, k)) - 0.5f) * 0.12f;
        bool inside = false;
        if (type == 1) {  // conifer: stacked tiers, each wide at its bottom
          const float t = (c.y - 0.25f) / 0.75f;
          const float tier = std::fmod(t * float(tiers) + tier_phase, 1.0f);
          const float radius = 0.42f * (1.0f - t) * (0.55f + 0.45f * (1.0f - tier)) + 0.04f;
          inside = std::hypot(c.x, c.z) < radius + wobble;
        } else {
          for (const Blob& b : blobs) inside = inside || glm::length((c - b.c) / b.r) < 1.0f + wobble * 2.5f;
        }
        cells[at(i, j, k)] = inside ? 1 : 0;
      }
  // Erode the outline: a cell with an empty neighbour goes with a chance (never the trunk's column).
  std::vector<std::uint8_t> eroded = cells;
  auto filled = [&](int i, int j, int k) {
    return i >= -kCrownHalf && i <= kCrownHalf && k >= -kCrownHalf && k <= kCrownHalf && j >= kCrownLow &&
           j <= kCrownHigh && cells[at(i, j, k)] != 0;
  };
  for (int j = kCrownLow; j <= kCrownHigh; ++j)
    for (int k = -kCrownHalf; k <= kCrownHalf; ++k)
      for (int i = -kCrownHalf; i <= kCrownHalf; ++i) {
        if (!filled(i, j, k) || (i == 0 && k == 0)) continue;
        const bool outline = !filled(i + 1, j, k) || !filled(i - 1, j, k) || !filled(i, j + 1, k) ||
                             !filled(i, j - 1, k) || !filled(i, j, k + 1) || !filled(i, j, k - 1);
        if (outline && hash_unit(hash3(salt ^ 0xE0DEull, i, j, k)) < 0.3f) eroded[at(i, j, k)] = 0;
      }
  return eroded;
}

TreeTemplateMesh bake_template(int type, int variant, std::uint64_t seed) {
  TreeTemplateMesh m;
  const std::uint64_t salt = mix64(seed ^ kTemplateSalt ^ std::uint64_t(type * 16 + variant));
  Rng rng{salt};
  // Trunk: rings at fixed levels, each an irregular heptagon; the lowest two rings (up to the rigid
  // height) stand on the root.
  constexpr int kSides = 7;
  constexpr std::array<float, 4> levels{0.0f, kTreeRigidHeight, 0.35f, 0.58f};
  const float base = type == 1 ? 0.05f : 0.065f;
  std::array<std::array<glm::vec3, kSides>, levels.size()> rings{};
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const glm::vec2 shift =
        l < 2 ? glm::vec2(0.0f) : glm::vec2(rng.range(-0.015f, 0.015f), rng.range(-0.015f, 0.015f));
    for (int s = 0; s < kSides; ++s) {
      const float a = 6.2831853f * float(s) / float(kSides);
      const float r = base * (1.0f - 0.35f * levels[l]) * rng.range(0.75f, 1.25f);
      rings[l][std::size_t(s)] = glm::vec3(shift.x + r * std::cos(a), levels[l], shift.y + r * std::sin(a));
    }
  }
  for (std::size_t l = 0; l + 1 < levels.size(); ++l)
    for (int s = 0; s < kSides; ++s) {
      const std::size_t s1 = std::size_t((s + 1) % kSides);
      const std::array<glm::vec3, 4> q{rings[l][std::size_t(s)], rings[l][s1], rings[l + 1][s1],
                                       rings[l + 1][std::size_t(s)]};
      const glm::vec3 mid = 0.25f * (q[0] + q[1] + q[2] + q[3]);
      add_quad(m, q, glm::vec3(mid.x, 0.0f, mid.z), 0.0f);
    }
  // The trunk's foot, closed facing down: unseen (in the ground) until a slice cuts the trunk, when the
  // renderer draws back faces and this one, seen from above through the cut, makes the cross-section
  // solid (V14). A fan of triangles from the ring's first corner.
  for (int s = 1; s + 1 < kSides; ++s)
    add_triangle(m, {rings[0][0], rings[0][std::size_t(s)], rings[0][std::size_t(s + 1)]},
                 glm::vec3(0.0f, -1.0f, 0.0f), 0.0f);
  // Crown: the exposed faces of its cells.
  const std::vector<std::uint8_t> cells = crown_cells(type, rng, salt);
  constexpr int n = 2 * kCrownHalf + 1;
  auto filled = [&](int i, int j, int k) {
    return i >= -kCrownHalf && i <= kCrownHalf && k >= -kCrownHalf && k <= kCrownHalf && j >= kCrownLow &&
           j <= kCrownHigh &&
           cells[std::size_t((i + kCrownHalf) + n * ((k + kCrownHalf) + n * (j - kCrownLow)))] != 0;
  };
  const std::array<glm::ivec3, 6> dirs{{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}};
  for (int j = kCrownLow; j <= kCrownHigh; ++j)
    for (int k = -kCrownHalf; k <= kCrownHalf; ++k)
      for (int i = -kCrownHalf; i <= kCrownHalf; ++i) {
        if (!filled(i, j, k)) continue;
        const glm::vec3 lo((float(i) - 0.5f) * kCrownCell, float(j) * kCrownCell,
                           (float(k) - 0.5f) * kCrownCell);
        for (const glm::ivec3& d : dirs) {
          if (filled(i + d.x, j + d.y, k + d.z)) continue;
          // The face's four corners: the axis of d fixed at its side, the other two spanning the cell.
          const int axis = d.x != 0 ? 0 : (d.y != 0 ? 1 : 2);
          const int u = (axis + 1) % 3, v = (axis + 2) % 3;
          std::array<glm::vec3, 4> q;
          for (int c = 0; c < 4; ++c) {
            glm::vec3 p = lo;
            p[axis] += (d[axis] > 0 ? 1.0f : 0.0f) * kCrownCell;
            p[u] += float(c == 1 || c == 2) * kCrownCell;
            p[v] += float(c >= 2) * kCrownCell;
            q[std::size_t(c)] = p;
          }
          add_quad(m, q, glm::vec3(d), 1.0f);
        }
      }
  return m;
}

}  // namespace

std::uint32_t pack_grass_template(std::uint32_t templ, glm::vec3 up) {
  return (templ & 0xFu) | signed6(up.x) << 4 | signed6(up.z) << 10;
}

glm::vec3 grass_up(std::uint32_t template_light) {
  const float x = unsigned6(template_light >> 4), z = unsigned6(template_light >> 10);
  return {x, std::sqrt(std::max(1.0f - x * x - z * z, 0.0f)), z};
}

std::optional<SurfacePoint> top_surface(std::uint8_t form, float x, float z) {
  const ShapeLut& lut = shape_lut();
  if (!lut.shapes[form].solid) return std::nullopt;
  std::optional<SurfacePoint> best;
  for (const PlaneTemplate& p : lut.all_planes(form)) {
    if (p.normal.y < 1e-3f) continue;
    const glm::vec3 o(corner_offset(p.corners[0]));
    const float h = o.y - (p.normal.x * (x - o.x) + p.normal.z * (z - o.z)) / p.normal.y;
    if (!best || h < best->height) best = SurfacePoint{h, p.normal};
  }
  return best;
}

VegetationColumn vegetation_column(const World& world, glm::ivec2 column) {
  const std::size_t first = std::size_t(world.section_index({column.x, 0, column.y})) * kSectionCells;
  return {world.materials().data() + first,
          world.forms().data() + first,
          world.lights().data() + first,
          world.flag_data().data() + first,
          std::size_t(world.sections().x) * std::size_t(world.sections().z) * kSectionCells,
          world.size().y};
}

void place_vegetation(const World& world, glm::ivec3 section, std::uint64_t seed, SectionVegetation& out) {
  place_vegetation(vegetation_column(world, {section.x, section.z}), section, seed, out);
}

void place_vegetation(const VegetationColumn& column, glm::ivec3 section, std::uint64_t seed,
                      SectionVegetation& out) {
  out.clear();
  const std::uint8_t* const mats = column.materials;
  const std::uint8_t* const forms = column.forms;
  const Light16* const lights = column.light;
  const std::uint8_t* const flags = column.flags;
  // Cell (x, y, z) of the column (x, z local, y absolute).
  const std::size_t stride = column.section_stride;
  auto index = [stride](int x, int y, int z) {
    return std::size_t(y >> 4) * stride + std::size_t(cell_index(x, y & 15, z));
  };
  auto flagged = [flags](std::size_t i) { return flags && (flags[i] & kNoVegetationFlag) != 0; };
  const glm::ivec3 base = section * kSectionSize;
  const int top = column.height - 1;
  for (int y = 0; y < kSectionSize; ++y)
    for (int z = 0; z < kSectionSize; ++z)
      for (int x = 0; x < kSectionSize; ++x) {
        const glm::ivec3 p = base + glm::ivec3(x, y, z);
        const std::size_t i = index(x, p.y, z);
        const std::uint64_t r = hash3(mix64(seed) ^ kVegetationSalt, p.x, p.y, p.z);
        const float u = hash_unit(r);
        const float jx = float(r >> 8 & 0xFF) / 255.0f * 0.6f + 0.2f,
                    jz = float(r >> 16 & 0xFF) / 255.0f * 0.6f + 0.2f;
        if (mats[i] == kGrass && forms[i] != kFormFull) {
          // A cut grass cell (slope, corner) under air: a tuft on its top surface, tilted with it.
          if (p.y == top || flagged(i) || (forms[i] & 0x0Fu) != 0x0Fu) continue;
          const std::size_t above = index(x, p.y + 1, z);
          if (mats[above] != kAir || u >= kSlopeGrassChance) continue;
          const std::optional<SurfacePoint> s = top_surface(forms[i], jx, jz);
          if (!s || s->normal.y > 0.999f) continue;  // flat tops are the full cubes' case
          out.grass.push_back(grass_instance(p, jx, jz, *s, r, lights[above]));
          continue;
        }
        if (p.y == 0) continue;
        const std::size_t below = index(x, p.y - 1, z);
        if (mats[i] != kAir || mats[below] != kGrass || forms[below] != kFormFull) continue;
        if (flagged(below)) continue;
        if (u < kTreeChance) {
          const int height = 4 + int(r >> 24 & 3);
          const int top_y = std::min(p.y + height, top);
          const std::uint32_t templ = std::uint32_t(r >> 32 & 0xFFFF) % kTreeTemplates;
          TreeInstance t{float(p.x) + 0.5f,      float(p.y),
                         float(p.z) + 0.5f,      templ | std::uint32_t(height * 16) << 16,
                         light_bytes(lights[i]), light_bytes(lights[index(x, top_y, z)])};
          out.trees.push_back(t);
        } else if (u < kTreeChance + kGrassChance) {
          out.grass.push_back(grass_instance(p, jx, jz, SurfacePoint{}, r, lights[i]));
        }
      }
}

void place_all_vegetation(const World& world, std::uint64_t seed, std::vector<SectionVegetation>& out) {
  out.resize(std::size_t(world.section_count()));
  parallel_for(0, out.size(), 8, [&](std::size_t b, std::size_t e) {
    for (std::size_t s = b; s < e; ++s) place_vegetation(world, world.section_coord(int(s)), seed, out[s]);
  });
}

std::vector<TreeTemplateMesh> bake_tree_templates(std::uint64_t seed) {
  std::vector<TreeTemplateMesh> out;
  for (int type = 0; type < kTreeTypes; ++type)
    for (int variant = 0; variant < kTreeVariants; ++variant)
      out.push_back(bake_template(type, variant, seed));
  return out;
}

}  // namespace myriad::voxel
