#include "myriad/anim/import/kit_import.hpp"

#include "myriad/anim/import/gltf_reading.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/anim/clip/retarget.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/gltf/document.hpp"
#include "myriad/gltf/primitive.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace myriad::anim {
namespace {

using Doc = gltf::Document;

std::string node_name(const tinygltf::Model& m, std::size_t n) {
  return m.nodes[n].name.empty() ? "node_" + std::to_string(n) : m.nodes[n].name;
}

std::string extras_string(const tinygltf::Value& v, const char* key) {
  if (!v.IsObject() || !v.Has(key)) return {};
  const tinygltf::Value& x = v.Get(key);
  return x.IsString() ? x.Get<std::string>() : std::string{};
}

bool extras_bool(const tinygltf::Value& v, const char* key) {
  if (!v.IsObject() || !v.Has(key)) return false;
  const tinygltf::Value& x = v.Get(key);
  return x.IsBool() && x.Get<bool>();
}

// An item's name and slot from the node's extras or an "item_" name prefix; false for a body part.
bool item_of(const tinygltf::Node& n, std::string& item, std::string& slot) {
  item = extras_string(n.extras, "item");
  if (item.empty() && n.name.size() > 5 && n.name.compare(0, 5, "item_") == 0) item = n.name.substr(5);
  slot = extras_string(n.extras, "slot");
  if (slot.empty()) slot = item;
  return !item.empty();
}

// Every node's global transform (the file's rest placement), parents computed before children.
std::vector<glm::mat4> node_globals(const Doc& d, const std::vector<int>& parent) {
  const auto& m = d.model;
  std::vector<glm::mat4> g(m.nodes.size());
  std::vector<std::uint8_t> done(m.nodes.size(), 0);
  std::vector<std::size_t> chain;
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    chain.clear();
    for (std::size_t a = i; !done[a]; a = static_cast<std::size_t>(parent[a])) {
      chain.push_back(a);
      if (parent[a] < 0) break;
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const std::size_t a = *it;
      const glm::mat4 local = gltf::node_matrix(m.nodes[a]);
      g[a] = parent[a] < 0 ? local : g[static_cast<std::size_t>(parent[a])] * local;
      done[a] = 1;
    }
  }
  return g;
}

bool descends_from(const std::vector<int>& parent, int node, int ancestor) {
  for (int a = node; a >= 0; a = parent[static_cast<std::size_t>(a)]) {
    if (a == ancestor) return true;
  }
  return false;
}

// Palette-space inverse bind per kit joint for rigid parts: the first part skin naming the joint
// (so a rigid part shares that palette entry after dedup), else the inverse of the joint's rest.
std::vector<glm::mat4> rigid_inverse_binds(const Avatar& kit) {
  std::vector<glm::mat4> model(kit.skeleton.size());
  local_to_model(kit.skeleton.parents, kit.skeleton.rest, model);
  std::vector<glm::mat4> ibm(model.size());
  std::vector<std::uint8_t> have(model.size(), 0);
  for (const AvatarPart& p : kit.parts) {
    for (std::size_t i = 0; i < p.skin.joints.size(); ++i) {
      const std::uint16_t j = p.skin.joints[i];
      if (!have[j]) ibm[j] = p.skin.inverse_binds[i], have[j] = 1;
    }
  }
  for (std::size_t j = 0; j < model.size(); ++j) {
    if (!have[j]) ibm[j] = glm::inverse(model[j]);
  }
  return ibm;
}

