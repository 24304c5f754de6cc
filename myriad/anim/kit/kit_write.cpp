#include "myriad/anim/kit/kit_write.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/gltf/writer.hpp"

#include <map>

#include <glm/gtc/type_ptr.hpp>

namespace myriad::anim {
namespace {

using nlohmann::json;

json vec(const float* v, int n) {
  json a = json::array();
  for (int i = 0; i < n; ++i) a.push_back(v[i]);
  return a;
}

bool is_identity(const glm::mat4& m) { return m == glm::mat4(1.0f); }

// Kit textures written so far: the glTF image of each, the glTF texture of each (texture, wrap modes)
// and the sampler of each wrap other than repeat (glTF's default, written without a sampler).
struct WrittenTextures {
  std::map<int, int> image_of;
  std::map<std::pair<int, std::uint32_t>, int> texture_of;
  std::map<std::uint32_t, int> sampler_of;
};

// The glTF texture of kit texture `t` read with `wrap`, its image written (PNG, in the binary buffer) on
// first use.
int texture_index(gltf::Writer& w, const Avatar& kit, int t, UvWrapModes wrap, WrittenTextures& written) {
  const auto [it, inserted] = written.texture_of.try_emplace({t, wrap.packed()}, 0);
  if (!inserted) return it->second;
  const auto [image, new_image] = written.image_of.try_emplace(t, 0);
  if (new_image) {
    const Texture& tex = kit.textures[static_cast<std::size_t>(t)];
    const std::vector<std::byte> png = encode_png_rgba8(tex.width, tex.height, tex.rgba8);
    const int view = w.view(png.data(), png.size(), 0);
    w.doc["images"].push_back({{"name", tex.name}, {"bufferView", view}, {"mimeType", "image/png"}});
    image->second = static_cast<int>(w.doc["images"].size() - 1);
  }
  json texture = {{"source", image->second}};
  if (!wrap.repeats()) {
    const auto [sampler, new_sampler] = written.sampler_of.try_emplace(wrap.packed(), 0);
    if (new_sampler) {
      w.doc["samplers"].push_back({{"wrapS", uv_wrap_to_gltf(wrap.s)}, {"wrapT", uv_wrap_to_gltf(wrap.t)}});
      sampler->second = static_cast<int>(w.doc["samplers"].size() - 1);
    }
    texture["sampler"] = sampler->second;
  }
  w.doc["textures"].push_back(texture);
  it->second = static_cast<int>(w.doc["textures"].size() - 1);
  return it->second;
}

int write_mesh(gltf::Writer& w, const AvatarPart& part, const Avatar& kit, bool skinned,
               const glm::mat4& place, WrittenTextures& textures) {
  const SkinnedMesh& sm = part.mesh;
  std::vector<glm::vec3> positions = sm.positions, normals = sm.normals;
  if (!skinned) {
    const glm::mat3 nm = glm::transpose(glm::inverse(glm::mat3(place)));
    for (glm::vec3& p : positions) p = glm::vec3(place * glm::vec4(p, 1.0f));
    for (glm::vec3& n : normals) n = glm::normalize(nm * n);
  }
  json attributes = {{"POSITION", w.accessor(positions, "VEC3", gltf::kFloat, gltf::kArrayBuffer, true)}};
  if (!normals.empty()) attributes["NORMAL"] = w.accessor(normals, "VEC3", gltf::kFloat, gltf::kArrayBuffer);
  if (!sm.uvs.empty())
    attributes["TEXCOORD_0"] = w.accessor(sm.uvs, "VEC2", gltf::kFloat, gltf::kArrayBuffer);
  if (!sm.colors.empty())
    attributes["COLOR_0"] = w.accessor(sm.colors, "VEC4", gltf::kFloat, gltf::kArrayBuffer);
  if (skinned) {
    attributes["JOINTS_0"] = w.accessor(sm.joints, "VEC4", gltf::kUnsignedShort, gltf::kArrayBuffer);
    attributes["WEIGHTS_0"] = w.accessor(sm.weights, "VEC4", gltf::kFloat, gltf::kArrayBuffer);
  }
  json prim = {{"attributes", attributes},
               {"indices", w.accessor(sm.indices, "SCALAR", gltf::kUnsignedInt, gltf::kElementBuffer)},
               {"mode", 4}};
  if (sm.material >= 0 && static_cast<std::size_t>(sm.material) < kit.materials.size()) {
    const Material& m = kit.materials[static_cast<std::size_t>(sm.material)];
    json pbr = {{"baseColorFactor", vec(glm::value_ptr(m.base_color_factor), 4)},
                {"metallicFactor", 0.0},
                {"roughnessFactor", 1.0}};
    if (m.base_color_texture >= 0 && static_cast<std::size_t>(m.base_color_texture) < kit.textures.size())
      pbr["baseColorTexture"] = {
          {"index", texture_index(w, kit, m.base_color_texture, m.texture_wrap, textures)}};
    json mat = {{"name", m.name}, {"doubleSided", m.double_sided}, {"pbrMetallicRoughness", pbr}};
    if (m.alpha_mode != AlphaMode::kOpaque) {
      mat["alphaMode"] = m.alpha_mode == AlphaMode::kMask ? "MASK" : "BLEND";
      if (m.alpha_mode == AlphaMode::kMask) mat["alphaCutoff"] = m.alpha_cutoff;
    }
    w.doc["materials"].push_back(mat);
    prim["material"] = w.doc["materials"].size() - 1;
  }
  w.doc["meshes"].push_back({{"name", sm.name}, {"primitives", json::array({prim})}});
  return static_cast<int>(w.doc["meshes"].size() - 1);
}

void write_clip(gltf::Writer& w, const Clip& clip, int first_joint_node) {
  json samplers = json::array(), channels = json::array();
  for (const Channel& ch : clip.channels) {
    const int comps = ch.path == ChannelPath::kRotation ? 4 : 3;
    const std::size_t per_key = ch.interpolation == Interpolation::kCubicSpline ? 3 : 1;
    const std::vector<float> times(clip.times.begin() + ch.first_key,
                                   clip.times.begin() + ch.first_key + ch.key_count);
    std::vector<float> values;
    for (std::size_t k = 0; k < ch.key_count * per_key; ++k) {
      const glm::vec4& v = clip.values[ch.first_value + k];
      values.insert(values.end(), glm::value_ptr(v), glm::value_ptr(v) + comps);
    }
    const int input = w.accessor(times, "SCALAR", gltf::kFloat, 0, true);
    const int output = w.view(values.data(), values.size() * sizeof(float), 0);
    w.doc["accessors"].push_back({{"bufferView", output},
                                  {"componentType", gltf::kFloat},
                                  {"count", values.size() / static_cast<std::size_t>(comps)},
                                  {"type", comps == 4 ? "VEC4" : "VEC3"}});
    const char* interpolation = ch.interpolation == Interpolation::kStep     ? "STEP"
                                : ch.interpolation == Interpolation::kLinear ? "LINEAR"
                                                                             : "CUBICSPLINE";
    samplers.push_back(
        {{"input", input}, {"output", w.doc["accessors"].size() - 1}, {"interpolation", interpolation}});
    const char* path = ch.path == ChannelPath::kTranslation ? "translation"
                       : ch.path == ChannelPath::kRotation  ? "rotation"
                                                            : "scale";
    channels.push_back({{"sampler", samplers.size() - 1},
                        {"target", {{"node", first_joint_node + ch.joint}, {"path", path}}}});
  }
  w.doc["animations"].push_back({{"name", clip.name}, {"samplers", samplers}, {"channels", channels}});
}

}  // namespace

void write_kit_gltf(const std::filesystem::path& path, const Avatar& kit, const KitWriteOptions& o) {
  kit.skeleton.validate();
  if (kit.skeleton.size() == 0) throw Error("the kit has no skeleton", "write_kit_gltf");
  gltf::Writer w;
  json nodes = json::array();
  json armature = {{"name", "Armature"}, {"children", json::array()}};
  if (!is_identity(kit.root_transform)) armature["matrix"] = vec(glm::value_ptr(kit.root_transform), 16);
  nodes.push_back(armature);
  constexpr int kFirstJoint = 1;
  const Skeleton& sk = kit.skeleton;
  for (std::size_t j = 0; j < sk.size(); ++j) {
    const glm::quat& q = sk.rest.rotation[j];
    nodes.push_back({{"name", sk.names[j]},
                     {"translation", vec(glm::value_ptr(sk.rest.translation[j]), 3)},
                     {"rotation", {q.x, q.y, q.z, q.w}},
                     {"scale", vec(glm::value_ptr(sk.rest.scale[j]), 3)}});
    if (sk.parents[j] == kNoParent) {
      nodes[0]["children"].push_back(kFirstJoint + static_cast<int>(j));
    } else {
      nodes[static_cast<std::size_t>(kFirstJoint + sk.parents[j])]["children"].push_back(kFirstJoint +
                                                                                         static_cast<int>(j));
    }
  }
  json scene_nodes = json::array({0});
  WrittenTextures textures;
  for (const AvatarPart& part : kit.parts) {
    if (part.clothing ? !o.items : !o.body) continue;
    if (part.skin.joints.empty() || part.skin.joints.size() != part.skin.inverse_binds.size())
      throw Error("part '" + part.mesh.name + "' has a bad skin", "write_kit_gltf");
    json node = {{"name", part.mesh.name}};
    if (part.clothing) node["extras"] = {{"item", part.item}, {"slot", part.slot}};
    if (!part.clothing && part.tintable) node["extras"] = {{"tintable", true}};
    const bool rigid = part.rigid && part.skin.joints.size() == 1;
    // A rigid part goes back under its joint: bind-space vertices v = inverse(ibm) * p, so p = ibm * v.
    node["mesh"] = write_mesh(w, part, kit, !rigid, part.skin.inverse_binds[0], textures);
    if (rigid) {
      nodes.push_back(node);
      nodes[static_cast<std::size_t>(kFirstJoint + part.skin.joints[0])]["children"].push_back(nodes.size() -
                                                                                               1);
      continue;
    }
    json joints = json::array();
    for (const std::uint16_t j : part.skin.joints) joints.push_back(kFirstJoint + j);
    w.doc["skins"].push_back(
        {{"joints", joints},
         {"skeleton", 0},
         {"inverseBindMatrices", w.accessor(part.skin.inverse_binds, "MAT4", gltf::kFloat, 0)}});
    node["skin"] = w.doc["skins"].size() - 1;
    nodes.push_back(node);
    scene_nodes.push_back(nodes.size() - 1);
  }
  {
    // A skin naming every joint, used by no mesh: joints no part is weighted to (end bones, a joint
    // only items use) stay in the skeleton a reader sees, and an item file of rigid items has joints.
    json joints = json::array();
    for (std::size_t j = 0; j < sk.size(); ++j) joints.push_back(kFirstJoint + static_cast<int>(j));
    w.doc["skins"].push_back({{"name", "skeleton"}, {"joints", joints}, {"skeleton", 0}});
  }
  if (o.clips) {
    for (const Clip& c : kit.clips) {
      if (!c.channels.empty()) write_clip(w, c, kFirstJoint);
    }
  }
  w.doc["nodes"] = nodes;
  w.doc["scenes"] = json::array({json{{"nodes", scene_nodes}}});
  w.doc["scene"] = 0;
  w.save(path);
}

}  // namespace myriad::anim
