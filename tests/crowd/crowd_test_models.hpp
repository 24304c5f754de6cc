// Skinned, animated glTF characters written with tinygltf for the crowd baker's tests, shaped like
// the public models that broke it: limbs 1–3 cm apart in the bind pose, a thin open cape, several
// clips, a boxy 84-triangle character of 7 meshes and 6 joints with colour-only materials, a robot of
// skinned meshes and many rigid parts parented to bones (open-ended tubes), and seeded random models
// with random UV seams, several meshes and rigid parts. Each is written to a file and read back
// through the same import a user's model takes (anim::import_whole_model).
#pragma once

#include "../anim/kit_test_models.hpp"

#include "myriad/anim/import/whole_model.hpp"

#include <glm/gtc/constants.hpp>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <unistd.h>

namespace myriad::crowd::test {

using anim::test::ModelBuilder;
using MeshData = ModelBuilder::MeshData;

// Weights of a point along a limb from joint a (t = 0) to joint b (t = 1): a alone up to 40 %, b alone
// after 60 %, blended between (as an exporter's automatic weights look at an elbow).
inline void limb_weight(MeshData& d, float t, int a, int b) {
  const float wb = b < 0 ? 0.0f : glm::clamp((t - 0.4f) / 0.2f, 0.0f, 1.0f);
  d.joints.push_back(
      glm::u16vec4(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b < 0 ? 0 : b), 0, 0));
  d.weights.push_back(glm::vec4(1.0f - wb, wb, 0.0f, 0.0f));
}

// A tube from p0 to p1 (radius r) of `segments` × `rings` quads, with capped ends unless `open`; its
// UVs fill `uv_box` (x, y, w, h) with one seam column. Skinned from joint a to joint b along its length
// when skinned (b < 0: a alone).
inline void add_tube(MeshData& d, glm::vec3 p0, glm::vec3 p1, float r, int segments, int rings,
                     glm::vec4 uv_box, bool skinned, int a = 0, int b = -1, bool open = false) {
  const glm::vec3 axis = glm::normalize(p1 - p0);
  const glm::vec3 side = std::abs(axis.y) < 0.9f ? glm::normalize(glm::cross(axis, glm::vec3(0, 1, 0)))
                                                 : glm::normalize(glm::cross(axis, glm::vec3(1, 0, 0)));
  const glm::vec3 up = glm::cross(side, axis);
  const auto base = static_cast<std::uint32_t>(d.positions.size());
  for (int i = 0; i <= rings; ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(rings);
    for (int s = 0; s <= segments; ++s) {
      const float angle = glm::two_pi<float>() * static_cast<float>(s) / static_cast<float>(segments);
      const glm::vec3 n = std::cos(angle) * side + std::sin(angle) * up;
      d.positions.push_back(glm::mix(p0, p1, t) + r * n);
      d.normals.push_back(n);
      d.uvs.push_back(glm::vec2(uv_box.x + uv_box.z * static_cast<float>(s) / static_cast<float>(segments),
                                uv_box.y + uv_box.w * t));
      if (skinned) limb_weight(d, t, a, b);
    }
  }
  const auto row = static_cast<std::uint32_t>(segments + 1);
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(rings); ++i) {
    for (std::uint32_t s = 0; s < static_cast<std::uint32_t>(segments); ++s) {
      const std::uint32_t v = base + i * row + s;
      d.indices.insert(d.indices.end(), {v, v + 1, v + row + 1, v, v + row + 1, v + row});
    }
  }
  if (open) return;
  for (int end = 0; end < 2; ++end) {
    const auto centre = static_cast<std::uint32_t>(d.positions.size());
    d.positions.push_back(end ? p1 : p0);
    d.normals.push_back(end ? axis : -axis);
    d.uvs.push_back(glm::vec2(uv_box.x + 0.5f * uv_box.z, uv_box.y + (end ? uv_box.w : 0.0f)));
    if (skinned) limb_weight(d, end ? 1.0f : 0.0f, a, b);
    const std::uint32_t ring = base + (end ? static_cast<std::uint32_t>(rings) * row : 0u);
    for (std::uint32_t s = 0; s < static_cast<std::uint32_t>(segments); ++s) {
      if (end)
        d.indices.insert(d.indices.end(), {ring + s, ring + s + 1, centre});
      else
        d.indices.insert(d.indices.end(), {ring + s + 1, ring + s, centre});
    }
  }
}

