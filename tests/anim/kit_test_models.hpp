// Multi-mesh skinned characters written with tinygltf for the kit tests — built the way exporters
// build them and independently of Myriad's own kit writer: several skins on one armature (identical
// and overlapping joint lists, different joint orders), rigid meshes under joints (directly and
// through an offset node), items marked by name or extras, a colour-only and a textured material
// (embedded PNG), Z-up armatures, prefixed joint names.
#pragma once

#include <tiny_gltf.h>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace myriad::anim::test {

// tinygltf keeps numbers as doubles.
template <class... T>
std::vector<double> doubles(T... v) {
  return {static_cast<double>(v)...};
}

class ModelBuilder {
 public:
  tinygltf::Model m;

  ModelBuilder() {
    m.asset.version = "2.0";
    m.buffers.emplace_back();
    m.scenes.emplace_back();
    m.defaultScene = 0;
  }

  int node(const std::string& name, int parent, glm::vec3 t = glm::vec3(0.0f),
           glm::quat r = glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) {
    tinygltf::Node n;
    n.name = name;
    n.translation = doubles(t.x, t.y, t.z);
    n.rotation = doubles(r.x, r.y, r.z, r.w);
    m.nodes.push_back(n);
    const int i = static_cast<int>(m.nodes.size() - 1);
    if (parent >= 0) {
      m.nodes[static_cast<std::size_t>(parent)].children.push_back(i);
    } else {
      m.scenes[0].nodes.push_back(i);
    }
    return i;
  }

  // Global rest transform of a node (walks up the parents).
  glm::mat4 global(int n) const {
    glm::mat4 g(1.0f);
    for (int a = n; a >= 0; a = parent_of(a)) g = local(a) * g;
    return g;
  }

  // A skin over `joints` with inverse binds = inverse(global rest) relative to `armature`'s frame.
  int skin(const std::vector<int>& joints, int armature) {
    std::vector<glm::mat4> ibm;
    const glm::mat4 inv_arm = armature >= 0 ? glm::inverse(global(armature)) : glm::mat4(1.0f);
    for (int j : joints) ibm.push_back(glm::inverse(inv_arm * global(j)));
    tinygltf::Skin s;
    s.joints = joints;
    s.inverseBindMatrices =
        accessor(ibm.data(), ibm.size(), 64, TINYGLTF_TYPE_MAT4, TINYGLTF_COMPONENT_TYPE_FLOAT);
    m.skins.push_back(s);
    return static_cast<int>(m.skins.size() - 1);
  }

