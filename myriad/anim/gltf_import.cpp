#include "myriad/anim/gltf_import.hpp"

#include "myriad/gltf/document.hpp"

#include "myriad/core/binary_io.hpp"
#include "myriad/core/error.hpp"

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtx/matrix_decompose.hpp>

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstring>
#include <limits>
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
  std::vector<int> node_parent(m.nodes.size(), -1);
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    for (int ch : m.nodes[i].children) {
      if (ch < 0 || static_cast<std::size_t>(ch) >= m.nodes.size()) {
        c.fail("child index out of range", "nodes[" + std::to_string(i) + "].children");
      }
      node_parent[static_cast<std::size_t>(ch)] = static_cast<int>(i);
    }
  }
  // glTF nodes form a forest; a cycle would make the walks up the hierarchy below endless. One pass:
  // walk up from each node, marking the path, until a root or a node already known to be cycle-free.
  {
    enum : std::uint8_t { kUnseen, kOnPath, kAcyclic };
    std::vector<std::uint8_t> state(m.nodes.size(), kUnseen);
    for (std::size_t i = 0; i < m.nodes.size(); ++i) {
      std::size_t a = i;
      while (state[a] == kUnseen && node_parent[a] >= 0) {
        state[a] = kOnPath;
        a = static_cast<std::size_t>(node_parent[a]);
      }
      if (state[a] == kOnPath)
        c.fail("the node hierarchy has a cycle", "nodes[" + std::to_string(a) + "].children");
      for (std::size_t b = i; state[b] == kOnPath; b = static_cast<std::size_t>(node_parent[b]))
        state[b] = kAcyclic;
      state[a] = kAcyclic;
    }
  }
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
    for (std::size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
      const tinygltf::Primitive& prim = mesh.primitives[pi];
      const std::string pf =
          "meshes[" + std::to_string(node.mesh) + "].primitives[" + std::to_string(pi) + "]";
      if (prim.mode != -1 && prim.mode != TINYGLTF_MODE_TRIANGLES)
        c.fail("only triangle lists are supported", pf + ".mode");
      auto attr = [&](const char* name) {
        const auto it = prim.attributes.find(name);
        return it == prim.attributes.end() ? -1 : it->second;
      };
      const int pos = attr("POSITION"), jn = attr("JOINTS_0"), wt = attr("WEIGHTS_0");
      if (pos < 0) c.fail("primitive has no POSITION", pf + ".attributes.POSITION");
      if (jn < 0) c.fail("skinned primitive has no JOINTS_0", pf + ".attributes.JOINTS_0");
      if (wt < 0) c.fail("skinned primitive has no WEIGHTS_0", pf + ".attributes.WEIGHTS_0");
      SkinnedMesh sm;
      sm.name = mesh.name;
      const std::vector<float> p = read_floats(c, pos, 3, pf + ".attributes.POSITION");
      const std::size_t count = p.size() / 3;
      assign_floats(sm.positions, p);
      if (const int nr = attr("NORMAL"); nr >= 0) {
        const std::vector<float> v = read_floats(c, nr, 3, pf + ".attributes.NORMAL");
        if (v.size() != p.size()) c.fail("attribute count differs from POSITION", pf + ".attributes.NORMAL");
        assign_floats(sm.normals, v);
      }
      if (const int uv = attr("TEXCOORD_0"); uv >= 0) {
        const std::vector<float> v = read_floats(c, uv, 2, pf + ".attributes.TEXCOORD_0");
        if (v.size() != 2 * count)
          c.fail("attribute count differs from POSITION", pf + ".attributes.TEXCOORD_0");
        assign_floats(sm.uvs, v);
      }
      const std::string jf = pf + ".attributes.JOINTS_0";
      const View jv = accessor_view(c, jn, jf);
      if (jv.components != 4 || (jv.component_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
                                 jv.component_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT)) {
        c.fail("JOINTS_0 must be VEC4 of unsigned byte or short", jf);
      }
      if (jv.count != count) c.fail("attribute count differs from POSITION", jf);
      const std::vector<float> w = read_floats(c, wt, 4, pf + ".attributes.WEIGHTS_0");
      if (w.size() != 4 * count)
        c.fail("attribute count differs from POSITION", pf + ".attributes.WEIGHTS_0");
      sm.joints.resize(count);
      sm.weights.resize(count);
      for (std::size_t i = 0; i < count; ++i) {
        glm::vec4 wv(w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]);
        const float sum = wv.x + wv.y + wv.z + wv.w;
        if (!(sum > 0.0f))
          c.fail("vertex " + std::to_string(i) + " has zero total weight", pf + ".attributes.WEIGHTS_0");
        // Weights of 3e38 are finite one by one, but their sum is not: dividing by it would zero them.
        if (!std::isfinite(sum) || !(std::min(std::min(wv.x, wv.y), std::min(wv.z, wv.w)) >= 0.0f))
          c.fail("vertex " + std::to_string(i) + " has a negative weight or weights whose sum is not finite",
                 pf + ".attributes.WEIGHTS_0", "weights are fractions that sum to 1");
        sm.weights[i] = wv / sum;
        for (int k = 0; k < 4; ++k) {
          const std::uint32_t j = read_uint(jv, i, k);
          if (j >= skin_to_joint.size()) c.fail("joint index " + std::to_string(j) + " outside the skin", jf);
          sm.joints[i][k] = skin_to_joint[j];
        }
      }
      if (prim.indices >= 0) {
        const View iv = accessor_view(c, prim.indices, pf + ".indices");
        if (iv.components != 1 || iv.component_type == TINYGLTF_COMPONENT_TYPE_FLOAT)
          c.fail("indices must be unsigned scalars", pf + ".indices");
        sm.indices.resize(iv.count);
        for (std::size_t i = 0; i < iv.count; ++i) {
          sm.indices[i] = read_uint(iv, i, 0);
          if (sm.indices[i] >= count)
            c.fail("index " + std::to_string(sm.indices[i]) + " out of range", pf + ".indices");
        }
      } else {
        sm.indices.resize(count);
        for (std::size_t i = 0; i < count; ++i) sm.indices[i] = static_cast<std::uint32_t>(i);
      }
      if (sm.indices.size() % 3 != 0) c.fail("index count is not a multiple of 3", pf + ".indices");
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
  const auto& m = c.model;
  out.materials.resize(material_map.size());
  std::unordered_map<int, int> image_map;
  // Visit materials in output order so texture numbering does not depend on hash-map order.
  std::vector<std::pair<int, int>> ordered(material_map.begin(), material_map.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [gi, mi] : ordered) {
    if (static_cast<std::size_t>(gi) >= m.materials.size())
      c.fail("material index out of range", "meshes[*].primitives[*].material");
    const tinygltf::Material& gm = m.materials[static_cast<std::size_t>(gi)];
    Material& mat = out.materials[static_cast<std::size_t>(mi)];
    mat.name = gm.name;
    mat.double_sided = gm.doubleSided;
    const auto& f = gm.pbrMetallicRoughness.baseColorFactor;
    if (f.size() == 4) {
      mat.base_color_factor = glm::vec4(static_cast<float>(f[0]), static_cast<float>(f[1]),
                                        static_cast<float>(f[2]), static_cast<float>(f[3]));
    }
    const int ti = gm.pbrMetallicRoughness.baseColorTexture.index;
    if (ti < 0) continue;
    const std::string tf = "materials[" + std::to_string(gi) + "].pbrMetallicRoughness.baseColorTexture";
    if (static_cast<std::size_t>(ti) >= m.textures.size()) c.fail("texture index out of range", tf);
    const int src = m.textures[static_cast<std::size_t>(ti)].source;
    if (src < 0 || static_cast<std::size_t>(src) >= m.images.size())
      c.fail("texture has no image", "textures[" + std::to_string(ti) + "].source");
    auto [it, inserted] = image_map.try_emplace(src, static_cast<int>(out.textures.size()));
    mat.base_color_texture = it->second;
    if (!inserted) continue;
    const tinygltf::Image& img = m.images[static_cast<std::size_t>(src)];
    const std::string imf = "images[" + std::to_string(src) + "]";
    if (img.bits != 8 || img.component < 1 || img.component > 4 || img.width <= 0 || img.height <= 0) {
      c.fail("image is not decoded 8-bit (" + std::to_string(img.bits) + " bits, " +
                 std::to_string(img.component) + " components)",
             imf);
    }
    Texture t;
    t.name = img.name.empty() ? img.uri : img.name;
    t.width = static_cast<std::uint32_t>(img.width);
    t.height = static_cast<std::uint32_t>(img.height);
    const std::size_t px = std::size_t{t.width} * t.height;
    const std::size_t comp = static_cast<std::size_t>(img.component);
    if (img.image.size() < px * comp) c.fail("image data is shorter than width x height", imf);
    t.rgba8.resize(px * 4);
    for (std::size_t i = 0; i < px; ++i) {
      const std::uint8_t* s = img.image.data() + i * comp;
      std::uint8_t* d = t.rgba8.data() + i * 4;
      d[0] = s[0];
      d[1] = comp >= 3 ? s[1] : s[0];
      d[2] = comp >= 3 ? s[2] : s[0];
      d[3] = comp == 4 ? s[3] : (comp == 2 ? s[1] : 255);
    }
    out.textures.push_back(std::move(t));
  }
}

