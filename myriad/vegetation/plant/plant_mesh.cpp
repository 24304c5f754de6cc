// Procedural plant meshes: a tree is a trunk cylinder under a cone canopy, a bush a squashed UV sphere,
// grass a tuft of thin blades; LODs lower the segment or blade counts, the billboard keeps the size.
#include "myriad/vegetation/plant/plant_mesh.hpp"

#include <cmath>
#include <numbers>

namespace myriad::vegetation {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

std::uint32_t vertex(PlantMesh& m, glm::vec3 p, glm::vec3 n) {
  m.positions.push_back(p);
  m.normals.push_back(glm::normalize(n));
  return static_cast<std::uint32_t>(m.positions.size() - 1);
}

void tri(PlantMesh& m, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  m.indices.insert(m.indices.end(), {a, b, c});
}

// Open-ended frustum of a cone around +Y from (y0, r0) to (y1, r1) with `seg` sides; r1 may be 0.
void cone(PlantMesh& m, float y0, float r0, float y1, float r1, int seg) {
  const float slope = (r0 - r1) / (y1 - y0);
  for (int i = 0; i < seg; ++i) {
    const float a0 = 2.0f * kPi * float(i) / float(seg);
    const float a1 = 2.0f * kPi * float(i + 1) / float(seg);
    const glm::vec3 d0(std::cos(a0), 0.0f, -std::sin(a0));
    const glm::vec3 d1(std::cos(a1), 0.0f, -std::sin(a1));
    const auto b0 = vertex(m, d0 * r0 + glm::vec3(0, y0, 0), d0 + glm::vec3(0, slope, 0));
    const auto b1 = vertex(m, d1 * r0 + glm::vec3(0, y0, 0), d1 + glm::vec3(0, slope, 0));
    const auto t0 = vertex(m, d0 * r1 + glm::vec3(0, y1, 0), d0 + glm::vec3(0, slope, 0));
    const auto t1 = vertex(m, d1 * r1 + glm::vec3(0, y1, 0), d1 + glm::vec3(0, slope, 0));
    tri(m, b0, b1, t1);
    if (r1 > 0.0f) tri(m, b0, t1, t0);
  }
}

void ellipsoid(PlantMesh& m, glm::vec3 c, glm::vec3 r, int seg) {
  const int rings = seg / 2 + 1;
  const auto base = static_cast<std::uint32_t>(m.positions.size());
  for (int j = 0; j <= rings; ++j) {
    const float v = kPi * float(j) / float(rings);
    for (int i = 0; i <= seg; ++i) {
      const float u = 2.0f * kPi * float(i) / float(seg);
      const glm::vec3 d(std::sin(v) * std::cos(u), std::cos(v), -std::sin(v) * std::sin(u));
      vertex(m, c + d * r, d / r);
    }
  }
  const auto row = static_cast<std::uint32_t>(seg + 1);
  for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(rings); ++j)
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(seg); ++i) {
      const std::uint32_t a = base + j * row + i, b = a + row;
      tri(m, a, b, b + 1);
      tri(m, a, b + 1, a + 1);
    }
}

void blades(PlantMesh& m, int count, float height) {
  for (int i = 0; i < count; ++i) {
    // Golden-angle spiral: even coverage without randomness.
    const float a = float(i) * 2.39996323f;
    const float rad = 0.25f * std::sqrt((float(i) + 0.5f) / float(count));
    const glm::vec3 base(rad * std::cos(a), 0.0f, rad * std::sin(a));
    const glm::vec3 side(-std::sin(a) * 0.03f, 0.0f, std::cos(a) * 0.03f);
    const glm::vec3 n(std::cos(a), 0.3f, std::sin(a));
    const glm::vec3 tip = base * 1.6f + glm::vec3(0.0f, height * (0.7f + 0.3f * float(i % 3) / 2.0f), 0.0f);
    const auto v0 = vertex(m, base - side, n);
    const auto v1 = vertex(m, base + side, n);
    const auto v2 = vertex(m, tip, n);
    tri(m, v0, v1, v2);
  }
}

}  // namespace