  // A box mesh from `lo` to `hi` (bind space). Skinned: every vertex weighted to local joint
  // `joint_a` (and `joint_b` with weight `wb` when >= 0).
  int box(const std::string& name, glm::vec3 lo, glm::vec3 hi, int material, bool skinned, int joint_a = 0,
          int joint_b = -1, float wb = 0.0f) {
    std::vector<glm::vec3> p, n;
    std::vector<std::uint32_t> idx;
    const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                            {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
    const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                             {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5}};
    for (const auto& f : faces) {
      const auto base = static_cast<std::uint32_t>(p.size());
      const glm::vec3 normal = glm::normalize(glm::cross(c[f[1]] - c[f[0]], c[f[2]] - c[f[0]]));
      for (int k = 0; k < 4; ++k) p.push_back(c[f[k]]), n.push_back(normal);
      idx.insert(idx.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
    tinygltf::Primitive prim;
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    prim.material = material;
    prim.attributes["POSITION"] = positions(p);
    prim.attributes["NORMAL"] =
        accessor(n.data(), n.size(), 12, TINYGLTF_TYPE_VEC3, TINYGLTF_COMPONENT_TYPE_FLOAT);
    std::vector<glm::vec2> uv(p.size());
    for (std::size_t i = 0; i < uv.size(); ++i) uv[i] = glm::vec2(float(i % 2), float((i / 2) % 2));
    prim.attributes["TEXCOORD_0"] =
        accessor(uv.data(), uv.size(), 8, TINYGLTF_TYPE_VEC2, TINYGLTF_COMPONENT_TYPE_FLOAT);
    if (skinned) {
      std::vector<std::uint8_t> j(p.size() * 4, 0);
      std::vector<glm::vec4> w(p.size(), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
      for (std::size_t v = 0; v < p.size(); ++v) {
        j[4 * v] = static_cast<std::uint8_t>(joint_a);
        if (joint_b >= 0 && v % 2 == 0) {
          j[4 * v + 1] = static_cast<std::uint8_t>(joint_b);
          w[v] = glm::vec4(1.0f - wb, wb, 0.0f, 0.0f);
        }
      }
      prim.attributes["JOINTS_0"] =
          accessor(j.data(), p.size(), 4, TINYGLTF_TYPE_VEC4, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE);
      prim.attributes["WEIGHTS_0"] =
          accessor(w.data(), w.size(), 16, TINYGLTF_TYPE_VEC4, TINYGLTF_COMPONENT_TYPE_FLOAT);
    }
    prim.indices =
        accessor(idx.data(), idx.size(), 4, TINYGLTF_TYPE_SCALAR, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
    tinygltf::Mesh mesh;
    mesh.name = name;
    mesh.primitives.push_back(prim);
    m.meshes.push_back(mesh);
    return static_cast<int>(m.meshes.size() - 1);
  }

  // Any triangle mesh: positions and normals, optional UVs, skin data when `joints` is not empty
  // (JOINTS_0 as unsigned shorts, local joint indices of the node's skin).
  struct MeshData {
    std::vector<glm::vec3> positions, normals;
    std::vector<glm::vec2> uvs;
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    std::vector<std::uint32_t> indices;
  };
  int mesh(const std::string& name, const MeshData& d, int material) {
    tinygltf::Primitive prim;
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    prim.material = material;
    prim.attributes["POSITION"] = positions(d.positions);
    prim.attributes["NORMAL"] =
        accessor(d.normals.data(), d.normals.size(), 12, TINYGLTF_TYPE_VEC3, TINYGLTF_COMPONENT_TYPE_FLOAT);
    if (!d.uvs.empty()) {
      prim.attributes["TEXCOORD_0"] =
          accessor(d.uvs.data(), d.uvs.size(), 8, TINYGLTF_TYPE_VEC2, TINYGLTF_COMPONENT_TYPE_FLOAT);
    }
    if (!d.joints.empty()) {
      prim.attributes["JOINTS_0"] = accessor(d.joints.data(), d.joints.size(), 8, TINYGLTF_TYPE_VEC4,
                                             TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
      prim.attributes["WEIGHTS_0"] =
          accessor(d.weights.data(), d.weights.size(), 16, TINYGLTF_TYPE_VEC4, TINYGLTF_COMPONENT_TYPE_FLOAT);
    }
    prim.indices = accessor(d.indices.data(), d.indices.size(), 4, TINYGLTF_TYPE_SCALAR,
                            TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
    tinygltf::Mesh mesh;
    mesh.name = name;
    mesh.primitives.push_back(prim);
    m.meshes.push_back(mesh);
    return static_cast<int>(m.meshes.size() - 1);
  }

  int color_material(const std::string& name, glm::vec4 color) {
    tinygltf::Material mat;
    mat.name = name;
    mat.pbrMetallicRoughness.baseColorFactor = doubles(color.r, color.g, color.b, color.a);
    m.materials.push_back(mat);
    return static_cast<int>(m.materials.size() - 1);
  }

  // A textured material with a 2x2 RGBA image stored as raw pixels (tinygltf embeds it as PNG).
  int texture_material(const std::string& name) {
    tinygltf::Image img;
    img.name = name + "_image";
    img.width = img.height = 2;
    img.component = 4;
    img.bits = 8;
    img.pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
    img.image = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    img.mimeType = "image/png";
    m.images.push_back(img);
    tinygltf::Texture tex;
    tex.source = static_cast<int>(m.images.size() - 1);
    m.textures.push_back(tex);
    tinygltf::Material mat;
    mat.name = name;
    mat.pbrMetallicRoughness.baseColorTexture.index = static_cast<int>(m.textures.size() - 1);
    m.materials.push_back(mat);
    return static_cast<int>(m.materials.size() - 1);
  }

  // A node carrying a mesh (and a skin), under `parent`.
  int mesh_node(const std::string& name, int mesh, int skin, int parent, tinygltf::Value extras = {}) {
    const int n = node(name, parent);
    m.nodes[static_cast<std::size_t>(n)].mesh = mesh;
    m.nodes[static_cast<std::size_t>(n)].skin = skin;
    m.nodes[static_cast<std::size_t>(n)].extras = extras;
    return n;
  }

  // A rotation clip on one node: `keys` LINEAR keys over `duration`, angle amplitude about `axis`.
  void rotation_clip(const std::string& name, int target, glm::vec3 axis, float amplitude, float duration) {
    std::vector<float> t;
    std::vector<glm::quat> q;
    for (int k = 0; k < 5; ++k) {
      t.push_back(duration * float(k) / 4.0f);
      const glm::quat r = glm::angleAxis(amplitude * std::sin(6.2831853f * float(k) / 4.0f), axis);
      q.push_back(r);
    }
    std::vector<float> qv;
    for (const glm::quat& r : q) qv.insert(qv.end(), {r.x, r.y, r.z, r.w});
    channel_clip(name, target, "rotation", t, qv, TINYGLTF_TYPE_VEC4, 4);
  }

  // A clip of one LINEAR channel: `path` of node `target` keyed at `times` with `values` (`width` floats a
  // key, glTF `type`).
  void channel_clip(const std::string& name, int target, const std::string& path,
                    const std::vector<float>& times, const std::vector<float>& values, int type,
                    std::size_t width) {
    tinygltf::Animation a;
    a.name = name;
    tinygltf::AnimationSampler s;
    s.input =
        accessor(times.data(), times.size(), 4, TINYGLTF_TYPE_SCALAR, TINYGLTF_COMPONENT_TYPE_FLOAT, true);
    s.output = accessor(values.data(), values.size() / width, 4 * width, type, TINYGLTF_COMPONENT_TYPE_FLOAT);
    s.interpolation = "LINEAR";
    a.samplers.push_back(s);
    tinygltf::AnimationChannel c;
    c.sampler = 0;
    c.target_node = target;
    c.target_path = path;
    a.channels.push_back(c);
    m.animations.push_back(a);
  }

  // One clip turning several nodes at once: each about its axis by a sine of its amplitude, on top of
  // the node's rest rotation.
  struct Turn {
    int target;
    glm::vec3 axis;
    float amplitude;
  };
  void turn_clip(const std::string& name, const std::vector<Turn>& turns, float duration) {
    tinygltf::Animation a;
    a.name = name;
    std::vector<float> t;
    for (int k = 0; k < 5; ++k) t.push_back(duration * float(k) / 4.0f);
    const int input =
        accessor(t.data(), t.size(), 4, TINYGLTF_TYPE_SCALAR, TINYGLTF_COMPONENT_TYPE_FLOAT, true);
    for (const Turn& turn : turns) {
      std::vector<float> qv;
      for (int k = 0; k < 5; ++k) {
        const glm::quat r =
            glm::angleAxis(turn.amplitude * std::sin(6.2831853f * float(k) / 4.0f), turn.axis);
        const std::vector<double> rest = rest_rotation(turn.target);
        const glm::quat q = glm::quat(float(rest[3]), float(rest[0]), float(rest[1]), float(rest[2])) * r;
        qv.insert(qv.end(), {q.x, q.y, q.z, q.w});
      }
      tinygltf::AnimationSampler s;
      s.input = input;
      s.output = accessor(qv.data(), 5, 16, TINYGLTF_TYPE_VEC4, TINYGLTF_COMPONENT_TYPE_FLOAT);
      s.interpolation = "LINEAR";
      a.samplers.push_back(s);
      tinygltf::AnimationChannel c;
      c.sampler = static_cast<int>(a.samplers.size() - 1);
      c.target_node = turn.target;
      c.target_path = "rotation";
      a.channels.push_back(c);
    }
    m.animations.push_back(a);
  }

  std::vector<double> rest_rotation(int n) const {
    const tinygltf::Node& nd = m.nodes[static_cast<std::size_t>(n)];
    return nd.rotation.size() == 4 ? nd.rotation : doubles(0, 0, 0, 1);
  }

  void write(const std::filesystem::path& path) const {
    tinygltf::TinyGLTF io;
    const bool glb = path.extension() == ".glb";
    if (!io.WriteGltfSceneToFile(&m, path.string(), true, true, !glb, glb))
      throw std::runtime_error("could not write " + path.string());
  }

  // The raw pieces, for tests that shape accessors and views themselves.
  int parent_of(int n) const {
    for (std::size_t i = 0; i < m.nodes.size(); ++i) {
      for (int c : m.nodes[i].children)
        if (c == n) return static_cast<int>(i);
    }
    return -1;
  }
  glm::mat4 local(int n) const {
    const tinygltf::Node& nd = m.nodes[static_cast<std::size_t>(n)];
    glm::mat4 g(1.0f);
    if (nd.matrix.size() == 16) {
      for (int i = 0; i < 16; ++i)
        glm::value_ptr(g)[i] = static_cast<float>(nd.matrix[static_cast<std::size_t>(i)]);
      return g;
    }
    if (nd.translation.size() == 3)
      g = glm::translate(
          g, glm::vec3(float(nd.translation[0]), float(nd.translation[1]), float(nd.translation[2])));
    if (nd.rotation.size() == 4)
      g = g * glm::mat4_cast(glm::quat(float(nd.rotation[3]), float(nd.rotation[0]), float(nd.rotation[1]),
                                       float(nd.rotation[2])));
    return g;
  }
  int positions(const std::vector<glm::vec3>& p) {
    const int a = accessor(p.data(), p.size(), 12, TINYGLTF_TYPE_VEC3, TINYGLTF_COMPONENT_TYPE_FLOAT);
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& v : p) lo = glm::min(lo, v), hi = glm::max(hi, v);
    m.accessors[static_cast<std::size_t>(a)].minValues = doubles(lo.x, lo.y, lo.z);
    m.accessors[static_cast<std::size_t>(a)].maxValues = doubles(hi.x, hi.y, hi.z);
    return a;
  }
  int accessor(const void* data, std::size_t count, std::size_t elem, int type, int component,
               bool bounds = false) {
    std::vector<unsigned char>& buf = m.buffers[0].data;
    while (buf.size() % 4) buf.push_back(0);
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = buf.size();
    v.byteLength = count * elem;
    const auto* b = static_cast<const unsigned char*>(data);
    buf.insert(buf.end(), b, b + count * elem);
    m.bufferViews.push_back(v);
    tinygltf::Accessor a;
    a.bufferView = static_cast<int>(m.bufferViews.size() - 1);
    a.count = count;
    a.type = type;
    a.componentType = component;
    if (bounds && count) {
      const auto* f = static_cast<const float*>(data);
      a.minValues = doubles(f[0]);
      a.maxValues = doubles(f[count - 1]);
    }
    m.accessors.push_back(a);
    return static_cast<int>(m.accessors.size() - 1);
  }
};

inline tinygltf::Value item_extras(const std::string& item, const std::string& slot) {
  tinygltf::Value::Object o;
  o["item"] = tinygltf::Value(item);
  o["slot"] = tinygltf::Value(slot);
  return tinygltf::Value(o);
}

}  // namespace myriad::anim::test
