#include "myriad/anim/import/gltf_reading.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/mesh/vertex_normals.hpp"
#include "myriad/gltf/material.hpp"
#include "myriad/gltf/primitive.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace myriad::anim::detail {

using gltf::accessor_view;
using gltf::assign_floats;
using gltf::read_floats;
using gltf::read_uint;
using gltf::View;

std::vector<int> node_parents(const gltf::Document& c) {
  const auto& m = c.model;
  std::vector<int> parent(m.nodes.size(), -1);
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    for (int ch : m.nodes[i].children) {
      if (ch < 0 || static_cast<std::size_t>(ch) >= m.nodes.size()) {
        c.fail("child index out of range", "nodes[" + std::to_string(i) + "].children");
      }
      parent[static_cast<std::size_t>(ch)] = static_cast<int>(i);
    }
  }
  // glTF nodes form a forest; a cycle would make the walks up the hierarchy below endless. One pass:
  // walk up from each node, marking the path, until a root or a node already known to be cycle-free.
  {
    enum : std::uint8_t { kUnseen, kOnPath, kAcyclic };
    std::vector<std::uint8_t> state(m.nodes.size(), kUnseen);
    for (std::size_t i = 0; i < m.nodes.size(); ++i) {
      std::size_t a = i;
      while (state[a] == kUnseen && parent[a] >= 0) {
        state[a] = kOnPath;
        a = static_cast<std::size_t>(parent[a]);
      }
      if (state[a] == kOnPath)
        c.fail("the node hierarchy has a cycle", "nodes[" + std::to_string(a) + "].children");
      for (std::size_t b = i; state[b] == kOnPath; b = static_cast<std::size_t>(parent[b]))
        state[b] = kAcyclic;
      state[a] = kAcyclic;
    }
  }
  return parent;
}

SkinnedMesh read_primitive(const gltf::Document& c, const tinygltf::Primitive& prim, const std::string& pf,
                           std::span<const std::uint16_t> skin_to_joint,
                           std::span<const double> morph_weights) {
  // Points and lines have no surface to draw: no triangles (the importers list them as left out).
  if (!gltf::has_triangles(c, prim, pf)) return {};
  auto attr = [&](const char* name) {
    const auto it = prim.attributes.find(name);
    return it == prim.attributes.end() ? -1 : it->second;
  };
  const int pos = attr("POSITION"), jn = attr("JOINTS_0"), wt = attr("WEIGHTS_0");
  if (pos < 0) c.fail("primitive has no POSITION", pf + ".attributes.POSITION");
  const bool skinned = !skin_to_joint.empty();
  if (skinned && jn < 0) c.fail("skinned primitive has no JOINTS_0", pf + ".attributes.JOINTS_0");
  if (skinned && wt < 0) c.fail("skinned primitive has no WEIGHTS_0", pf + ".attributes.WEIGHTS_0");
  SkinnedMesh sm;
  const std::vector<float> p = read_floats(c, pos, 3, pf + ".attributes.POSITION");
  const std::size_t count = p.size() / 3;
  assign_floats(sm.positions, p);
  if (const int nr = attr("NORMAL"); nr >= 0) {
    const std::vector<float> v = read_floats(c, nr, 3, pf + ".attributes.NORMAL");
    if (v.size() != p.size()) c.fail("attribute count differs from POSITION", pf + ".attributes.NORMAL");
    assign_floats(sm.normals, v);
  }
  gltf::apply_morph_targets(c, prim, morph_weights, sm.positions, sm.normals, pf);
  if (!prim.targets.empty()) {
    std::vector<gltf::MorphTarget> targets = gltf::read_morph_targets(c, prim, count, pf);
    sm.morph_weights.assign(targets.size(), 0.0f);
    for (std::size_t t = 0; t < targets.size() && t < morph_weights.size(); ++t)
      sm.morph_weights[t] = static_cast<float>(morph_weights[t]);  // finite floats: checked when applied
    for (gltf::MorphTarget& t : targets) {
      sm.morph_positions.push_back(std::move(t.positions));
      // Offsets of normals the file does not have would move nothing (normals are made from the faces).
      sm.morph_normals.push_back(sm.normals.empty() ? std::vector<glm::vec3>{} : std::move(t.normals));
    }
  }
  // The UV set the base colour texture reads, through its KHR_texture_transform when it has one.
  const gltf::UvMapping mapping = gltf::base_color(c, prim.material).uv;
  std::string set = "TEXCOORD_" + std::to_string(mapping.set);
  if (attr(set.c_str()) < 0) set = "TEXCOORD_0";  // a set the primitive lacks: its first, if any
  if (const int uv = attr(set.c_str()); uv >= 0) {
    const std::vector<float> v = read_floats(c, uv, 2, pf + ".attributes." + set);
    if (v.size() != 2 * count) c.fail("attribute count differs from POSITION", pf + ".attributes." + set);
    assign_floats(sm.uvs, v);
    for (glm::vec2& t : sm.uvs) t = mapping.apply(t);
  }
  if (const int col = attr("COLOR_0"); col >= 0) {
    // VEC3 or VEC4, float or normalised unsigned byte/short (read_floats normalises): linear RGBA.
    const std::string cf = pf + ".attributes.COLOR_0";
    const View cv = accessor_view(c, col, cf);
    if (cv.components != 3 && cv.components != 4) c.fail("COLOR_0 must be VEC3 or VEC4", cf);
    const std::vector<float> v = read_floats(c, col, cv.components, cf);
    if (v.size() != std::size_t(cv.components) * count) c.fail("attribute count differs from POSITION", cf);
    sm.colors.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const float* e = v.data() + i * std::size_t(cv.components);
      sm.colors[i] = glm::clamp(glm::vec4(e[0], e[1], e[2], cv.components == 4 ? e[3] : 1.0f), 0.0f, 1.0f);
    }
  }
  if (!skinned) {
    // A rigid mesh: every vertex follows one joint fully.
    sm.joints.assign(count, glm::u16vec4(0));
    sm.weights.assign(count, glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
  } else {
    const std::string jf = pf + ".attributes.JOINTS_0";
    const View jv = accessor_view(c, jn, jf);
    if (jv.components != 4 || (jv.component_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
                               jv.component_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT)) {
      c.fail("JOINTS_0 must be VEC4 of unsigned byte or short", jf);
    }
    if (jv.count != count) c.fail("attribute count differs from POSITION", jf);
    const std::vector<float> w = read_floats(c, wt, 4, pf + ".attributes.WEIGHTS_0");
    if (w.size() != 4 * count) c.fail("attribute count differs from POSITION", pf + ".attributes.WEIGHTS_0");
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
  }
  sm.indices = gltf::triangle_indices(c, prim, count, pf);
  if (sm.normals.empty())
    sm.normals = mesh::area_weighted_normals(sm.positions, sm.indices);
  else
    mesh::repair_normals(sm.positions, sm.indices, sm.normals);
  return sm;
}

