#include "myriad/anim/kit/kit_build.hpp"

#include "myriad/anim/kit/dedup.hpp"
#include "myriad/anim/kit/kit_write.hpp"
#include "myriad/anim/import/whole_model.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/mesh/vertex_normals.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

namespace myriad::anim {
namespace {

// A mesh's own normals, or area-weighted ones for a mesh made without them.
std::vector<glm::vec3> normals_of(const SkinnedMesh& m) {
  return m.normals.empty() ? mesh::area_weighted_normals(m.positions, m.indices) : m.normals;
}

// The body parts joined into one mesh over the deduplicated renderer skeleton.
struct Body {
  SkinnedMesh mesh;
  PartSkin skeleton;  // renderer skeleton (joint, inverse bind) entries
};

Body join_body(const Avatar& kit) {
  std::vector<PartSkin> skins;
  std::vector<const AvatarPart*> parts;
  for (const AvatarPart& p : kit.parts) {
    if (p.clothing) continue;
    skins.push_back(p.skin);
    parts.push_back(&p);
  }
  if (parts.empty()) throw Error("the kit has no body parts to dress", "add_sample_items");
  const Dedup d = dedup_skeletons(skins);
  Body body;
  body.skeleton = d.renderer_skeleton;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const SkinnedMesh& m = parts[i]->mesh;
    const auto base = static_cast<std::uint32_t>(body.mesh.positions.size());
    const std::vector<glm::vec3> n = normals_of(m);
    body.mesh.positions.insert(body.mesh.positions.end(), m.positions.begin(), m.positions.end());
    body.mesh.normals.insert(body.mesh.normals.end(), n.begin(), n.end());
    body.mesh.weights.insert(body.mesh.weights.end(), m.weights.begin(), m.weights.end());
    for (glm::u16vec4 j : m.joints) {
      for (int k = 0; k < 4; ++k) j[k] = d.remap[i][j[k]];
      body.mesh.joints.push_back(j);
    }
    for (const std::uint32_t v : m.indices) body.mesh.indices.push_back(base + v);
  }
  return body;
}

// The triangles whose three corners pass `keep`, pushed out by `offset` along the normals, as one
// item part with its own bone list.
// The body's vertical axis and a frame around it, for cylindrical item UVs.
struct BodyAxis {
  glm::vec3 centre{0.0f}, up{0.0f, 1.0f, 0.0f}, front{0.0f, 0.0f, 1.0f}, side{1.0f, 0.0f, 0.0f};
  float height = 1.0f;
  glm::vec2 uv_scale{1.5f, 10.0f};  // about 12 cells around and 50 up a body (skin.vert: 8 x 5 per UV)
};

AvatarPart cut_item(const Body& body, const BodyAxis& axis, const std::function<bool(std::uint32_t)>& keep,
                    float offset, const std::string& name, const std::string& item, const std::string& slot) {
  SkinnedMesh m = body.mesh;
  m.name = name;
  // Cloth in the outfit's tint: the body's texture does not follow the new UVs.
  m.material = -1;
  m.colors.clear();
  m.indices.clear();
  for (std::size_t t = 0; t + 2 < body.mesh.indices.size(); t += 3) {
    const std::uint32_t a = body.mesh.indices[t], b = body.mesh.indices[t + 1], c = body.mesh.indices[t + 2];
    if (keep(a) && keep(b) && keep(c)) m.indices.insert(m.indices.end(), {a, b, c});
  }
  for (std::size_t v = 0; v < m.positions.size(); ++v) m.positions[v] += m.normals[v] * offset;
  // Cylindrical UVs about the body's vertical axis (the source's texture atlas is cut in islands):
  // patterns then run around the body and along its height, seam at the back.
  m.uvs.resize(m.positions.size());
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    const glm::vec3 d = m.positions[v] - axis.centre;
    const float along = glm::dot(d, axis.up);
    const float angle = std::atan2(glm::dot(d, axis.side), glm::dot(d, axis.front));
    m.uvs[v] =
        glm::vec2(angle / (2.0f * std::numbers::pi_v<float>)+0.5f, along / axis.height) * axis.uv_scale;
  }
  AvatarPart part;
  part.clothing = true;
  part.tintable = true;
  part.item = item;
  part.slot = slot;
  if (m.indices.empty()) return part;
  std::vector<SplitPart> split = split_into_parts(m, body.skeleton.joints, body.skeleton.inverse_binds, 1);
  part.mesh = std::move(split[0].mesh);
  part.mesh.name = name;
  part.skin = std::move(split[0].skin);
  return part;
}