// A flat grid sheet (a cape): `nx` × `ny` quads from corner o along ex and ey; weights from joint
// a at the top (o) to b at the bottom.
inline void add_sheet(MeshData& d, glm::vec3 o, glm::vec3 ex, glm::vec3 ey, int nx, int ny, int a, int b) {
  const auto base = static_cast<std::uint32_t>(d.positions.size());
  const glm::vec3 n = glm::normalize(glm::cross(ey, ex));
  for (int j = 0; j <= ny; ++j) {
    for (int i = 0; i <= nx; ++i) {
      const float u = static_cast<float>(i) / static_cast<float>(nx),
                  v = static_cast<float>(j) / static_cast<float>(ny);
      d.positions.push_back(o + u * ex + v * ey);
      d.normals.push_back(n);
      d.uvs.push_back(glm::vec2(u, v));
      limb_weight(d, v, a, b);
    }
  }
  const auto row = static_cast<std::uint32_t>(nx + 1);
  for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(ny); ++j) {
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(nx); ++i) {
      const std::uint32_t v = base + j * row + i;
      d.indices.insert(d.indices.end(), {v, v + row, v + row + 1, v, v + row + 1, v + 1});
    }
  }
}

// Node translation relative to the parent, from two bind positions (the skeleton has no rotations).
inline int joint_at(ModelBuilder& b, const std::string& name, int parent, glm::vec3 world,
                    glm::vec3 parent_world) {
  return b.node(name, parent, world - parent_world);
}

// A humanoid 1.8 m tall whose arms hang `gap` metres from the torso and whose legs are `gap` apart;
// three clips (wave, walk, nod). With `cape`, a double-sided open sheet hangs 3 cm behind the back.
inline ModelBuilder close_limbs_character(float gap, bool cape) {
  ModelBuilder b;
  const int skin_mat = b.texture_material("skin");
  const int armature = b.node("Armature", -1);
  const glm::vec3 hips_p(0, 1.0f, 0), chest_p(0, 1.35f, 0), head_p(0, 1.6f, 0);
  const float torso_r = 0.17f, arm_r = 0.05f, leg_r = 0.08f;
  const float arm_x = torso_r + gap + arm_r, leg_x = leg_r + 0.5f * gap;
  const int hips = joint_at(b, "hips", armature, hips_p, glm::vec3(0));
  const int chest = joint_at(b, "chest", hips, chest_p, hips_p);
  const int head = joint_at(b, "head", chest, head_p, chest_p);
  int arm[2], fore[2], thigh[2], shin[2];
  for (int side = 0; side < 2; ++side) {
    const float sx = side ? -1.0f : 1.0f;
    const std::string s = side ? "R" : "L";
    arm[side] = joint_at(b, "upper_arm." + s, chest, {sx * arm_x, 1.5f, 0}, chest_p);
    fore[side] = joint_at(b, "forearm." + s, arm[side], {sx * arm_x, 1.22f, 0}, {sx * arm_x, 1.5f, 0});
    thigh[side] = joint_at(b, "thigh." + s, hips, {sx * leg_x, 0.95f, 0}, hips_p);
    shin[side] = joint_at(b, "shin." + s, thigh[side], {sx * leg_x, 0.5f, 0}, {sx * leg_x, 0.95f, 0});
  }
  const std::vector<int> joints = {hips,    chest,    head,    arm[0],   fore[0], arm[1],
                                   fore[1], thigh[0], shin[0], thigh[1], shin[1]};
  const int skin = b.skin(joints, armature);
  MeshData body;
  add_tube(body, {0, 0.88f, 0}, {0, 1.55f, 0}, torso_r, 16, 8, {0.0f, 0.0f, 0.33f, 0.5f}, true, 0, 1);
  add_tube(body, {0, 1.56f, 0}, {0, 1.8f, 0}, 0.1f, 12, 4, {0.34f, 0.0f, 0.32f, 0.5f}, true, 2);
  for (int side = 0; side < 2; ++side) {
    const float sx = side ? -1.0f : 1.0f;
    const int j = 3 + 2 * side, k = 7 + 2 * side;
    add_tube(body, {sx * arm_x, 1.52f, 0}, {sx * arm_x, 0.92f, 0}, arm_r, 10, 8,
             {0.67f, 0.5f * static_cast<float>(side), 0.16f, 0.5f}, true, j, j + 1);
    add_tube(body, {sx * leg_x, 0.95f, 0}, {sx * leg_x, 0.02f, 0}, leg_r, 12, 10,
             {0.84f, 0.5f * static_cast<float>(side), 0.16f, 0.5f}, true, k, k + 1);
  }
  b.mesh_node("body", b.mesh("body", body, skin_mat), skin, armature);
  if (cape) {
    tinygltf::Material cloth;
    cloth.name = "cape";
    cloth.doubleSided = true;
    cloth.pbrMetallicRoughness.baseColorFactor = anim::test::doubles(0.6, 0.1, 0.1, 1.0);
    b.m.materials.push_back(cloth);
    MeshData sheet;
    add_sheet(sheet, {-0.2f, 1.5f, -(torso_r + 0.03f)}, {0.4f, 0, 0}, {0, -0.75f, 0}, 8, 12, 1, 0);
    b.mesh_node("cape", b.mesh("cape", sheet, static_cast<int>(b.m.materials.size() - 1)), skin, armature);
  }
  b.turn_clip("wave", {{arm[0], {0, 0, 1}, 0.9f}, {arm[1], {0, 0, 1}, -0.9f}, {fore[0], {0, 0, 1}, 0.6f}},
              1.2f);
  b.turn_clip("walk",
              {{thigh[0], {1, 0, 0}, 0.5f},
               {thigh[1], {1, 0, 0}, -0.5f},
               {shin[0], {1, 0, 0}, 0.4f},
               {arm[0], {1, 0, 0}, -0.4f},
               {arm[1], {1, 0, 0}, 0.4f}},
              1.0f);
  b.turn_clip("nod", {{head, {1, 0, 0}, 0.35f}, {chest, {0, 1, 0}, 0.3f}}, 0.8f);
  return b;
}

