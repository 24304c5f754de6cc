#include "myriad/crowd_bake/enemy/enemy.hpp"

#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace myriad::crowd {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

std::uint16_t joint(const anim::Skeleton& s, const char* name) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.names[i] == name) return static_cast<std::uint16_t>(i);
  }
  throw Error(std::string("humanoid skeleton has no joint '") + name + "'");
}

// Builds the mesh; UV islands are laid out in a grid of cells over the texture.
struct Builder {
  anim::SkinnedMesh mesh;
  int cells_per_row = 16;
  int next_cell = 0;

  glm::vec2 cell_uv(int cell, glm::vec2 local) const {
    const float size = 1.0f / static_cast<float>(cells_per_row);
    const glm::vec2 origin(static_cast<float>(cell % cells_per_row),
                           static_cast<float>(cell / cells_per_row));
    return (origin + glm::vec2(0.05f) + local * 0.9f) * size;
  }
  std::uint32_t vertex(glm::vec3 p, glm::vec3 n, glm::vec2 uv, glm::u16vec4 j, glm::vec4 w) {
    mesh.positions.push_back(p);
    mesh.normals.push_back(glm::normalize(n));
    mesh.uvs.push_back(uv);
    mesh.joints.push_back(j);
    mesh.weights.push_back(w);
    return static_cast<std::uint32_t>(mesh.positions.size() - 1);
  }
  void quad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
  }
};

struct Frame {
  glm::vec3 u, v;
};
Frame frame_around(glm::vec3 axis) {
  const glm::vec3 ref = std::abs(axis.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 u = glm::normalize(glm::cross(axis, ref));
  return {u, glm::cross(axis, u)};
}

// A capped tube from a to b around `sides` directions; skin blends from bone `ja` into `jb` over the last
// 30 % of its length. UV islands are two sides wide, so island borders duplicate their vertices.
void tube(Builder& bld, glm::vec3 from, glm::vec3 to, float radius, std::uint16_t ja, std::uint16_t jb,
          int sides, int rings) {
  // A small gap at each joint, as between real bones; it also keeps neighbouring caps from coinciding.
  const glm::vec3 a = from + (to - from) * 0.04f, b = to - (to - from) * 0.04f;
  const glm::vec3 axis = glm::normalize(b - a);
  const Frame f = frame_around(axis);
  auto skin = [&](float t) {
    const float s = std::clamp((t - 0.7f) / 0.3f, 0.0f, 1.0f) * 0.5f;
    return std::pair{glm::u16vec4(ja, jb, 0, 0), glm::vec4(1.0f - s, s, 0.0f, 0.0f)};
  };
  auto dir = [&](int k) {  // k == sides wraps to 0 exactly, so the last island closes the tube
    const float ang = 2.0f * kPi * static_cast<float>(k % sides) / static_cast<float>(sides);
    return std::cos(ang) * f.u + std::sin(ang) * f.v;
  };
  for (int island = 0; island < sides; island += 2) {
    const int cell = bld.next_cell++;
    const int width = std::min(2, sides - island);
    std::vector<std::uint32_t> grid;
    for (int r = 0; r <= rings; ++r) {
      const float t = static_cast<float>(r) / static_cast<float>(rings);
      const auto [j, w] = skin(t);
      for (int k = 0; k <= width; ++k) {
        const glm::vec3 d = dir(island + k);
        const glm::vec3 centre = r == rings ? b : a + (b - a) * t;  // the end cap's rim exactly
        grid.push_back(
            bld.vertex(centre + d * radius, d, bld.cell_uv(cell, {float(k) / float(width), t}), j, w));
      }
    }
    for (int r = 0; r < rings; ++r) {
      for (int k = 0; k < width; ++k) {
        const auto at = [&](int rr, int kk) { return grid[static_cast<std::size_t>(rr * (width + 1) + kk)]; };
        bld.quad(at(r, k), at(r, k + 1), at(r + 1, k + 1), at(r + 1, k));
      }
    }
  }
  // Flat caps: their own island, normals along the axis (hard edge with the tube).
  for (int end = 0; end < 2; ++end) {
    const int cell = bld.next_cell++;
    const glm::vec3 centre = end == 0 ? a : b;
    const glm::vec3 n = end == 0 ? -axis : axis;
    const auto [j, w] = skin(float(end));
    const std::uint32_t c = bld.vertex(centre, n, bld.cell_uv(cell, {0.5f, 0.5f}), j, w);
    std::vector<std::uint32_t> rim;
    for (int k = 0; k < sides; ++k) {
      const float ang = 2.0f * kPi * static_cast<float>(k) / static_cast<float>(sides);
      const glm::vec2 local = glm::vec2(0.5f) + 0.5f * glm::vec2(std::cos(ang), std::sin(ang));
      rim.push_back(bld.vertex(centre + dir(k) * radius, n, bld.cell_uv(cell, local), j, w));
    }
    for (int k = 0; k < sides; ++k) {
      const std::uint32_t p = rim[static_cast<std::size_t>(k)],
                          q = rim[static_cast<std::size_t>((k + 1) % sides)];
      if (end == 0) {
        bld.mesh.indices.insert(bld.mesh.indices.end(), {c, q, p});
      } else {
        bld.mesh.indices.insert(bld.mesh.indices.end(), {c, p, q});
      }
    }
  }
}

// A skull: a UV sphere cut into four longitude islands.
void skull(Builder& bld, glm::vec3 centre, float radius, std::uint16_t head) {
  const int lon = 12, lat = 8;
  for (int island = 0; island < 4; ++island) {
    const int cell = bld.next_cell++;
    const int cols = lon / 4;
    std::vector<std::uint32_t> grid;
    for (int r = 0; r <= lat; ++r) {
      const float theta = kPi * static_cast<float>(r) / static_cast<float>(lat);
      for (int k = 0; k <= cols; ++k) {
        const float phi =
            2.0f * kPi * static_cast<float>((island * cols + k) % lon) / static_cast<float>(lon);
        glm::vec3 d(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi));
        if (r == 0 || r == lat) d = glm::vec3(0.0f, r == 0 ? 1.0f : -1.0f, 0.0f);  // one pole position
        grid.push_back(bld.vertex(centre + d * radius * glm::vec3(0.85f, 1.0f, 1.0f), d,
                                  bld.cell_uv(cell, {float(k) / float(cols), float(r) / float(lat)}),
                                  {head, 0, 0, 0}, {1.0f, 0.0f, 0.0f, 0.0f}));
      }
    }
    for (int r = 0; r < lat; ++r) {
      for (int k = 0; k < cols; ++k) {
        const auto at = [&](int rr, int kk) { return grid[static_cast<std::size_t>(rr * (cols + 1) + kk)]; };
        // Pole rows are fans: their quads would have a zero-length edge.
        if (r != 0) bld.mesh.indices.insert(bld.mesh.indices.end(), {at(r, k), at(r, k + 1), at(r + 1, k)});
        if (r != lat - 1) {
          bld.mesh.indices.insert(bld.mesh.indices.end(), {at(r + 1, k), at(r, k + 1), at(r + 1, k + 1)});
        }
      }
    }
  }
}