namespace {

const tinygltf::AnimationSampler& channel_sampler(const gltf::Document& c, const tinygltf::Animation& a,
                                                  const tinygltf::AnimationChannel& ch,
                                                  const std::string& cf) {
  if (ch.sampler < 0 || static_cast<std::size_t>(ch.sampler) >= a.samplers.size())
    c.fail("sampler index out of range", cf + ".sampler");
  return a.samplers[static_cast<std::size_t>(ch.sampler)];
}

Interpolation interpolation(const gltf::Document& c, const tinygltf::AnimationSampler& s,
                            const std::string& sf) {
  if (s.interpolation == "LINEAR" || s.interpolation.empty()) return Interpolation::kLinear;
  if (s.interpolation == "STEP") return Interpolation::kStep;
  if (s.interpolation == "CUBICSPLINE") return Interpolation::kCubicSpline;
  c.fail("unsupported interpolation '" + s.interpolation + "'", sf + ".interpolation",
         "use LINEAR, STEP or CUBICSPLINE");
}

// A "weights" channel: one weight per morph target of the node's mesh per key. A node without a mesh
// or morph targets has nothing to drive: the channel is skipped.
void read_morph_channel(const gltf::Document& c, const tinygltf::Animation& a,
                        const tinygltf::AnimationChannel& ch, const std::string& af, const std::string& cf,
                        Clip& clip) {
  const auto& m = c.model;
  const tinygltf::Node& node = m.nodes[static_cast<std::size_t>(ch.target_node)];
  if (node.mesh < 0 || static_cast<std::size_t>(node.mesh) >= m.meshes.size()) return;
  std::size_t targets = 0;
  for (const tinygltf::Primitive& prim : m.meshes[static_cast<std::size_t>(node.mesh)].primitives)
    targets = std::max(targets, prim.targets.size());
  if (targets == 0) return;
  const tinygltf::AnimationSampler& s = channel_sampler(c, a, ch, cf);
  const std::string sf = af + ".samplers[" + std::to_string(ch.sampler) + "]";
  MorphChannel out;
  out.node = ch.target_node;
  out.interpolation = interpolation(c, s, sf);
  out.targets = static_cast<std::uint32_t>(targets);
  const std::vector<float> times = read_floats(c, s.input, 1, sf + ".input");
  const std::vector<float> weights = read_floats(c, s.output, 1, sf + ".output");
  const std::size_t per_key = (out.interpolation == Interpolation::kCubicSpline ? 3 : 1) * targets;
  if (times.empty()) c.fail("sampler has no keys", sf + ".input");
  if (weights.size() != times.size() * per_key)
    c.fail(
        "output count is not the input count times the mesh's " + std::to_string(targets) + " morph targets",
        sf + ".output");
  for (const float w : weights)
    if (!std::isfinite(w)) c.fail("a morph weight is not finite", sf + ".output");
  out.first_key = static_cast<std::uint32_t>(clip.times.size());
  out.key_count = static_cast<std::uint32_t>(times.size());
  out.first_value = static_cast<std::uint32_t>(clip.morph_values.size());
  clip.times.insert(clip.times.end(), times.begin(), times.end());
  clip.morph_values.insert(clip.morph_values.end(), weights.begin(), weights.end());
  clip.duration = std::max(clip.duration, times.back());
  clip.morph_channels.push_back(out);
}

}  // namespace