// 7 box meshes (12 triangles, 24 vertices each: 84 and 168), 6 joints, colour-only materials, two clips.
inline ModelBuilder boxy_character() {
  ModelBuilder b;
  const int cloth = b.color_material("cloth", {0.2f, 0.4f, 0.8f, 1.0f});
  const int skin_colour = b.color_material("skin", {0.9f, 0.7f, 0.55f, 1.0f});
  const int hat_colour = b.color_material("hat", {0.8f, 0.1f, 0.1f, 1.0f});
  const int armature = b.node("Armature", -1);
  const int hips = b.node("Hips", armature, {0, 0.9f, 0});
  const int head = b.node("Head", hips, {0, 0.7f, 0});
  const int arm_l = b.node("ArmL", hips, {0.3f, 0.6f, 0});
  const int arm_r = b.node("ArmR", hips, {-0.3f, 0.6f, 0});
  const int leg_l = b.node("LegL", hips, {0.12f, 0.0f, 0});
  const int leg_r = b.node("LegR", hips, {-0.12f, 0.0f, 0});
  const int skin = b.skin({hips, head, arm_l, arm_r, leg_l, leg_r}, armature);
  struct Part {
    const char* name;
    glm::vec3 lo, hi;
    int material, joint;
  };
  const Part parts[7] = {
      {"torso", {-0.22f, 0.9f, -0.12f}, {0.22f, 1.5f, 0.12f}, cloth, 0},
      {"head", {-0.14f, 1.52f, -0.14f}, {0.14f, 1.8f, 0.14f}, skin_colour, 1},
      {"hat", {-0.16f, 1.8f, -0.16f}, {0.16f, 1.9f, 0.16f}, hat_colour, 1},
      {"arm_l", {0.24f, 0.95f, -0.06f}, {0.36f, 1.5f, 0.06f}, skin_colour, 2},
      {"arm_r", {-0.36f, 0.95f, -0.06f}, {-0.24f, 1.5f, 0.06f}, skin_colour, 3},
      {"leg_l", {0.03f, 0.0f, -0.08f}, {0.2f, 0.88f, 0.08f}, cloth, 4},
      {"leg_r", {-0.2f, 0.0f, -0.08f}, {-0.03f, 0.88f, 0.08f}, cloth, 5},
  };
  for (const Part& p : parts)
    b.mesh_node(p.name, b.box(p.name, p.lo, p.hi, p.material, true, p.joint), skin, armature);
  b.turn_clip("walk",
              {{leg_l, {1, 0, 0}, 0.5f},
               {leg_r, {1, 0, 0}, -0.5f},
               {arm_l, {1, 0, 0}, -0.5f},
               {arm_r, {1, 0, 0}, 0.5f}},
              1.0f);
  b.turn_clip("cheer", {{arm_l, {0, 0, 1}, 1.2f}, {arm_r, {0, 0, 1}, -1.2f}, {head, {0, 1, 0}, 0.4f}}, 0.8f);
  return b;
}

