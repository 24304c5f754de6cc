// Small generated meshes for the unwrap, LOD2 and hole check tests: a subdivided box with one shared
// vertex per position (every cube edge a 90° crease), a smooth open height field, and a humanoid of
// intersecting capsules with per-capsule UV islands and a smooth periodic texture.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <tuple>

namespace myriad::crowd::test {

inline void add_vertex(BakeMesh& m, glm::vec3 p, glm::vec3 n, glm::vec2 uv, std::uint16_t joint) {
  m.positions.push_back(p);
  m.normals.push_back(glm::normalize(n));
  m.uvs.push_back(uv);
  m.joints.push_back({joint, 0, 0, 0});
  m.weights.push_back({1.0f, 0.0f, 0.0f, 0.0f});
}

inline void add_triangle(BakeMesh& m, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                         std::uint16_t material = 0) {
  m.indices.insert(m.indices.end(), {a, b, c});
  m.triangle_material.push_back(material);
}

// A cube of side `size` centred on the origin, each face an n × n grid, counter-clockwise outward.
inline BakeMesh make_grid_box(int n, float size = 1.0f) {
  BakeMesh m;
  std::map<std::tuple<int, int, int>, std::uint32_t> lattice;
  auto vertex = [&](glm::ivec3 q) {
    const auto key = std::make_tuple(q.x, q.y, q.z);
    const auto it = lattice.find(key);
    if (it != lattice.end()) return it->second;
    const glm::vec3 p = (glm::vec3(q) / static_cast<float>(n) - 0.5f) * size;
    const auto index = static_cast<std::uint32_t>(m.positions.size());
    add_vertex(m, p, p, glm::vec2(0.0f), 0);
    lattice.emplace(key, index);
    return index;
  };
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      const int u_axis = (axis + 1) % 3, v_axis = (axis + 2) % 3;
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          glm::ivec3 c[4];
          const int du[4] = {0, 1, 1, 0}, dv[4] = {0, 0, 1, 1};
          for (int k = 0; k < 4; ++k) {
            c[k][axis] = side * n;
            c[k][u_axis] = i + du[k];
            c[k][v_axis] = j + dv[k];
          }
          std::uint32_t v[4];
          for (int k = 0; k < 4; ++k) v[k] = vertex(c[k]);
          // (u, v) × axis is +axis: counter-clockwise seen from +axis on the far side.
          if (side == 1) {
            add_triangle(m, v[0], v[1], v[2]);
            add_triangle(m, v[0], v[2], v[3]);
          } else {
            add_triangle(m, v[0], v[2], v[1]);
            add_triangle(m, v[0], v[3], v[2]);
          }
        }
      }
    }
  }
  return m;
}

// A smooth open bump z = 0.15·cos(πx)·cos(πy) over [-0.5, 0.5]², n × n quads, facing +z.
inline BakeMesh make_height_field(int n) {
  BakeMesh m;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) {
      const float x = static_cast<float>(i) / static_cast<float>(n) - 0.5f;
      const float y = static_cast<float>(j) / static_cast<float>(n) - 0.5f;
      const float pi = std::numbers::pi_v<float>;
      const float z = 0.15f * std::cos(pi * x) * std::cos(pi * y);
      const glm::vec3 normal(0.15f * pi * std::sin(pi * x) * std::cos(pi * y),
                             0.15f * pi * std::cos(pi * x) * std::sin(pi * y), 1.0f);
      add_vertex(m, {x, y, z}, normal, {x + 0.5f, y + 0.5f}, 0);
    }
  }
  const auto at = [n](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      add_triangle(m, at(i, j), at(i + 1, j), at(i + 1, j + 1));
      add_triangle(m, at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  }
  return m;
}