void import_clips(const Ctx& c, ImportedModel& out, const std::vector<int>& node_to_joint) {
  const auto& m = c.model;
  for (std::size_t ai = 0; ai < m.animations.size(); ++ai) {
    const tinygltf::Animation& a = m.animations[ai];
    const std::string af = "animations[" + std::to_string(ai) + "]";
    Clip clip;
    clip.name = a.name.empty() ? af : a.name;
    for (std::size_t ci = 0; ci < a.channels.size(); ++ci) {
      const tinygltf::AnimationChannel& ch = a.channels[ci];
      const std::string cf = af + ".channels[" + std::to_string(ci) + "]";
      if (ch.target_node < 0 || static_cast<std::size_t>(ch.target_node) >= m.nodes.size())
        c.fail("channel target node out of range", cf + ".target.node");
      const int joint = node_to_joint[static_cast<std::size_t>(ch.target_node)];
      if (joint < 0 || ch.target_path == "weights")
        continue;  // non-joint nodes and morph weights do not pose the skeleton
      Channel out_ch;
      out_ch.joint = static_cast<std::uint16_t>(joint);
      int comps = 3;
      if (ch.target_path == "translation") {
        out_ch.path = ChannelPath::kTranslation;
      } else if (ch.target_path == "rotation") {
        out_ch.path = ChannelPath::kRotation;
        comps = 4;
      } else if (ch.target_path == "scale") {
        out_ch.path = ChannelPath::kScale;
      } else {
        c.fail("unsupported target path '" + ch.target_path + "'", cf + ".target.path");
      }
      if (ch.sampler < 0 || static_cast<std::size_t>(ch.sampler) >= a.samplers.size())
        c.fail("sampler index out of range", cf + ".sampler");
      const tinygltf::AnimationSampler& s = a.samplers[static_cast<std::size_t>(ch.sampler)];
      const std::string sf = af + ".samplers[" + std::to_string(ch.sampler) + "]";
      if (s.interpolation == "LINEAR" || s.interpolation.empty()) {
        out_ch.interpolation = Interpolation::kLinear;
      } else if (s.interpolation == "STEP") {
        out_ch.interpolation = Interpolation::kStep;
      } else if (s.interpolation == "CUBICSPLINE") {
        out_ch.interpolation = Interpolation::kCubicSpline;
      } else {
        c.fail("unsupported interpolation '" + s.interpolation + "'", sf + ".interpolation",
               "use LINEAR, STEP or CUBICSPLINE");
      }
      const std::vector<float> times = read_floats(c, s.input, 1, sf + ".input");
      const std::vector<float> vals = read_floats(c, s.output, comps, sf + ".output");
      const std::size_t per_key = out_ch.interpolation == Interpolation::kCubicSpline ? 3 : 1;
      if (times.empty()) c.fail("sampler has no keys", sf + ".input");
      if (vals.size() != times.size() * per_key * static_cast<std::size_t>(comps)) {
        c.fail("output count does not match input count", sf + ".output");
      }
      out_ch.first_key = static_cast<std::uint32_t>(clip.times.size());
      out_ch.key_count = static_cast<std::uint32_t>(times.size());
      out_ch.first_value = static_cast<std::uint32_t>(clip.values.size());
      clip.times.insert(clip.times.end(), times.begin(), times.end());
      for (std::size_t i = 0; i < vals.size() / static_cast<std::size_t>(comps); ++i) {
        const float* v = vals.data() + i * static_cast<std::size_t>(comps);
        clip.values.emplace_back(v[0], v[1], v[2], comps == 4 ? v[3] : 0.0f);
      }
      clip.duration = std::max(clip.duration, times.back());
      clip.channels.push_back(out_ch);
    }
    try {
      clip.validate(out.skeleton.size());
    } catch (const Error& e) {
      c.fail(e.problem(), af + " (" + e.where() + ")");
    }
    out.clips.push_back(std::move(clip));
  }
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