// A robot: 4 skinned meshes (pelvis, torso, two legs) and 15 rigid meshes parented to its bones —
// open bands of one ring, all of whose vertices lie on their own open rims.
inline ModelBuilder rigid_robot() {
  ModelBuilder b;
  const int metal = b.color_material("metal", {0.6f, 0.6f, 0.65f, 1.0f});
  const int paint = b.texture_material("paint");
  const int armature = b.node("Armature", -1);
  const int pelvis = b.node("pelvis", armature, {0, 1.0f, 0});
  const int spine = b.node("spine", pelvis, {0, 0.35f, 0});
  const int head = b.node("head", spine, {0, 0.35f, 0});
  int upper[2], lower[2], hand[2], thigh[2], shin[2];
  for (int side = 0; side < 2; ++side) {
    const float sx = side ? -1.0f : 1.0f;
    const std::string s = side ? "_r" : "_l";
    upper[side] = b.node("upper" + s, spine, {sx * 0.3f, 0.25f, 0});
    lower[side] = b.node("lower" + s, upper[side], {0, -0.3f, 0});
    hand[side] = b.node("hand" + s, lower[side], {0, -0.28f, 0});
    thigh[side] = b.node("thigh" + s, pelvis, {sx * 0.13f, -0.05f, 0});
    shin[side] = b.node("shin" + s, thigh[side], {0, -0.45f, 0});
  }
  const int skin = b.skin({pelvis, spine, head, upper[0], lower[0], hand[0], upper[1], lower[1], hand[1],
                           thigh[0], shin[0], thigh[1], shin[1]},
                          armature);
  auto skinned_tube = [&](const char* name, glm::vec3 p0, glm::vec3 p1, float r, int a, int c) {
    MeshData d;
    add_tube(d, p0, p1, r, 16, 10, {0.0f, 0.0f, 1.0f, 1.0f}, true, a, c);
    b.mesh_node(name, b.mesh(name, d, paint), skin, armature);
  };
  skinned_tube("pelvis", {0, 0.85f, 0}, {0, 1.15f, 0}, 0.16f, 0, 1);
  skinned_tube("torso", {0, 1.1f, 0}, {0, 1.62f, 0}, 0.2f, 1, 2);
  skinned_tube("leg_l", {0.13f, 0.95f, 0}, {0.13f, 0.05f, 0}, 0.07f, 9, 10);
  skinned_tube("leg_r", {-0.13f, 0.95f, 0}, {-0.13f, 0.05f, 0}, 0.07f, 11, 12);
  // Rigid parts, in each bone's own frame (the node is a child of the bone).
  // Armour bands: one ring of quads between two open rims, so every vertex lies on the part's own
  // border (locking a piece's whole border would keep every one of them).
  auto rigid = [&](const std::string& name, int bone, glm::vec3 p0, glm::vec3 p1, float r, bool shiny) {
    MeshData d;
    add_tube(d, p0, p1, r, 32, 1, {0.0f, 0.0f, 1.0f, 1.0f}, false, 0, -1, true);
    b.mesh_node(name, b.mesh(name, d, shiny ? metal : paint), -1, bone);
  };
  rigid("helmet", head, {0, 0.02f, 0}, {0, 0.3f, 0}, 0.13f, false);
  rigid("visor", head, {0, 0.12f, 0.1f}, {0, 0.2f, 0.1f}, 0.06f, true);
  for (int side = 0; side < 2; ++side) {
    const std::string s = side ? "_r" : "_l";
    const float sx = side ? -1.0f : 1.0f;
    rigid("shoulder" + s, upper[side], {-sx * 0.05f, 0.0f, 0}, {sx * 0.08f, 0.0f, 0}, 0.09f, false);
    rigid("upper_sleeve" + s, upper[side], {0, -0.02f, 0}, {0, -0.3f, 0}, 0.06f, true);
    rigid("lower_sleeve" + s, lower[side], {0, 0.0f, 0}, {0, -0.27f, 0}, 0.055f, true);
    rigid("fist" + s, hand[side], {0, 0.0f, 0}, {0, -0.1f, 0}, 0.05f, false);
    rigid("knee" + s, shin[side], {0, 0.04f, -0.05f}, {0, -0.04f, -0.05f}, 0.06f, false);
  }
  rigid("backpack", spine, {0, 0.05f, -0.25f}, {0, 0.3f, -0.25f}, 0.09f, false);
  rigid("antenna", head, {0.05f, 0.3f, 0}, {0.05f, 0.5f, 0}, 0.015f, true);
  rigid("belt", pelvis, {0, -0.02f, 0}, {0, 0.04f, 0}, 0.175f, true);
  b.turn_clip("march",
              {{thigh[0], {1, 0, 0}, 0.45f},
               {thigh[1], {1, 0, 0}, -0.45f},
               {upper[0], {1, 0, 0}, -0.5f},
               {upper[1], {1, 0, 0}, 0.5f},
               {lower[0], {1, 0, 0}, -0.6f}},
              1.2f);
  b.turn_clip("scan", {{head, {0, 1, 0}, 0.8f}, {spine, {0, 1, 0}, 0.25f}}, 1.5f);
  return b;
}

