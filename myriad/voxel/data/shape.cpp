// Builds the shape LUT: convex hull of the set corners of every form byte by brute force over corner
// triples (8 points, exact integer arithmetic), split into outer polygons per side and inner planes.
#include "myriad/voxel/data/shape.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "myriad/core/layout/packing.hpp"

namespace myriad::voxel {
namespace {

// glm's dot and cross accept floating point only; the hull works in exact integers.
constexpr int idot(glm::ivec3 a, glm::ivec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr glm::ivec3 icross(glm::ivec3 a, glm::ivec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

struct Facet {
  std::uint8_t mask = 0;  // corners on the facet
  glm::ivec3 normal{0};   // outward, not normalised
};

// Facets of the hull of the set corners; empty when they span no volume.
std::vector<Facet> hull_facets(std::uint8_t form) {
  std::vector<Facet> facets;
  int pts[8];
  int n = 0;
  for (int c = 0; c < kCornerCount; ++c)
    if (form >> c & 1) pts[n++] = c;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        const glm::ivec3 a = corner_offset(pts[i]), b = corner_offset(pts[j]), c = corner_offset(pts[k]);
        const glm::ivec3 nrm = icross(b - a, c - a);
        if (nrm == glm::ivec3(0)) continue;
        const int d = idot(nrm, a);
        bool pos = false, neg = false;
        std::uint8_t mask = 0;
        for (int m = 0; m < n; ++m) {
          const int s = idot(nrm, corner_offset(pts[m])) - d;
          pos |= s > 0;
          neg |= s < 0;
          if (s == 0) mask = std::uint8_t(mask | 1u << pts[m]);
        }
        if ((pos && neg) || (!pos && !neg)) continue;  // not supporting, or all points coplanar
        if (std::any_of(facets.begin(), facets.end(), [&](const Facet& f) { return f.mask == mask; }))
          continue;
        facets.push_back({mask, pos ? -nrm : nrm});
      }
  return facets;
}

// Corners of a facet ordered counter-clockwise around its outward normal.
std::vector<std::uint8_t> order_ccw(std::uint8_t mask, glm::vec3 normal) {
  std::vector<std::uint8_t> ids;
  glm::vec3 centre(0.0f);
  for (int c = 0; c < kCornerCount; ++c)
    if (mask >> c & 1) {
      ids.push_back(std::uint8_t(c));
      centre += glm::vec3(corner_offset(c));
    }
  centre /= float(ids.size());
  const glm::vec3 u = glm::normalize(glm::vec3(corner_offset(ids[0])) - centre);
  const glm::vec3 w = glm::cross(normal, u);
  auto angle = [&](std::uint8_t c) {
    const glm::vec3 d = glm::vec3(corner_offset(c)) - centre;
    return std::atan2(glm::dot(d, w), glm::dot(d, u));
  };
  std::sort(ids.begin(), ids.end(), [&](std::uint8_t a, std::uint8_t b) { return angle(a) < angle(b); });
  return ids;
}

std::uint8_t quarters_of_side(int face, std::uint8_t mask) {
  std::uint8_t bits = 0;  // side-local corner bits
  for (int c = 0; c < kCornerCount; ++c)
    if (mask >> c & 1) bits = std::uint8_t(bits | 1u << side_corner_bit(face, c));
  if (bits == 0xF) return kQuartersFull;
  // A triangle keeps the two quarters next to the corner opposite the missing one.
  for (int missing = 0; missing < 4; ++missing) {
    if (bits != (0xF & ~(1u << missing))) continue;
    const int o = missing ^ 3;
    return std::uint8_t(((o & 1) ? 1u << 1 : 1u << 0) | ((o >> 1) ? 1u << 3 : 1u << 2));
  }
  return 0;
}

// Light/AO side of an inner plane: its dominant normal axis; ties prefer up (Y), then X, then Z.
std::uint8_t dominant_side(glm::ivec3 n) {
  const int ax = std::abs(n.x), ay = std::abs(n.y), az = std::abs(n.z);
  int axis = 1;
  if (ax > ay && ax >= az)
    axis = 0;
  else if (az > ay && az > ax)
    axis = 2;
  return std::uint8_t(axis * 2 + (n[axis] > 0 ? 1 : 0));
}

// The part of each corner's octant inside the hull, in quarters, rounded: the hull is sampled at the
// centres of a 16^3 grid (8^3 per octant) in exact integers (coordinates in 1/32: odd 1..31); a sample on
// a facet plane counts half, so facets through sample rows (diagonals) split them evenly.
std::array<std::uint8_t, kCornerCount> octant_quarters(const std::vector<Facet>& facets) {
  struct Plane {
    glm::ivec3 n;
    int d32;  // 32 * (n . a point of the facet)
  };
  std::vector<Plane> planes;
  for (const Facet& f : facets) {
    const int c = std::countr_zero(unsigned(f.mask));
    planes.push_back({f.normal, 32 * idot(f.normal, corner_offset(c))});
  }
  int weight[kCornerCount] = {};  // half-samples per octant, at most 2 * 512
  for (int y = 1; y < 32; y += 2)
    for (int z = 1; z < 32; z += 2)
      for (int x = 1; x < 32; x += 2) {
        int w = 2;
        for (const Plane& p : planes) {
          const int s = idot(p.n, {x, y, z}) - p.d32;
          if (s > 0) {
            w = 0;
            break;
          }
          if (s == 0) w = 1;
        }
        weight[corner_index(x > 16, y > 16, z > 16)] += w;
      }
  std::array<std::uint8_t, kCornerCount> q{};
  for (int c = 0; c < kCornerCount; ++c) q[std::size_t(c)] = std::uint8_t((4 * weight[c] + 512) / 1024);
  return q;
}

ShapeLut build_lut() {
  ShapeLut lut;
  for (auto& s : lut.side_plane) s.fill(-1);
  for (int form = 0; form < 256; ++form) {
    ShapeInfo& info = lut.shapes[std::size_t(form)];
    info.first_plane = std::uint16_t(lut.planes.size());
    const std::vector<Facet> facets = hull_facets(std::uint8_t(form));
    if (facets.empty()) continue;
    info.solid = true;
    std::vector<PlaneTemplate> outer, inner;
    int volume6 = 0;  // exact: six times the volume is an integer for lattice points
    for (const Facet& f : facets) {
      PlaneTemplate t;
      t.normal = glm::normalize(glm::vec3(f.normal));
      t.packed_normal = pack_octahedral(t.normal);
      t.corner_mask = f.mask;
      const std::vector<std::uint8_t> ids = order_ccw(f.mask, t.normal);
      t.count = std::uint8_t(ids.size());
      for (std::size_t i = 0; i < ids.size(); ++i) t.corners[i] = ids[i];
      for (std::size_t i = 1; i + 1 < ids.size(); ++i)
        volume6 += idot(corner_offset(ids[0]), icross(corner_offset(ids[i]), corner_offset(ids[i + 1])));
      const int nonzero = (f.normal.x != 0) + (f.normal.y != 0) + (f.normal.z != 0);
      if (nonzero == 1) {
        const int axis = f.normal.x != 0 ? 0 : (f.normal.y != 0 ? 1 : 2);
        const int face = axis * 2 + (f.normal[axis] > 0 ? 1 : 0);
        t.side = std::int8_t(face);
        t.light_side = std::uint8_t(face);
        info.side_quarters[std::size_t(face)] = quarters_of_side(face, f.mask);
        info.any_sides = std::uint8_t(info.any_sides | 1u << face);
        if (t.count == 4) info.full_sides = std::uint8_t(info.full_sides | 1u << face);
        outer.push_back(t);
      } else {
        t.light_side = dominant_side(f.normal);
        if (t.count == 4)
          for (std::size_t i = 0; i < 4; ++i) {
            const glm::ivec3 e = corner_offset(ids[(i + 1) % 4]) - corner_offset(ids[i]);
            if ((e.x != 0) + (e.y != 0) + (e.z != 0) == 1)
              t.merge_axis = std::int8_t(e.x ? 0 : (e.y ? 1 : 2));
          }
        inner.push_back(t);
      }
    }
    std::sort(outer.begin(), outer.end(),
              [](const PlaneTemplate& a, const PlaneTemplate& b) { return a.side < b.side; });
    std::sort(inner.begin(), inner.end(),
              [](const PlaneTemplate& a, const PlaneTemplate& b) { return a.corner_mask < b.corner_mask; });
    info.outer_count = std::uint8_t(outer.size());
    info.inner_count = std::uint8_t(inner.size());
    for (const PlaneTemplate& t : outer) {
      lut.side_plane[std::size_t(form)][std::size_t(t.side)] = std::int16_t(lut.planes.size());
      lut.planes.push_back(t);
    }
    lut.planes.insert(lut.planes.end(), inner.begin(), inner.end());
    info.volume = float(volume6) / 6.0f;
    info.light_opaque = form == kFormFull;
    info.ao_quarters = octant_quarters(facets);
    for (int c = 0; c < kCornerCount; ++c)
      lut.ao_corners[std::size_t(form)] |= std::uint32_t(info.ao_quarters[std::size_t(c)]) << (4 * c);
    lut.shade_flags[std::size_t(form)] = std::uint8_t((info.light_opaque ? kShadeOpaque : 0) | kShadeSolid);
  }
  return lut;
}

}  // namespace

const ShapeLut& shape_lut() {
  static const ShapeLut lut = build_lut();
  return lut;
}

const PlaneTemplate* ShapeLut::plane_with_normal(std::uint8_t form, glm::vec3 normal) const {
  for (const PlaneTemplate& t : all_planes(form))
    if (glm::length(t.normal - normal) < 1e-4f) return &t;
  return nullptr;
}

glm::ivec3 rotate_corner_y(glm::ivec3 c) { return {c.z, c.y, 1 - c.x}; }

std::uint8_t rotate_form_y(std::uint8_t form) {
  std::uint8_t out = 0;
  for (int c = 0; c < kCornerCount; ++c) {
    if (!(form >> c & 1)) continue;
    const glm::ivec3 r = rotate_corner_y(corner_offset(c));
    out = std::uint8_t(out | 1u << corner_index(r.x, r.y, r.z));
  }
  return out;
}

}  // namespace myriad::voxel