// A closed surface of revolution around `axis` through `base` (profile: radius per height step),
// all on one joint: a rigid accessory.
AvatarPart lathe(const std::vector<glm::vec2>& profile, glm::vec3 base, glm::vec3 up, std::uint16_t joint,
                 const glm::mat4& ibm, const std::string& name, const std::string& slot) {
  AvatarPart part;
  part.clothing = true;
  part.tintable = true;
  part.rigid = true;
  part.item = name;
  part.slot = slot;
  part.mesh.name = name;
  part.skin = {{joint}, {ibm}};
  const glm::vec3 helper = std::abs(up.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec3 u = glm::normalize(glm::cross(up, helper)), w = glm::cross(up, u);
  constexpr int kSegments = 16;
  SkinnedMesh& m = part.mesh;
  for (std::size_t r = 0; r < profile.size(); ++r) {
    for (int s = 0; s < kSegments; ++s) {
      const float a = 2.0f * std::numbers::pi_v<float> * static_cast<float>(s) / kSegments;
      const glm::vec3 radial = u * std::cos(a) + w * std::sin(a);
      m.positions.push_back(base + up * profile[r].y + radial * profile[r].x);
      // Profile slope gives the normal's tilt; flat rings (brims, caps) face up or down.
      const glm::vec2 d = profile[std::min(r + 1, profile.size() - 1)] - profile[r > 0 ? r - 1 : 0];
      const glm::vec3 n = radial * d.y - up * d.x;
      m.normals.push_back(glm::length(n) > 0.0f ? glm::normalize(n) : up);
      m.joints.emplace_back(0, 0, 0, 0);
      m.weights.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
      m.uvs.emplace_back(1.5f * static_cast<float>(s) / kSegments,
                         2.0f * static_cast<float>(r) / static_cast<float>(profile.size()));
    }
  }
  for (std::size_t r = 0; r + 1 < profile.size(); ++r) {
    for (int s = 0; s < kSegments; ++s) {
      const auto i0 = static_cast<std::uint32_t>(r * kSegments + static_cast<std::size_t>(s));
      const auto i1 =
          static_cast<std::uint32_t>(r * kSegments + static_cast<std::size_t>((s + 1) % kSegments));
      const std::uint32_t i2 = i0 + kSegments, i3 = i1 + kSegments;
      m.indices.insert(m.indices.end(), {i0, i1, i3, i0, i3, i2});
    }
  }
  return part;
}

}  // namespace

namespace {

// Appends an optional per-vertex attribute of a mesh joined at vertex `base` (the joined mesh now has
// `count` vertices): present on either side, the side without it gets `fallback`; on neither, it stays
// empty.
template <class T>
void append_optional(std::vector<T>& joined, const std::vector<T>& add, std::size_t base, std::size_t count,
                     T fallback) {
  if (add.empty() && joined.empty()) return;
  joined.resize(base, fallback);
  if (add.empty()) {
    joined.resize(count, fallback);
  } else {
    joined.insert(joined.end(), add.begin(), add.end());
  }
}

// The meshes of one material joined into one mesh (attributes a mesh lacks filled with defaults).
SkinnedMesh join_meshes(const ImportedModel& model, int material) {
  SkinnedMesh joined;
  joined.material = material;
  for (const SkinnedMesh& m : model.meshes) {
    if (m.material != material) continue;
    const auto base = static_cast<std::uint32_t>(joined.positions.size());
    const std::vector<glm::vec3> n = normals_of(m);
    joined.positions.insert(joined.positions.end(), m.positions.begin(), m.positions.end());
    joined.normals.insert(joined.normals.end(), n.begin(), n.end());
    append_optional(joined.uvs, m.uvs, base, joined.positions.size(), glm::vec2(0.0f));
    append_optional(joined.colors, m.colors, base, joined.positions.size(), glm::vec4(1.0f));
    joined.joints.insert(joined.joints.end(), m.joints.begin(), m.joints.end());
    joined.weights.insert(joined.weights.end(), m.weights.begin(), m.weights.end());
    for (const std::uint32_t v : m.indices) joined.indices.push_back(base + v);
  }
  return joined;
}

}  // namespace