// Ivory with darker bands, so a re-baked texture that lands in the wrong place is visible.
anim::Texture bone_texture(int size) {
  anim::Texture t;
  t.name = "enemy_bone";
  t.width = t.height = static_cast<std::uint32_t>(size);
  t.rgba8.resize(std::size_t{t.width} * t.height * 4);
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const bool band = ((x / 4) + (y / 4)) % 5 == 0;
      const float shade = 0.85f + 0.15f * std::sin(float(x) * 0.3f) * std::cos(float(y) * 0.2f);
      std::uint8_t* p = t.rgba8.data() + (std::size_t(y) * std::size_t(size) + std::size_t(x)) * 4;
      p[0] = static_cast<std::uint8_t>((band ? 140.0f : 230.0f) * shade);
      p[1] = static_cast<std::uint8_t>((band ? 120.0f : 220.0f) * shade);
      p[2] = static_cast<std::uint8_t>((band ? 100.0f : 190.0f) * shade);
      p[3] = 255;
    }
  }
  return t;
}

// An overhead swing with the right arm and a twist of the spine, `period` seconds.
anim::Clip make_attack_clip(const anim::Skeleton& s, float period) {
  anim::Clip c;
  c.name = "attack";
  c.duration = period;
  const glm::vec3 x(1.0f, 0.0f, 0.0f), y(0.0f, 1.0f, 0.0f), z(0.0f, 0.0f, 1.0f);
  auto add = [&](const char* name, glm::vec3 axis, std::initializer_list<float> angles) {
    const std::uint16_t j = joint(s, name);
    anim::Channel ch;
    ch.joint = j;
    ch.path = anim::ChannelPath::kRotation;
    ch.first_key = static_cast<std::uint32_t>(c.times.size());
    ch.key_count = static_cast<std::uint32_t>(angles.size());
    ch.first_value = static_cast<std::uint32_t>(c.values.size());
    int k = 0;
    for (float a : angles) {
      c.times.push_back(period * static_cast<float>(k++) / static_cast<float>(angles.size() - 1));
      const glm::quat q = glm::angleAxis(a, axis) * s.rest.rotation[j];
      c.values.emplace_back(q.x, q.y, q.z, q.w);
    }
    c.channels.push_back(ch);
  };
  add("r_upper_arm", z, {0.0f, -1.4f, -1.6f, 0.6f, 0.0f});
  add("r_forearm", y, {0.0f, 0.9f, 1.2f, 0.1f, 0.0f});
  add("spine", y, {0.0f, 0.3f, 0.35f, -0.4f, 0.0f});
  add("chest", x, {0.0f, -0.15f, -0.2f, 0.35f, 0.0f});
  add("head", x, {0.0f, -0.2f, -0.2f, 0.25f, 0.0f});
  add("l_thigh", x, {0.0f, -0.3f, -0.3f, 0.2f, 0.0f});
  c.validate(s.size());
  return c;
}

}  // namespace