// A textured material whose `size`² image is a smooth colour ramp (re-baking at another density
// blurs it little, so colours can be compared).
inline int ramp_material(ModelBuilder& b, const std::string& name, int size) {
  tinygltf::Image img;
  img.name = name + "_image";
  img.width = img.height = size;
  img.component = 4;
  img.bits = 8;
  img.pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
  img.mimeType = "image/png";
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const float u = (static_cast<float>(x) + 0.5f) / static_cast<float>(size);
      const float v = (static_cast<float>(y) + 0.5f) / static_cast<float>(size);
      // Periodic in both directions, like the repeating sampler.
      const float r = 0.5f + 0.4f * std::sin(glm::two_pi<float>() * u);
      const float g = 0.5f + 0.4f * std::cos(glm::two_pi<float>() * v);
      const float bl = 0.5f + 0.3f * std::sin(glm::two_pi<float>() * (u + v));
      for (const float c : {r, g, bl})
        img.image.push_back(static_cast<unsigned char>(std::lround(c * 255.0f)));
      img.image.push_back(255);
    }
  }
  b.m.images.push_back(img);
  tinygltf::Texture tex;
  tex.source = static_cast<int>(b.m.images.size() - 1);
  b.m.textures.push_back(tex);
  tinygltf::Material mat;
  mat.name = name;
  mat.pbrMetallicRoughness.baseColorTexture.index = static_cast<int>(b.m.textures.size() - 1);
  b.m.materials.push_back(mat);
  return static_cast<int>(b.m.materials.size() - 1);
}

