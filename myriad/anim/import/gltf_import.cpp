#include "myriad/anim/import/gltf_import.hpp"

#include "myriad/anim/import/gltf_reading.hpp"
#include "myriad/gltf/document.hpp"
#include "myriad/gltf/primitive.hpp"

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtx/matrix_decompose.hpp>

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

namespace myriad::anim {
namespace {

using Ctx = gltf::Document;
using gltf::accessor_view;
using gltf::assign_floats;
using gltf::node_matrix;
using gltf::node_trs;
using gltf::read_component;
using gltf::read_floats;
using gltf::read_uint;
using gltf::View;

void import_skeleton(const Ctx& c, ImportedModel& out, std::vector<int>& node_to_joint) {
  const auto& m = c.model;
  if (m.skins.empty()) c.fail("model has no skin", "skins", "export the model with its armature");
  const tinygltf::Skin& skin = m.skins[0];
  if (skin.joints.empty()) c.fail("skin has no joints", "skins[0].joints");
  if (skin.joints.size() > 65535) c.fail("skin has too many joints", "skins[0].joints");
  const std::vector<int> node_parent = detail::node_parents(c);
  const std::size_t n = skin.joints.size();
  node_to_joint.assign(m.nodes.size(), -1);
  for (std::size_t j = 0; j < n; ++j) {
    const int node = skin.joints[j];
    if (node < 0 || static_cast<std::size_t>(node) >= m.nodes.size())
      c.fail("joint node out of range", "skins[0].joints");
    node_to_joint[static_cast<std::size_t>(node)] = static_cast<int>(j);
  }
  // Parent joint = parent node when it is a joint; a root joint's parent node (if any) gives root_transform.
  std::vector<int> parents(n, -1);
  bool have_root = false;
  for (std::size_t j = 0; j < n; ++j) {
    const int pn = node_parent[static_cast<std::size_t>(skin.joints[j])];
    if (pn >= 0 && node_to_joint[static_cast<std::size_t>(pn)] >= 0) {
      parents[j] = node_to_joint[static_cast<std::size_t>(pn)];
      continue;
    }
    glm::mat4 g(1.0f);
    for (int a = pn; a >= 0; a = node_parent[static_cast<std::size_t>(a)]) {
      if (node_to_joint[static_cast<std::size_t>(a)] >= 0) {
        c.fail("a joint's parent node is not a joint of the skin",
               "skins[0].joints[" + std::to_string(j) + "]");
      }
      g = node_matrix(m.nodes[static_cast<std::size_t>(a)]) * g;
    }
    if (!have_root) out.root_transform = g;
    have_root = true;
  }
  const std::vector<int> order = depth_first_order(parents);
  std::vector<int> old_to_new(n);
  for (std::size_t k = 0; k < n; ++k) old_to_new[static_cast<std::size_t>(order[k])] = static_cast<int>(k);

  std::vector<float> ibm;
  if (skin.inverseBindMatrices >= 0) {
    ibm = read_floats(c, skin.inverseBindMatrices, 16, "skins[0].inverseBindMatrices");
    if (ibm.size() != 16 * n)
      c.fail("inverse bind count differs from joint count", "skins[0].inverseBindMatrices");
  }
  Skeleton& sk = out.skeleton;
  sk.names.resize(n);
  sk.parents.resize(n);
  sk.rest.resize(n);
  out.inverse_binds.assign(n, glm::mat4(1.0f));
  out.joint_nodes.resize(n);
  out.joints.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t old = static_cast<std::size_t>(order[k]);
    const int node = skin.joints[old];
    const tinygltf::Node& nd = m.nodes[static_cast<std::size_t>(node)];
    sk.names[k] = nd.name;
    sk.parents[k] = static_cast<std::int16_t>(
        parents[old] < 0 ? kNoParent : old_to_new[static_cast<std::size_t>(parents[old])]);
    node_trs(nd, sk.rest.translation[k], sk.rest.rotation[k], sk.rest.scale[k]);
    if (!ibm.empty()) std::memcpy(glm::value_ptr(out.inverse_binds[k]), ibm.data() + 16 * old, 64);
    out.joint_nodes[k] = node;
    out.joints[k] = static_cast<std::uint16_t>(k);
  }
  // Joint numbering in files refers to skin order; remap to depth-first order.
  for (std::size_t j = 0; j < n; ++j) node_to_joint[static_cast<std::size_t>(skin.joints[j])] = old_to_new[j];
  sk.validate();
}

void import_meshes(const Ctx& c, ImportedModel& out, const std::vector<int>& node_to_joint,
                   std::unordered_map<int, int>& material_map) {
  const auto& m = c.model;
  const tinygltf::Skin& skin = m.skins[0];
  std::vector<std::uint16_t> skin_to_joint(skin.joints.size());
  for (std::size_t j = 0; j < skin.joints.size(); ++j) {
    skin_to_joint[j] = static_cast<std::uint16_t>(node_to_joint[static_cast<std::size_t>(skin.joints[j])]);
  }
  for (std::size_t ni = 0; ni < m.nodes.size(); ++ni) {
    const tinygltf::Node& node = m.nodes[ni];
    if (node.mesh < 0 || node.skin != 0) continue;
    if (static_cast<std::size_t>(node.mesh) >= m.meshes.size())
      c.fail("mesh index out of range", "nodes[" + std::to_string(ni) + "].mesh");
    const tinygltf::Mesh& mesh = m.meshes[static_cast<std::size_t>(node.mesh)];
    const std::vector<double> morph = gltf::default_morph_weights(c, static_cast<int>(ni));
    for (std::size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
      const tinygltf::Primitive& prim = mesh.primitives[pi];
      const std::string pf =
          "meshes[" + std::to_string(node.mesh) + "].primitives[" + std::to_string(pi) + "]";
      SkinnedMesh sm = detail::read_primitive(c, prim, pf, skin_to_joint, morph);
      if (sm.indices.empty()) continue;  // points or lines: no surface
      sm.morph_node = static_cast<int>(ni);
      sm.name = mesh.name;
      if (prim.material >= 0) {
        auto [it, inserted] = material_map.try_emplace(prim.material, static_cast<int>(material_map.size()));
        sm.material = it->second;
      }
      out.meshes.push_back(std::move(sm));
    }
  }
  if (out.meshes.empty()) c.fail("no mesh node uses the skin", "nodes[*].skin");
}

void import_materials(const Ctx& c, ImportedModel& out, const std::unordered_map<int, int>& material_map) {
  out.materials.resize(material_map.size());
  std::map<int, int> image_map;
  // Visit materials in output order so texture numbering does not depend on hash-map order.
  std::vector<std::pair<int, int>> ordered(material_map.begin(), material_map.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [gi, mi] : ordered)
    out.materials[static_cast<std::size_t>(mi)] = detail::read_material(c, gi, image_map, out.textures);
}

void import_clips(const Ctx& c, ImportedModel& out, const std::vector<int>& node_to_joint) {
  for (std::size_t ai = 0; ai < c.model.animations.size(); ++ai)
    out.clips.push_back(detail::read_clip(c, ai, node_to_joint, out.skeleton.size()));
}

ImportedModel import_document(const gltf::Document& c) {
  ImportedModel out;
  std::vector<int> node_to_joint;
  import_skeleton(c, out, node_to_joint);
  std::unordered_map<int, int> material_map;
  import_meshes(c, out, node_to_joint, material_map);
  import_materials(c, out, material_map);
  import_clips(c, out, node_to_joint);
  return out;
}

}  // namespace

ImportedModel import_gltf(const std::filesystem::path& path) {
  const gltf::Document doc = gltf::load(path);
  return import_document(doc);
}

ImportedModel import_gltf_bytes(std::span<const std::byte> bytes, bool binary, const std::string& file,
                                const std::filesystem::path& base_dir) {
  return import_document(gltf::load_bytes(bytes, binary, file, base_dir));
}

}  // namespace myriad::anim