Clip read_clip(const gltf::Document& c, std::size_t ai, std::span<const int> node_to_joint,
               std::size_t joint_count) {
  const auto& m = c.model;
  const tinygltf::Animation& a = m.animations[ai];
  const std::string af = "animations[" + std::to_string(ai) + "]";
  Clip clip;
  clip.name = a.name.empty() ? af : a.name;
  for (std::size_t ci = 0; ci < a.channels.size(); ++ci) {
    const tinygltf::AnimationChannel& ch = a.channels[ci];
    const std::string cf = af + ".channels[" + std::to_string(ci) + "]";
    if (ch.target_node < 0 || static_cast<std::size_t>(ch.target_node) >= m.nodes.size())
      c.fail("channel target node out of range", cf + ".target.node");
    if (ch.target_path == "weights") {
      read_morph_channel(c, a, ch, af, cf, clip);
      continue;
    }
    const int joint = node_to_joint[static_cast<std::size_t>(ch.target_node)];
    if (joint < 0) continue;  // non-joint nodes do not pose the skeleton
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
    const tinygltf::AnimationSampler& s = channel_sampler(c, a, ch, cf);
    const std::string sf = af + ".samplers[" + std::to_string(ch.sampler) + "]";
    out_ch.interpolation = interpolation(c, s, sf);
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
    clip.validate(joint_count);
  } catch (const Error& e) {
    c.fail(e.problem(), af + " (" + e.where() + ")");
  }
  return clip;
}

Material read_material(const gltf::Document& c, int gi, std::map<int, int>& image_to_texture,
                       std::vector<Texture>& textures) {
  const auto& m = c.model;
  if (gi < 0) c.fail("material index out of range", "meshes[*].primitives[*].material");
  if (static_cast<std::size_t>(gi) >= m.materials.size())
    c.fail("material index out of range", "meshes[*].primitives[*].material");
  const tinygltf::Material& gm = m.materials[static_cast<std::size_t>(gi)];
  Material mat;
  mat.name = gm.name;
  mat.double_sided = gm.doubleSided;
  if (gm.alphaMode == "MASK" || gm.alphaMode == "BLEND") {
    mat.alpha_mode = gm.alphaMode == "MASK" ? AlphaMode::kMask : AlphaMode::kBlend;
    // Checked as a double: a value past float's range would not survive the conversion.
    const double cutoff = gm.alphaMode == "MASK" ? gm.alphaCutoff : 0.5;
    if (!(cutoff >= 0.0))
      c.fail("alphaCutoff must be a number >= 0", "materials[" + std::to_string(gi) + "].alphaCutoff");
    mat.alpha_cutoff = static_cast<float>(std::min(cutoff, 2.0));  // above 1 every texel is discarded
  } else if (!gm.alphaMode.empty() && gm.alphaMode != "OPAQUE") {
    c.fail("unknown alphaMode '" + gm.alphaMode + "'", "materials[" + std::to_string(gi) + "].alphaMode");
  }
  const gltf::BaseColor base = gltf::base_color(c, gi);
  mat.base_color_factor = base.factor;
  if (base.image < 0) return mat;
  mat.texture_wrap = base.wrap;
  const tinygltf::Image& img = m.images[static_cast<std::size_t>(base.image)];
  // A texture file that is not beside the model (a .gltf copied without its images): the material keeps
  // its base colour and says why; callers warn (or refuse).
  if (gltf::image_file_missing(c, base.image)) {
    mat.texture_problem = "texture image '" + img.uri + "' (images[" + std::to_string(base.image) +
                          "]) was not found next to the model; its base colour is used instead";
    return mat;
  }
  auto [it, inserted] = image_to_texture.try_emplace(base.image, static_cast<int>(textures.size()));
  mat.base_color_texture = it->second;
  if (!inserted) return mat;
  gltf::Rgba8Image pixels = gltf::image_rgba8(c, base.image);
  Texture t;
  t.name = !img.name.empty()  ? img.name
           : !img.uri.empty() ? img.uri
                              : "images[" + std::to_string(base.image) + "]";
  t.width = pixels.width;
  t.height = pixels.height;
  t.rgba8 = std::move(pixels.rgba8);
  textures.push_back(std::move(t));
  return mat;
}

std::vector<glm::mat4> read_inverse_binds(const gltf::Document& c, std::size_t skin) {
  const tinygltf::Skin& s = c.model.skins[skin];
  const std::string field = "skins[" + std::to_string(skin) + "].inverseBindMatrices";
  std::vector<glm::mat4> out(s.joints.size(), glm::mat4(1.0f));
  if (s.inverseBindMatrices < 0) return out;
  const std::vector<float> ibm = read_floats(c, s.inverseBindMatrices, 16, field);
  if (ibm.size() != 16 * s.joints.size()) c.fail("inverse bind count differs from joint count", field);
  for (std::size_t j = 0; j < out.size(); ++j) std::memcpy(glm::value_ptr(out[j]), ibm.data() + 16 * j, 64);
  return out;
}

}  // namespace myriad::anim::detail