PlantMesh make_billboard_mesh(const Aabb& b) {
  PlantMesh m;
  const float r = std::max(std::max(-b.min.x, b.max.x), std::max(-b.min.z, b.max.z));
  for (int k = 0; k < 2; ++k) {
    const glm::vec3 axis = k == 0 ? glm::vec3(r, 0, 0) : glm::vec3(0, 0, r);
    const glm::vec3 n = k == 0 ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0);
    const auto a = vertex(m, -axis + glm::vec3(0, b.min.y, 0), n);
    const auto c = vertex(m, axis + glm::vec3(0, b.min.y, 0), n);
    const auto d = vertex(m, axis + glm::vec3(0, b.max.y, 0), n);
    const auto e = vertex(m, -axis + glm::vec3(0, b.max.y, 0), n);
    tri(m, a, c, d);
    tri(m, a, d, e);
    tri(m, a, d, c);  // back side
    tri(m, a, e, d);
  }
  return m;
}

Aabb PlantMesh::bounds() const {
  Aabb b;
  for (const glm::vec3& p : positions) b.expand(p);
  return b;
}

std::array<PlantMesh, kPlantLodCount> make_plant_lods(PlantKind kind) {
  std::array<PlantMesh, kPlantLodCount> lods;
  static constexpr int kSegments[3] = {16, 8, 4};
  static constexpr int kBlades[3] = {24, 10, 4};
  for (int l = 0; l < 3; ++l) {
    PlantMesh& m = lods[static_cast<std::size_t>(l)];
    switch (kind) {
      case PlantKind::kTree:
        cone(m, 0.0f, 0.3f, 2.5f, 0.2f, std::max(3, kSegments[l] / 2));
        cone(m, 2.0f, 2.2f, 8.0f, 0.0f, kSegments[l]);
        break;
      case PlantKind::kBush:
        ellipsoid(m, {0.0f, 0.7f, 0.0f}, {1.0f, 0.7f, 1.0f}, kSegments[l]);
        break;
      default:
        blades(m, kBlades[l], 0.6f);
        break;
    }
  }
  Aabb all = lods[0].bounds();
  all.expand(lods[1].bounds());
  all.expand(lods[2].bounds());
  lods[3] = make_billboard_mesh(all);
  return lods;
}

PlantMesh make_box_mesh(const Aabb& b) {
  PlantMesh m;
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side) {
      glm::vec3 n(0.0f);
      n[axis] = side == 0 ? -1.0f : 1.0f;
      // u, v span the face so that u x v = n (counter-clockwise seen from outside).
      const int ua = (axis + 1) % 3, va = (axis + 2) % 3;
      const glm::vec3 c = (b.min + b.max) * 0.5f + n * (b.max - b.min) * 0.5f;
      glm::vec3 u(0.0f), v(0.0f);
      u[ua] = (b.max[ua] - b.min[ua]) * 0.5f;
      v[va] = (b.max[va] - b.min[va]) * 0.5f;
      if (side == 0) u = -u;
      const auto p0 = vertex(m, c - u - v, n), p1 = vertex(m, c + u - v, n);
      const auto p2 = vertex(m, c + u + v, n), p3 = vertex(m, c - u + v, n);
      tri(m, p0, p1, p2);
      tri(m, p0, p2, p3);
    }
  return m;
}

PlantMesh make_grid_mesh(std::uint32_t cells, const GridVertexFn& vertex) {
  PlantMesh m;
  const std::uint32_t n = cells + 1;
  m.positions.resize(std::size_t{n} * n);
  m.normals.assign(m.positions.size(), kWorldUp);
  for (std::uint32_t j = 0; j < n; ++j)
    for (std::uint32_t i = 0; i < n; ++i) vertex(i, j, m.positions[j * n + i], m.normals[j * n + i]);
  m.indices.reserve(std::size_t{cells} * cells * 6);
  for (std::uint32_t j = 0; j < cells; ++j)
    for (std::uint32_t i = 0; i < cells; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      m.indices.insert(m.indices.end(), {a, c, d, a, d, b});  // counter-clockwise seen from above
    }
  return m;
}

}  // namespace myriad::vegetation