void EnemyOptions::validate() const {
  if (tube_sides < 3 || tube_sides > 64)
    throw Error("enemy tube sides " + std::to_string(tube_sides) + " is invalid", "EnemyOptions::tube_sides",
                "use 3..64");
  if (rings_per_bone < 1 || rings_per_bone > 64)
    throw Error("enemy rings per bone " + std::to_string(rings_per_bone) + " is invalid",
                "EnemyOptions::rings_per_bone", "use 1..64");
  if (texture_size < 4 || texture_size > 4096)
    throw Error("enemy texture size " + std::to_string(texture_size) + " is invalid",
                "EnemyOptions::texture_size", "use 4..4096 texels");
}

anim::ImportedModel make_enemy(const EnemyOptions& options) {
  options.validate();
  anim::ImportedModel m;
  m.skeleton = anim::humanoid_skeleton();
  const anim::Skeleton& s = m.skeleton;
  const std::size_t n = s.size();
  std::vector<glm::mat4> rest(n);
  anim::local_to_model(s.parents, s.rest, rest);
  m.inverse_binds.resize(n);
  m.joints.resize(n);
  m.joint_nodes.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    m.inverse_binds[i] = glm::inverse(rest[i]);
    m.joints[i] = static_cast<std::uint16_t>(i);
  }
  auto at = [&](const char* name) { return glm::vec3(rest[joint(s, name)][3]); };
  Builder b;
  const int sides = options.tube_sides, rings = options.rings_per_bone;
  auto bone = [&](const char* from, const char* to, float radius) {
    tube(b, at(from), at(to), radius, joint(s, from), joint(s, to), sides, rings);
  };
  bone("hips", "spine", 0.03f);
  bone("spine", "chest", 0.03f);
  bone("chest", "neck", 0.03f);
  bone("neck", "head", 0.02f);
  for (const char* side : {"l_", "r_"}) {
    const std::string p(side);
    bone((p + "clavicle").c_str(), (p + "upper_arm").c_str(), 0.02f);
    bone((p + "upper_arm").c_str(), (p + "forearm").c_str(), 0.025f);
    bone((p + "forearm").c_str(), (p + "hand").c_str(), 0.02f);
    const glm::vec3 hand = at((p + "hand").c_str());
    const glm::vec3 reach = glm::normalize(hand - at((p + "forearm").c_str())) * 0.12f;
    tube(b, hand, hand + reach, 0.025f, joint(s, (p + "hand").c_str()), joint(s, (p + "hand").c_str()), sides,
         rings);
    bone((p + "thigh").c_str(), (p + "shin").c_str(), 0.03f);
    bone((p + "shin").c_str(), (p + "foot").c_str(), 0.025f);
    bone((p + "foot").c_str(), (p + "toe").c_str(), 0.025f);
  }
  // Pelvis bar and two rib hoops (each hoop: four tubes around the chest).
  tube(b, at("l_thigh"), at("r_thigh"), 0.035f, joint(s, "hips"), joint(s, "hips"), sides, rings);
  const glm::vec3 chest = at("chest");
  for (int r = 0; r < 2; ++r) {
    const float h = 0.05f + 0.08f * static_cast<float>(r), rad = 0.12f - 0.015f * static_cast<float>(r);
    for (int k = 0; k < 4; ++k) {
      const float a0 = 2.0f * kPi * static_cast<float>(k) / 4.0f, a1 = a0 + 2.0f * kPi / 4.0f;
      const glm::vec3 p0 = chest + glm::vec3(std::cos(a0) * rad, h, std::sin(a0) * rad * 0.7f);
      const glm::vec3 p1 = chest + glm::vec3(std::cos(a1) * rad, h, std::sin(a1) * rad * 0.7f);
      tube(b, p0, p1, 0.012f, joint(s, "chest"), joint(s, "chest"), sides, rings);
    }
  }
  skull(b, at("head") + glm::vec3(0.0f, 0.1f, 0.0f), 0.1f, joint(s, "head"));
  b.mesh.name = "enemy";
  b.mesh.material = 0;
  m.meshes.push_back(std::move(b.mesh));
  m.materials.push_back({"bone", glm::vec4(1.0f), 0, false});
  m.textures.push_back(bone_texture(options.texture_size));
  m.clips.push_back(anim::make_walk_clip(s, 1.0f));
  m.clips.push_back(make_attack_clip(s, 1.2f));
  return m;
}

}  // namespace myriad::crowd