// A seeded random model: 1–4 skinned tube meshes of random sizes and resolutions on a random joint
// chain, UV seams at random columns (each tube's UVs split into 1–4 islands), a random mix of
// textured and colour-only materials, and 0–3 rigid parts on random joints.
inline ModelBuilder random_model(std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ModelBuilder b;
  const int textured = ramp_material(b, "ramp", 64);
  const int plain = b.color_material("plain", {uniform(0, 1), uniform(0, 1), uniform(0, 1), 1.0f});
  const int armature = b.node("Armature", -1);
  std::vector<int> chain;
  const int joints = pick(2, 6);
  for (int j = 0; j < joints; ++j)
    chain.push_back(
        b.node("j" + std::to_string(j), j ? chain.back() : armature, {0, j ? uniform(0.1f, 0.4f) : 0.5f, 0}));
  const int skin = b.skin(chain, armature);
  const int meshes = pick(1, 4);
  for (int m = 0; m < meshes; ++m) {
    MeshData d;
    const int segments = pick(5, 20), rings = pick(2, 12);
    const glm::vec3 p0(uniform(-0.3f, 0.3f), uniform(0.0f, 0.6f), uniform(-0.3f, 0.3f));
    const glm::vec3 p1 = p0 + glm::vec3(uniform(-0.2f, 0.2f), uniform(0.2f, 0.9f), uniform(-0.2f, 0.2f));
    add_tube(d, p0, p1, uniform(0.03f, 0.3f), segments, rings, {0.0f, 0.0f, 1.0f, 1.0f}, true,
             pick(0, joints - 1), pick(0, joints - 1), pick(0, 3) == 0);
    // Random seams: the circumference split into islands at random columns; the triangles right of
    // a cut get their own copies of its vertices, with UVs moved apart (an exporter's island layout).
    const auto row = static_cast<std::uint32_t>(segments + 1);
    std::vector<int> column(d.positions.size(), -1);  // -1: a cap centre
    for (std::uint32_t v = 0; v < static_cast<std::uint32_t>(rings + 1) * row; ++v)
      column[v] = static_cast<int>(v % row);
    const int islands = pick(1, 4);
    for (int cut = 1; cut < islands; ++cut) {
      const int at = pick(1, segments - 1);
      const glm::vec2 shift(uniform(0.0f, 0.5f), uniform(0.0f, 0.5f));
      std::vector<std::uint32_t> copy_of(d.positions.size(), UINT32_MAX);
      for (std::size_t t = 0; t + 2 < d.indices.size(); t += 3) {
        int lowest = segments;
        for (std::size_t k = 0; k < 3; ++k) {
          const int c = column[d.indices[t + k]];
          if (c >= 0) lowest = std::min(lowest, c);
        }
        if (lowest < at) continue;
        for (std::size_t k = 0; k < 3; ++k) {
          const std::uint32_t v = d.indices[t + k];
          if (column[v] < 0) continue;  // cap centres stay shared
          if (copy_of[v] == UINT32_MAX) {
            copy_of[v] = static_cast<std::uint32_t>(d.positions.size());
            d.positions.push_back(d.positions[v]);
            d.normals.push_back(d.normals[v]);
            d.uvs.push_back(d.uvs[v] * 0.5f + shift);
            d.joints.push_back(d.joints[v]);
            d.weights.push_back(d.weights[v]);
            column.push_back(column[v]);
          }
          d.indices[t + k] = copy_of[v];
        }
      }
    }
    b.mesh_node("mesh" + std::to_string(m),
                b.mesh("mesh" + std::to_string(m), d, pick(0, 1) ? textured : plain), skin, armature);
  }
  const int rigid_parts = pick(0, 3);
  for (int r = 0; r < rigid_parts; ++r) {
    MeshData d;
    add_tube(d, {0, 0, 0}, {uniform(-0.1f, 0.1f), uniform(0.05f, 0.3f), 0}, uniform(0.02f, 0.1f), pick(4, 12),
             pick(1, 4), {0.0f, 0.0f, 1.0f, 1.0f}, false, 0, -1, pick(0, 1) == 0);
    b.mesh_node("rigid" + std::to_string(r),
                b.mesh("rigid" + std::to_string(r), d, pick(0, 1) ? textured : plain), -1,
                chain[static_cast<std::size_t>(pick(0, joints - 1))]);
  }
  b.turn_clip("move", {{chain.back(), {1, 0, 0}, 0.4f}}, 1.0f);
  return b;
}

// Written to a temporary .glb and read back as a user's model is.
inline anim::ImportedModel import_written(ModelBuilder& b, const std::string& name) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("myriad_crowd_" + name + "_" + std::to_string(::getpid()) + ".glb");
  b.write(path);
  anim::WholeModel whole = anim::import_whole_model(path);
  std::filesystem::remove(path);
  return std::move(whole.model);
}

}  // namespace myriad::crowd::test
