#include "myriad/vegetation/plant/plant_mesh.hpp"

#include <algorithm>

namespace myriad::vegetation {
namespace {

std::uint32_t vertex(PlantMesh& m, glm::vec3 p, glm::vec3 n) {
  m.positions.push_back(p);
  m.normals.push_back(glm::normalize(n));
  return static_cast<std::uint32_t>(m.positions.size() - 1);
}

void tri(PlantMesh& m, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  m.indices.insert(m.indices.end(), {a, b, c});
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