// A rigid mesh made a single-joint skinned part: vertices placed so that palette (model(J) * ibm)
// reproduces joint * offset * p, whatever inverse bind the palette entry carries.
void make_rigid(SkinnedMesh& sm, const glm::mat4& offset_from_joint, const glm::mat4& ibm) {
  const glm::mat4 b = glm::inverse(ibm) * offset_from_joint;
  const glm::mat3 nm = glm::transpose(glm::inverse(glm::mat3(b)));
  for (glm::vec3& p : sm.positions) p = glm::vec3(b * glm::vec4(p, 1.0f));
  // Morph offsets are directions: the linear part moves them; a normal's offsets also take the scale
  // that renormalises its normal, so offset and normal keep their proportion.
  for (std::vector<glm::vec3>& target : sm.morph_positions)
    for (glm::vec3& d : target) d = glm::mat3(b) * d;
  for (std::vector<glm::vec3>& target : sm.morph_normals) {
    for (std::size_t v = 0; v < target.size() && v < sm.normals.size(); ++v) {
      const float len = glm::length(nm * sm.normals[v]);
      target[v] = len > 0.0f ? nm * target[v] / len : glm::vec3(0.0f);
    }
  }
  for (glm::vec3& n : sm.normals) n = glm::normalize(nm * n);
  // A mirroring offset turns triangles inside out: swap winding back.
  if (glm::determinant(glm::mat3(b)) < 0.0f) {
    for (std::size_t t = 0; t + 2 < sm.indices.size(); t += 3)
      std::swap(sm.indices[t + 1], sm.indices[t + 2]);
  }
}

// Reads every primitive of node `ni`'s mesh into parts with the given skin. `skin_size` 0 = rigid.
void add_mesh_parts(const Doc& d, std::size_t ni, const PartSkin& skin, std::size_t skin_size,
                    const glm::mat4* rigid_offset, bool item, const std::string& item_name,
                    const std::string& slot, std::map<int, int>& materials, std::map<int, int>& images,
                    Avatar& kit) {
  const auto& m = d.model;
  const tinygltf::Node& node = m.nodes[ni];
  if (static_cast<std::size_t>(node.mesh) >= m.meshes.size())
    d.fail("mesh index out of range", "nodes[" + std::to_string(ni) + "].mesh");
  const tinygltf::Mesh& mesh = m.meshes[static_cast<std::size_t>(node.mesh)];
  std::vector<std::uint16_t> local(skin_size);
  for (std::size_t j = 0; j < skin_size; ++j) local[j] = static_cast<std::uint16_t>(j);
  const std::vector<double> morph = gltf::default_morph_weights(d, static_cast<int>(ni));
  for (std::size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
    const tinygltf::Primitive& prim = mesh.primitives[pi];
    const std::string pf = "meshes[" + std::to_string(node.mesh) + "].primitives[" + std::to_string(pi) + "]";
    AvatarPart part;
    part.mesh = detail::read_primitive(d, prim, pf, local, morph);
    if (part.mesh.indices.empty()) continue;
    part.mesh.morph_node = static_cast<int>(ni);
    part.mesh.name = node_name(m, ni) + (mesh.primitives.size() > 1 ? "#" + std::to_string(pi) : "");
    if (rigid_offset) make_rigid(part.mesh, *rigid_offset, skin.inverse_binds[0]);
    if (prim.material >= 0) {
      auto [it, inserted] = materials.try_emplace(prim.material, static_cast<int>(kit.materials.size()));
      if (inserted) kit.materials.push_back(detail::read_material(d, prim.material, images, kit.textures));
      part.mesh.material = it->second;
    }
    part.skin = skin;
    part.rigid = rigid_offset != nullptr;
    part.clothing = item;
    part.tintable = item || extras_bool(node.extras, "tintable");
    part.item = item_name;
    part.slot = slot;
    kit.parts.push_back(std::move(part));
  }
}

