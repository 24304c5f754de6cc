#include "myriad/crowd_bake/import/import.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/mesh/vertex_normals.hpp"

#include <array>
#include <cmath>
#include <map>
#include <set>

namespace myriad::crowd {
namespace {

bool finite(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Edges are keyed by their two corner positions, so UV and normal seams do not count as borders.
void count_topology(BakeSource& s) {
  const BakeMesh& m = s.mesh;
  using Corner = std::array<float, 3>;
  std::map<std::pair<Corner, Corner>, int> uses;
  for (std::size_t t = 0; t < m.triangle_count(); ++t) {
    const glm::vec3 p[3] = {m.positions[m.indices[3 * t]], m.positions[m.indices[3 * t + 1]],
                            m.positions[m.indices[3 * t + 2]]};
    if (glm::length(glm::cross(p[1] - p[0], p[2] - p[0])) == 0.0f) ++s.degenerate_triangles;
    for (int e = 0; e < 3; ++e) {
      Corner a{p[e].x, p[e].y, p[e].z}, b{p[(e + 1) % 3].x, p[(e + 1) % 3].y, p[(e + 1) % 3].z};
      if (b < a) std::swap(a, b);
      ++uses[{a, b}];
    }
  }
  for (const auto& [edge, n] : uses) s.non_manifold_edges += n > 2 ? 1 : 0;
}

// The morph targets clips animate, with each vertex's offsets, and keys grouping equal offset lists.
void gather_morphs(const anim::ImportedModel& model, BakeSource& out) {
  std::set<int> animated;
  for (const anim::Clip& clip : model.clips)
    for (const anim::MorphChannel& ch : clip.morph_channels) animated.insert(ch.node);
  if (animated.empty()) return;
  VertexMorphs& morphs = out.morphs;
  std::map<std::pair<int, std::uint32_t>, std::uint32_t> target_of;  // (node, index) -> target
  morphs.first.push_back(0);
  for (const anim::SkinnedMesh& sm : model.meshes) {
    const std::size_t n = sm.positions.size();
    if (n == 0 || sm.indices.empty()) continue;  // as the mesh loop: adds no vertex
    const bool driven = animated.count(sm.morph_node) > 0;
    for (std::size_t v = 0; v < n; ++v) {
      for (std::size_t t = 0; driven && t < sm.morph_positions.size(); ++t) {
        const glm::vec3 dp = sm.morph_positions[t].size() == n ? sm.morph_positions[t][v] : glm::vec3(0.0f);
        const glm::vec3 dn = t < sm.morph_normals.size() && sm.morph_normals[t].size() == n
                                 ? sm.morph_normals[t][v]
                                 : glm::vec3(0.0f);
        if (dp == glm::vec3(0.0f) && dn == glm::vec3(0.0f)) continue;
        const auto [it, inserted] = target_of.try_emplace({sm.morph_node, static_cast<std::uint32_t>(t)},
                                                          static_cast<std::uint32_t>(morphs.targets.size()));
        if (inserted) {
          const float bind = t < sm.morph_weights.size() ? sm.morph_weights[t] : 0.0f;
          morphs.targets.push_back({sm.morph_node, static_cast<std::uint32_t>(t), bind});
        }
        morphs.offsets.push_back({it->second, dp, dn});
      }
      morphs.first.push_back(static_cast<std::uint32_t>(morphs.offsets.size()));
    }
  }
  if (morphs.offsets.empty()) {
    morphs = {};
    return;
  }
  std::map<std::vector<float>, std::uint32_t> key_of;
  out.morph_key.reserve(morphs.first.size() - 1);
  for (std::size_t v = 0; v + 1 < morphs.first.size(); ++v) {
    std::vector<float> list;
    for (const MorphOffset& o : morphs.of(v)) {
      list.push_back(static_cast<float>(o.target));
      for (int k = 0; k < 3; ++k) list.push_back(o.position[k]);
      for (int k = 0; k < 3; ++k) list.push_back(o.normal[k]);
    }
    out.morph_key.push_back(
        list.empty() ? 0u
                     : key_of.try_emplace(list, static_cast<std::uint32_t>(key_of.size() + 1)).first->second);
  }
}

}  // namespace

BakeSource import_for_bake(const anim::ImportedModel& model, const std::string& name) {
  // The palette (joints, inverse_binds) may repeat a joint with other inverse binds (several skins).
  if (model.skeleton.size() == 0 || model.joints.empty() ||
      model.inverse_binds.size() != model.joints.size()) {
    throw Error("model has no skin (no skeleton to animate)", name, "export the model with its armature");
  }
  if (model.clips.empty()) {
    throw Error("model has no animation clip", name, "export at least one animation with the model");
  }
  for (const anim::Clip& clip : model.clips) {
    if (!(clip.duration >= 0.0f) || !std::isfinite(clip.duration)) {
      throw Error("clip '" + clip.name + "' has an invalid duration", name);
    }
  }
  BakeSource out;
  for (const anim::Material& m : model.materials) {
    if (m.base_color_texture >= static_cast<int>(model.textures.size())) {
      throw Error("material '" + m.name + "' names a missing texture", name);
    }
    out.materials.push_back(
        {m.name, m.base_color_factor, m.base_color_texture, m.double_sided, m.texture_wrap});
  }
  int default_material = -1;
  BakeMesh& mesh = out.mesh;
  for (std::size_t mi = 0; mi < model.meshes.size(); ++mi) {
    const anim::SkinnedMesh& sm = model.meshes[mi];
    const std::string where = name + ": meshes[" + std::to_string(mi) + "] '" + sm.name + "'";
    const std::size_t n = sm.positions.size();
    if (n == 0 || sm.indices.empty()) continue;  // an empty primitive adds nothing
    if (sm.joints.size() != n || sm.weights.size() != n) throw Error("skin arrays differ in size", where);
    if ((!sm.normals.empty() && sm.normals.size() != n) || (!sm.uvs.empty() && sm.uvs.size() != n)) {
      throw Error("attribute arrays differ in size", where);
    }
    int material = sm.material;
    if (material < 0 || material >= static_cast<int>(out.materials.size())) {
      if (default_material < 0) {
        default_material = static_cast<int>(out.materials.size());
        out.materials.push_back({"default", glm::vec4(1.0f), -1, false});
      }
      material = default_material;
    }
    if (out.materials.size() > 65535) throw Error("too many materials", where);
    const std::vector<glm::vec3> normals =
        sm.normals.empty() ? myriad::mesh::area_weighted_normals(sm.positions, sm.indices) : sm.normals;
    const auto base = static_cast<std::uint32_t>(mesh.positions.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!finite(sm.positions[i]))
        throw Error("vertex " + std::to_string(i) + " has a non-finite position", where);
      glm::vec3 nrm = normals[i];
      const float len = glm::length(nrm);
      if (!std::isfinite(len) || len == 0.0f) {
        throw Error("vertex " + std::to_string(i) + " has a zero or non-finite normal", where);
      }
      for (int k = 0; k < 4; ++k) {
        if (sm.joints[i][k] >= model.joints.size()) {
          throw Error("vertex " + std::to_string(i) + " names a joint outside the skeleton", where);
        }
      }
      mesh.positions.push_back(sm.positions[i]);
      mesh.normals.push_back(nrm / len);
      mesh.uvs.push_back(sm.uvs.empty() ? glm::vec2(0.0f) : sm.uvs[i]);
      mesh.joints.push_back(sm.joints[i]);
      mesh.weights.push_back(sm.weights[i]);
    }
    if (sm.indices.size() % 3 != 0) throw Error("index count is not a multiple of 3", where);
    for (std::uint32_t index : sm.indices) {
      if (index >= n) throw Error("index " + std::to_string(index) + " out of range", where);
      mesh.indices.push_back(base + index);
    }
    mesh.triangle_material.insert(mesh.triangle_material.end(), sm.indices.size() / 3,
                                  static_cast<std::uint16_t>(material));
  }
  if (mesh.indices.empty()) throw Error("model has no triangles in its skinned meshes", name);
  validate(mesh, out.materials.size(), name.c_str());
  count_topology(out);
  if (out.degenerate_triangles == mesh.triangle_count()) {
    throw Error("every triangle has zero area: the model has no surface to bake", name);
  }
  out.textures = model.textures;
  gather_morphs(model, out);
  if (!out.morphs.empty() && out.morphs.first.size() != mesh.vertex_count() + 1)
    throw Error("morph offsets and vertices differ in count", name);
  return out;
}

}  // namespace myriad::crowd