// A capsule from p0 to p1: two hemispheres joined by a tube, `segments` around and `rings` per
// hemisphere. Its UV island spans u 0..1 around (a duplicated seam column) and v 0..1 pole to pole,
// scaled into `uv_box` (x, y, width, height) of the texture.
inline void add_capsule(BakeMesh& m, glm::vec3 p0, glm::vec3 p1, float radius, int segments, int rings,
                        std::uint16_t joint, glm::vec4 uv_box) {
  glm::vec3 axis = p1 - p0;
  axis = glm::length(axis) > 0.0f ? glm::normalize(axis) : glm::vec3(0.0f, 1.0f, 0.0f);
  const glm::vec3 e1 =
      glm::normalize(std::abs(axis.x) < 0.9f ? glm::cross(axis, glm::vec3(1.0f, 0.0f, 0.0f))
                                             : glm::cross(axis, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 e2 = glm::cross(axis, e1);
  const float pi = std::numbers::pi_v<float>;
  const int ring_count = 2 * (rings + 1);
  const auto base = static_cast<std::uint32_t>(m.positions.size());
  for (int r = 0; r < ring_count; ++r) {
    const bool top = r > rings;
    const int k = top ? r - (rings + 1) : r;
    const float theta = top ? 0.5f * pi * static_cast<float>(k) / static_cast<float>(rings)
                            : -0.5f * pi + 0.5f * pi * static_cast<float>(k) / static_cast<float>(rings);
    const glm::vec3 centre = top ? p1 : p0;
    for (int s = 0; s <= segments; ++s) {
      // The seam column repeats column 0 and the pole rings sit exactly on the axis, bit for bit, so
      // these copies weld as they do in real models.
      const float phi = 2.0f * pi * static_cast<float>(s % segments) / static_cast<float>(segments);
      const bool pole = k == (top ? rings : 0);
      const glm::vec3 n =
          pole ? (top ? axis : -axis)
               : std::sin(theta) * axis + std::cos(theta) * (std::cos(phi) * e1 + std::sin(phi) * e2);
      const glm::vec2 uv(static_cast<float>(s) / static_cast<float>(segments),
                         static_cast<float>(r) / static_cast<float>(ring_count - 1));
      add_vertex(m, centre + radius * n, n,
                 glm::vec2(uv_box.x, uv_box.y) + uv * glm::vec2(uv_box.z, uv_box.w), joint);
    }
  }
  const auto at = [&](int r, int s) { return base + static_cast<std::uint32_t>(r * (segments + 1) + s); };
  for (int r = 0; r + 1 < ring_count; ++r) {
    for (int s = 0; s < segments; ++s) {
      // Around +axis: e1 → e2 is counter-clockwise, so (ring r, s) → (r, s+1) → (r+1, s+1) faces out.
      if (r != 0) add_triangle(m, at(r, s), at(r, s + 1), at(r + 1, s + 1));
      if (r + 2 != ring_count) add_triangle(m, at(r, s), at(r + 1, s + 1), at(r + 1, s));
    }
  }
}

// A humanoid about 1.8 units tall of intersecting capsules (torso, head, two arms, two legs), one
// joint per capsule, each capsule its own UV island in a 3 × 2 grid of the texture.
inline BakeMesh make_capsule_humanoid(int segments = 12, int rings = 4) {
  BakeMesh m;
  struct Part {
    glm::vec3 p0, p1;
    float radius;
  };
  const Part parts[6] = {
      {{0.0f, 0.95f, 0.0f}, {0.0f, 1.4f, 0.0f}, 0.18f},
      {{0.0f, 1.66f, 0.0f}, {0.0f, 1.7f, 0.0f}, 0.12f},
      {{-0.22f, 1.45f, 0.0f}, {-0.72f, 1.1f, 0.0f}, 0.05f},
      {{0.22f, 1.45f, 0.0f}, {0.72f, 1.1f, 0.0f}, 0.05f},
      {{-0.1f, 0.9f, 0.0f}, {-0.13f, 0.08f, 0.0f}, 0.07f},
      {{0.1f, 0.9f, 0.0f}, {0.13f, 0.08f, 0.0f}, 0.07f},
  };
  for (int i = 0; i < 6; ++i) {
    const glm::vec4 box(static_cast<float>(i % 3) / 3.0f + 0.01f, static_cast<float>(i / 3) / 2.0f + 0.01f,
                        1.0f / 3.0f - 0.02f, 0.5f - 0.02f);
    add_capsule(m, parts[i].p0, parts[i].p1, parts[i].radius, segments, rings, static_cast<std::uint16_t>(i),
                box);
  }
  return m;
}

// A smooth texture laid out for make_capsule_humanoid's 3 × 2 islands: within each island the colour
// is continuous across the capsule's seam column and constant along its poles, as painted textures
// are, so re-baking has no colour edge to blur.
inline anim::Texture make_smooth_texture(std::uint32_t size) {
  anim::Texture texture;
  texture.name = "smooth";
  texture.width = texture.height = size;
  texture.rgba8.resize(static_cast<std::size_t>(size) * size * 4);
  const float pi = std::numbers::pi_v<float>;
  for (std::uint32_t y = 0; y < size; ++y) {
    for (std::uint32_t x = 0; x < size; ++x) {
      const float fx = (static_cast<float>(x) + 0.5f) / static_cast<float>(size);
      const float fy = (static_cast<float>(y) + 0.5f) / static_cast<float>(size);
      const float cx = std::floor(fx * 3.0f), cy = std::floor(fy * 2.0f);
      const float a = std::clamp((fx - cx / 3.0f - 0.01f) / (1.0f / 3.0f - 0.02f), 0.0f, 1.0f);
      const float b = std::clamp((fy - cy / 2.0f - 0.01f) / (0.5f - 0.02f), 0.0f, 1.0f);
      std::uint8_t* p = &texture.rgba8[(static_cast<std::size_t>(y) * size + x) * 4];
      p[0] = static_cast<std::uint8_t>(128.0f + 100.0f * std::sin(pi * b) * std::sin(2.0f * pi * a));
      p[1] = static_cast<std::uint8_t>(128.0f + 100.0f * std::cos(pi * b));
      p[2] = static_cast<std::uint8_t>(128.0f + 60.0f * std::sin(pi * b) * std::cos(2.0f * pi * a) +
                                       40.0f * cx / 2.0f);
      p[3] = 255;
    }
  }
  return texture;
}

}  // namespace myriad::crowd::test