// `clips_only`: an animation export (a skeleton, maybe no mesh) read for its clips.
KitImport import_document(const Doc& d, bool clips_only = false) {
  const auto& m = d.model;
  const std::vector<int> parent = detail::node_parents(d);
  std::vector<std::uint8_t> is_joint(m.nodes.size(), 0);
  if (m.skins.empty() && clips_only) {
    // An animation export without a skin: the animated nodes are the joints.
    for (const tinygltf::Animation& a : m.animations) {
      for (const tinygltf::AnimationChannel& c : a.channels) {
        if (c.target_node >= 0 && static_cast<std::size_t>(c.target_node) < m.nodes.size())
          is_joint[static_cast<std::size_t>(c.target_node)] = 1;
      }
    }
    if (std::find(is_joint.begin(), is_joint.end(), 1) == is_joint.end())
      d.fail("no skin and no animated node", "animations", "export the clips with their armature");
  } else if (m.skins.empty()) {
    // A model without a skin (a machine of rigid parts, a prop): every node that carries a mesh or is
    // animated, and every node above one, is a joint. Each mesh then follows its own node exactly, as
    // the file animates it, and nothing above it is lost.
    for (std::size_t n = 0; n < m.nodes.size(); ++n) is_joint[n] = m.nodes[n].mesh >= 0 ? 1 : 0;
    if (std::find(is_joint.begin(), is_joint.end(), 1) == is_joint.end())
      d.fail("the model has no mesh", "nodes[*].mesh", "export the model's geometry");
    for (const tinygltf::Animation& a : m.animations) {
      for (const tinygltf::AnimationChannel& c : a.channels) {
        if (c.target_node >= 0 && static_cast<std::size_t>(c.target_node) < m.nodes.size())
          is_joint[static_cast<std::size_t>(c.target_node)] = 1;
      }
    }
    for (std::size_t n = 0; n < m.nodes.size(); ++n) {
      if (!is_joint[n]) continue;
      for (int a = parent[n]; a >= 0 && !is_joint[static_cast<std::size_t>(a)];
           a = parent[static_cast<std::size_t>(a)])
        is_joint[static_cast<std::size_t>(a)] = 1;
    }
  }
  const bool rigid_model = m.skins.empty() && !clips_only;
  for (std::size_t s = 0; s < m.skins.size(); ++s) {
    const std::string sf = "skins[" + std::to_string(s) + "].joints";
    if (m.skins[s].joints.empty()) d.fail("skin has no joints", sf);
    if (m.skins[s].joints.size() > 65535) d.fail("skin has too many joints", sf);
    for (const int n : m.skins[s].joints) {
      if (n < 0 || static_cast<std::size_t>(n) >= m.nodes.size()) d.fail("joint node out of range", sf);
      is_joint[static_cast<std::size_t>(n)] = 1;
    }
  }
  // A node between two joints (a skin may leave out an intermediate bone) is a joint too: it moves
  // every joint below it.
  std::vector<std::size_t> path;
  for (std::size_t n = 0; n < m.nodes.size(); ++n) {
    if (!is_joint[n]) continue;
    path.clear();
    int a = parent[n];
    while (a >= 0 && !is_joint[static_cast<std::size_t>(a)]) {
      path.push_back(static_cast<std::size_t>(a));
      a = parent[static_cast<std::size_t>(a)];
    }
    if (a >= 0)
      for (const std::size_t p : path) is_joint[p] = 1;
  }
  std::vector<int> joints_in_node_order, roots;
  for (std::size_t n = 0; n < m.nodes.size(); ++n) {
    if (!is_joint[n]) continue;
    joints_in_node_order.push_back(static_cast<int>(n));
    if (parent[n] < 0 || !is_joint[static_cast<std::size_t>(parent[n])]) roots.push_back(static_cast<int>(n));
  }
  if (roots.empty()) d.fail("skeleton has no root joint", "skins");
  const int root0 = roots.front();
  const int armature = parent[static_cast<std::size_t>(root0)];
  // A rigid model's joints reach up to the scene's roots: several of them are one model.
  for (std::size_t r = 1; r < roots.size() && !rigid_model; ++r) {
    if (parent[static_cast<std::size_t>(roots[r])] != armature || armature < 0) {
      d.fail("two unrelated skeletons, roots '" + node_name(m, static_cast<std::size_t>(root0)) +
                 "' (nodes[" + std::to_string(root0) + "]) and '" +
                 node_name(m, static_cast<std::size_t>(roots[r])) + "' (nodes[" + std::to_string(roots[r]) +
                 "])",
             "skins", "bind every mesh of the kit to one armature");
    }
  }
  if (joints_in_node_order.size() > 65535) d.fail("skeleton has more than 65535 joints", "skins");
  std::vector<int> node_to_joint(m.nodes.size(), -1);
  for (std::size_t k = 0; k < joints_in_node_order.size(); ++k)
    node_to_joint[static_cast<std::size_t>(joints_in_node_order[k])] = static_cast<int>(k);
  std::vector<int> joint_parent(joints_in_node_order.size(), -1);
  for (std::size_t k = 0; k < joints_in_node_order.size(); ++k) {
    const int p = parent[static_cast<std::size_t>(joints_in_node_order[k])];
    joint_parent[k] = p < 0 ? -1 : node_to_joint[static_cast<std::size_t>(p)];
  }
  const std::vector<int> order = depth_first_order(joint_parent);
  std::vector<int> old_to_new(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    old_to_new[static_cast<std::size_t>(order[k])] = static_cast<int>(k);

  KitImport out;
  Avatar& kit = out.kit;
  kit.name = d.file;
  Skeleton& sk = kit.skeleton;
  const std::size_t n = order.size();
  sk.names.resize(n);
  sk.parents.resize(n);
  sk.rest.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t old = static_cast<std::size_t>(order[k]);
    const auto node = static_cast<std::size_t>(joints_in_node_order[old]);
    sk.names[k] = node_name(m, node);
    sk.parents[k] = static_cast<std::int16_t>(
        joint_parent[old] < 0 ? kNoParent : old_to_new[static_cast<std::size_t>(joint_parent[old])]);
    gltf::node_trs(m.nodes[node], sk.rest.translation[k], sk.rest.rotation[k], sk.rest.scale[k]);
  }
  sk.validate();
  for (std::size_t node = 0; node < m.nodes.size(); ++node) {
    if (node_to_joint[node] >= 0)
      node_to_joint[node] = old_to_new[static_cast<std::size_t>(node_to_joint[node])];
  }
  const std::vector<glm::mat4> globals = node_globals(d, parent);
  if (armature >= 0) kit.root_transform = globals[static_cast<std::size_t>(armature)];

  std::map<int, int> materials, images;
  std::vector<std::size_t> rigid_nodes;
  for (std::size_t ni = 0; ni < m.nodes.size(); ++ni) {
    const tinygltf::Node& node = m.nodes[ni];
    if (node.mesh < 0) continue;
    std::string item, slot;
    const bool is_item = item_of(node, item, slot);
    if (node.skin < 0) {
      rigid_nodes.push_back(ni);  // after the skinned parts, so they can share their inverse binds
      continue;
    }
    if (static_cast<std::size_t>(node.skin) >= m.skins.size())
      d.fail("skin index out of range", "nodes[" + std::to_string(ni) + "].skin");
    const tinygltf::Skin& gs = m.skins[static_cast<std::size_t>(node.skin)];
    PartSkin skin;
    skin.inverse_binds = detail::read_inverse_binds(d, static_cast<std::size_t>(node.skin));
    for (const int jn : gs.joints)
      skin.joints.push_back(static_cast<std::uint16_t>(node_to_joint[static_cast<std::size_t>(jn)]));
    add_mesh_parts(d, ni, skin, skin.joints.size(), nullptr, is_item, item, slot, materials, images, kit);
  }
  const std::vector<glm::mat4> rigid_ibm = rigid_inverse_binds(kit);
  for (const std::size_t ni : rigid_nodes) {
    int joint_node = -1;
    for (int a = static_cast<int>(ni); a >= 0 && joint_node < 0; a = parent[static_cast<std::size_t>(a)]) {
      if (node_to_joint[static_cast<std::size_t>(a)] >= 0) joint_node = a;
    }
    if (joint_node < 0 && armature >= 0 && descends_from(parent, static_cast<int>(ni), armature))
      joint_node = root0;
    if (joint_node < 0) {
      out.ignored.push_back(node_name(m, ni) +
                            ": a mesh outside the armature (neither skinned nor under a joint)");
      continue;
    }
    const auto j = static_cast<std::size_t>(node_to_joint[static_cast<std::size_t>(joint_node)]);
    const glm::mat4 offset = glm::inverse(globals[static_cast<std::size_t>(joint_node)]) * globals[ni];
    const PartSkin skin{{static_cast<std::uint16_t>(j)}, {rigid_ibm[j]}};
    std::string item, slot;
    const bool is_item = item_of(m.nodes[ni], item, slot);
    add_mesh_parts(d, ni, skin, 0, &offset, is_item, item, slot, materials, images, kit);
  }
  // Animated morph targets are played by some consumers only, and points and lines have no surface:
  // say so rather than drop them silently.
  std::vector<bool> morph_animated(m.nodes.size(), false);
  for (const tinygltf::Animation& a : m.animations)
    for (const tinygltf::AnimationChannel& ch : a.channels)
      if (ch.target_path == "weights" && ch.target_node >= 0 &&
          static_cast<std::size_t>(ch.target_node) < m.nodes.size())
        morph_animated[static_cast<std::size_t>(ch.target_node)] = true;
  bool points_or_lines = false;
  for (std::size_t ni = 0; ni < m.nodes.size(); ++ni) {
    const int mi = m.nodes[ni].mesh;
    if (mi < 0 || static_cast<std::size_t>(mi) >= m.meshes.size()) continue;
    std::size_t targets = 0, no_surface = 0;
    for (const tinygltf::Primitive& prim : m.meshes[static_cast<std::size_t>(mi)].primitives) {
      targets = std::max(targets, prim.targets.size());
      no_surface += prim.mode >= TINYGLTF_MODE_POINTS && prim.mode <= TINYGLTF_MODE_LINE_STRIP ? 1 : 0;
    }
    if (targets > 0 && morph_animated[ni])
      out.animated_morphs.push_back(
          node_name(m, ni) + ": the animation of its " +
          (targets == 1 ? std::string("morph target") : std::to_string(targets) + " morph targets"));
    points_or_lines |= no_surface > 0;
    if (no_surface > 0)
      out.ignored.push_back(node_name(m, ni) + ": " + std::to_string(no_surface) +
                            " point or line primitives (no surface to draw)");
  }
  if (kit.parts.empty() && !clips_only) {
    if (points_or_lines)
      d.fail("the model's meshes hold only points or lines: no triangles to draw", "nodes[*].mesh");
    if (rigid_model) d.fail("the model's meshes hold no triangles", "meshes[*].primitives");
    d.fail("no mesh is bound to the skeleton", "nodes[*].mesh");
  }
  // Body parts first, then items, each in file order. (Not std::stable_partition: its temporary
  // buffer comes from nothrow new and goes back through plain delete, which a program replacing the
  // global operator new without its nothrow form turns into a mismatched free.)
  std::vector<AvatarPart> ordered;
  ordered.reserve(kit.parts.size());
  for (const bool items : {false, true}) {
    for (AvatarPart& p : kit.parts) {
      if (p.clothing == items) ordered.push_back(std::move(p));
    }
  }
  kit.parts = std::move(ordered);
  for (std::size_t a = 0; a < m.animations.size(); ++a)
    kit.clips.push_back(detail::read_clip(d, a, node_to_joint, n));
  return out;
}

}  // namespace