Avatar kit_from_model(const ImportedModel& model, std::size_t body_parts) {
  // One split per material, so every part keeps the material it was authored with (a model of one
  // material gives `body_parts` parts; one of several gives up to that many per material).
  std::vector<int> materials;
  for (const SkinnedMesh& m : model.meshes)
    if (std::find(materials.begin(), materials.end(), m.material) == materials.end())
      materials.push_back(m.material);
  Avatar kit;
  kit.skeleton = model.skeleton;
  kit.clips = model.clips;
  kit.root_transform = model.root_transform;
  kit.materials = model.materials;
  kit.textures = model.textures;
  for (const int material : materials) {
    SkinnedMesh joined = join_meshes(model, material);
    if (joined.indices.empty()) continue;
    joined.name = "body";
    if (materials.size() > 1)
      joined.name += material >= 0 && static_cast<std::size_t>(material) < model.materials.size() &&
                             !model.materials[static_cast<std::size_t>(material)].name.empty()
                         ? "_" + model.materials[static_cast<std::size_t>(material)].name
                         : "_material" + std::to_string(material);
    for (SplitPart& s : split_into_parts(joined, model.joints, model.inverse_binds, body_parts)) {
      AvatarPart p;
      p.mesh = std::move(s.mesh);
      p.skin = std::move(s.skin);
      kit.parts.push_back(std::move(p));
    }
  }
  if (kit.parts.empty()) throw Error("the model has no skinned triangles", "kit_from_model");
  // Unnamed joints would not bind items by name: give them the importer's names.
  for (std::size_t j = 0; j < kit.skeleton.size(); ++j) {
    if (kit.skeleton.names[j].empty() && j < model.joint_nodes.size())
      kit.skeleton.names[j] = "node_" + std::to_string(model.joint_nodes[j]);
  }
  return kit;
}

Avatar kit_from_file(const std::filesystem::path& path, std::size_t body_parts,
                     std::vector<std::string>* ignored) {
  WholeModel whole = import_whole_model(path);
  if (ignored) *ignored = avatar_ignored({{}, std::move(whole.ignored), std::move(whole.animated_morphs)});
  return kit_from_model(whole.model, body_parts);
}