KitImport import_kit(const std::filesystem::path& path) { return import_document(gltf::load(path)); }

KitImport import_kit_bytes(std::span<const std::byte> bytes, bool binary, const std::string& name,
                           const std::filesystem::path& base_dir) {
  return import_document(gltf::load_bytes(bytes, binary, name, base_dir));
}

std::vector<std::string> add_kit_items(Avatar& kit, const std::filesystem::path& path) {
  const Doc d = gltf::load(path);
  const auto& m = d.model;
  const std::vector<int> parent = detail::node_parents(d);
  const std::vector<glm::mat4> globals = node_globals(d, parent);
  std::unordered_map<std::string, std::uint16_t> joint_of;
  for (std::size_t j = 0; j < kit.skeleton.size(); ++j)
    joint_of.emplace(kit.skeleton.names[j], static_cast<std::uint16_t>(j));
  const std::vector<glm::mat4> rigid_ibm = rigid_inverse_binds(kit);
  std::map<int, int> materials, images;
  std::vector<std::string> ignored;
  const std::size_t first_item = kit.parts.size();
  for (std::size_t ni = 0; ni < m.nodes.size(); ++ni) {
    const tinygltf::Node& node = m.nodes[ni];
    if (node.mesh < 0) continue;
    std::string item, slot;
    if (!item_of(node, item, slot)) {
      item = node.name.empty() ? path.stem().string() : node.name;
      slot = item;
    }
    if (node.skin >= 0) {
      if (static_cast<std::size_t>(node.skin) >= m.skins.size())
        d.fail("skin index out of range", "nodes[" + std::to_string(ni) + "].skin");
      const tinygltf::Skin& gs = m.skins[static_cast<std::size_t>(node.skin)];
      PartSkin skin;
      skin.inverse_binds = detail::read_inverse_binds(d, static_cast<std::size_t>(node.skin));
      for (std::size_t k = 0; k < gs.joints.size(); ++k) {
        const int jn = gs.joints[k];
        const std::string field =
            "skins[" + std::to_string(node.skin) + "].joints[" + std::to_string(k) + "]";
        if (jn < 0 || static_cast<std::size_t>(jn) >= m.nodes.size())
          d.fail("joint node out of range", field);
        const std::string name = node_name(m, static_cast<std::size_t>(jn));
        const auto it = joint_of.find(name);
        if (it == joint_of.end())
          d.fail("item '" + item + "' uses joint '" + name + "', which is not in the kit's skeleton", field,
                 "bind items to the kit's armature (joints are matched by name)");
        skin.joints.push_back(it->second);
      }
      add_mesh_parts(d, ni, skin, skin.joints.size(), nullptr, true, item, slot, materials, images, kit);
      continue;
    }
    int joint_node = -1;
    for (int a = static_cast<int>(ni); a >= 0 && joint_node < 0; a = parent[static_cast<std::size_t>(a)]) {
      if (joint_of.count(node_name(m, static_cast<std::size_t>(a)))) joint_node = a;
    }
    if (joint_node < 0) {
      d.fail("item '" + item + "' is neither skinned nor parented to a node named like a kit joint",
             "nodes[" + std::to_string(ni) + "]",
             "parent a rigid item to the joint it follows, e.g. the head");
    }
    const std::uint16_t j = joint_of.at(node_name(m, static_cast<std::size_t>(joint_node)));
    const glm::mat4 offset = glm::inverse(globals[static_cast<std::size_t>(joint_node)]) * globals[ni];
    const PartSkin skin{{j}, {rigid_ibm[j]}};
    add_mesh_parts(d, ni, skin, 0, &offset, true, item, slot, materials, images, kit);
  }
  if (kit.parts.size() == first_item) ignored.push_back(d.file + ": no mesh");
  return ignored;
}

std::vector<std::string> add_kit_clips(Avatar& kit, const std::filesystem::path& path) {
  const KitImport source = import_document(gltf::load(path), true);
  if (source.kit.clips.empty())
    throw Error("the file has no animation", path.string(), "export the clips with their armature");
  std::vector<std::string> warnings;
  for (const Clip& clip : source.kit.clips) {
    RetargetResult r = retarget_clip(clip, source.kit.skeleton, kit.skeleton);
    if (std::string w = describe_partial(r); !w.empty())
      warnings.push_back(path.filename().string() + ": " + w);
    kit.clips.push_back(std::move(r.clip));
  }
  return warnings;
}

std::vector<std::string> avatar_ignored(const KitImport& in) {
  std::vector<std::string> out = in.ignored;
  for (const std::string& m : in.animated_morphs)
    out.push_back(m + " (the mesh is drawn at its default weights)");
  return out;
}

KitImport import_kit(const std::filesystem::path& path, std::span<const std::filesystem::path> item_files) {
  KitImport out = import_kit(path);
  for (const std::filesystem::path& f : item_files) {
    const std::vector<std::string> ignored = add_kit_items(out.kit, f);
    out.ignored.insert(out.ignored.end(), ignored.begin(), ignored.end());
  }
  return out;
}

}  // namespace myriad::anim