void add_sample_items(Avatar& kit) {
  const Body body = join_body(kit);
  const glm::vec3 up =
      glm::normalize(glm::inverse(glm::mat3(kit.root_transform)) * glm::vec3(0.0f, 1.0f, 0.0f));
  float lo = INFINITY, hi = -INFINITY;
  for (const glm::vec3& p : body.mesh.positions)
    lo = std::min(lo, glm::dot(p, up)), hi = std::max(hi, glm::dot(p, up));
  const float height = hi - lo;
  if (!(height > 0.0f)) throw Error("the kit's body has no height", "add_sample_items");
  const auto band = [&](float from, float to) {
    return [&, from, to](std::uint32_t v) {
      const float t = (glm::dot(body.mesh.positions[v], up) - lo) / height;
      return t >= from && t <= to;
    };
  };
  BodyAxis axis;
  axis.up = up;
  for (const glm::vec3& p : body.mesh.positions) axis.centre += p;
  axis.centre /= static_cast<float>(body.mesh.positions.size());
  axis.side = glm::normalize(
      glm::cross(std::abs(up.z) < 0.9f ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(1.0f, 0.0f, 0.0f), up));
  axis.front = glm::cross(axis.side, up);
  axis.height = height;
  kit.parts.push_back(cut_item(body, axis, band(0.50f, 0.80f), 0.006f * height, "shirt", "shirt", "torso"));
  kit.parts.push_back(cut_item(body, axis, band(0.40f, 0.82f), 0.012f * height, "jacket", "jacket", "torso"));
  kit.parts.push_back(
      cut_item(body, axis, band(0.05f, 0.53f), 0.008f * height, "trousers", "trousers", "legs"));
  kit.parts.push_back(cut_item(body, axis, band(0.0f, 0.07f), 0.010f * height, "shoes", "shoes", "feet"));
  // Hats sit on the crown, on the topmost joint (the head in a humanoid): its bind position is the
  // translation of inverse(ibm).
  std::size_t top = 0;
  float top_h = -INFINITY;
  for (std::size_t e = 0; e < body.skeleton.joints.size(); ++e) {
    const float h = glm::dot(glm::vec3(glm::inverse(body.skeleton.inverse_binds[e])[3]), up);
    if (h > top_h) top_h = h, top = e;
  }
  glm::vec3 crown(0.0f);
  float r = 0.0f;
  std::size_t count = 0;
  for (const glm::vec3& p : body.mesh.positions) {
    if ((glm::dot(p, up) - lo) / height > 0.97f) crown += p, ++count;
  }
  crown = count ? crown / static_cast<float>(count) : glm::vec3(0.0f);
  for (const glm::vec3& p : body.mesh.positions) {
    const float t = (glm::dot(p, up) - lo) / height;
    if (t > 0.9f) r = std::max(r, glm::length((p - crown) - up * glm::dot(p - crown, up)));
  }
  r = std::max(r, 0.04f * height);
  const glm::vec3 base = crown - up * (0.04f * height);
  const std::uint16_t joint = body.skeleton.joints[top];
  const glm::mat4& ibm = body.skeleton.inverse_binds[top];
  const float h = height;
  kit.parts.push_back(lathe({{0.0f, 0.0f},
                             {r * 1.9f, 0.0f},
                             {r * 1.9f, 0.01f * h},
                             {r * 1.05f, 0.012f * h},
                             {r * 1.0f, 0.09f * h},
                             {r * 0.9f, 0.1f * h},
                             {0.0f, 0.1f * h}},
                            base, up, joint, ibm, "hat", "head"));
  kit.parts.push_back(lathe(
      {{0.0f, 0.0f}, {r * 1.1f, 0.0f}, {r * 1.1f, 0.03f * h}, {r * 0.7f, 0.06f * h}, {0.0f, 0.065f * h}},
      base, up, joint, ibm, "cap", "head"));
}

Avatar make_sample_kit(const ImportedModel* model) {
  if (!model) {
    Avatar kit = make_avatar({.clothed = true});
    kit.name = "procedural humanoid";
    return kit;
  }
  Avatar kit = kit_from_model(*model, kAvatarBodyParts);
  add_sample_items(kit);
  return kit;
}

KitImport write_and_import_kit(const Avatar& kit, const std::filesystem::path& dir, const std::string& stem) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path body = dir / (stem + ".glb"), items = dir / (stem + "_items.glb");
  write_kit_gltf(body, kit, {.body = true, .items = false, .clips = true});
  std::vector<std::filesystem::path> item_files;
  if (std::any_of(kit.parts.begin(), kit.parts.end(), [](const AvatarPart& p) { return p.clothing; })) {
    write_kit_gltf(items, kit, {.body = false, .items = true, .clips = false});
    item_files.push_back(items);
  }
  return import_kit(body, item_files);
}

}  // namespace myriad::anim
