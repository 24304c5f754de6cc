#include "myriad/gltf/primitive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace myriad::gltf {
bool has_triangles(const Document& doc, const tinygltf::Primitive& prim, const std::string& field) {
  const int mode = prim.mode == -1 ? TINYGLTF_MODE_TRIANGLES : prim.mode;
  if (mode < TINYGLTF_MODE_POINTS || mode > TINYGLTF_MODE_TRIANGLE_FAN)
    doc.fail("unknown primitive mode " + std::to_string(mode), field + ".mode");
  return mode >= TINYGLTF_MODE_TRIANGLES;
}

std::vector<std::uint32_t> triangle_indices(const Document& doc, const tinygltf::Primitive& prim,
                                            std::size_t vertex_count, const std::string& field) {
  const int mode = prim.mode == -1 ? TINYGLTF_MODE_TRIANGLES : prim.mode;
  std::vector<std::uint32_t> v;
  if (prim.indices >= 0) {
    const View iv = accessor_view(doc, prim.indices, field + ".indices");
    const int ct = iv.component_type;
    if (iv.components != 1 ||
        (ct != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && ct != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
         ct != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT))
      doc.fail("indices must be unsigned integer scalars", field + ".indices");
    v.resize(iv.count);
    for (std::size_t i = 0; i < iv.count; ++i) {
      v[i] = read_uint(iv, i, 0);
      if (v[i] >= vertex_count)
        doc.fail("index " + std::to_string(v[i]) + " out of range", field + ".indices");
    }
  } else {
    v.resize(vertex_count);
    for (std::size_t i = 0; i < vertex_count; ++i) v[i] = static_cast<std::uint32_t>(i);
  }
  if (mode == TINYGLTF_MODE_TRIANGLES) {
    if (v.size() % 3 != 0) doc.fail("index count is not a multiple of 3", field + ".indices");
    return v;
  }
  std::vector<std::uint32_t> out;
  for (std::size_t i = 2; i < v.size(); ++i) {
    // A strip's odd triangles swap their first two corners so that every triangle faces the same way.
    std::uint32_t a = mode == TINYGLTF_MODE_TRIANGLE_FAN ? v[0] : v[i - 2], b = v[i - 1];
    if (mode == TINYGLTF_MODE_TRIANGLE_STRIP && i % 2 == 1) std::swap(a, b);
    const std::uint32_t c = v[i];
    if (a == b || b == c || a == c) continue;  // strips joined by repeated indices
    out.insert(out.end(), {a, b, c});
  }
  return out;
}

std::vector<double> default_morph_weights(const Document& doc, int node) {
  const auto& m = doc.model;
  if (node < 0 || static_cast<std::size_t>(node) >= m.nodes.size()) return {};
  const tinygltf::Node& n = m.nodes[static_cast<std::size_t>(node)];
  if (!n.weights.empty()) return n.weights;
  if (n.mesh < 0 || static_cast<std::size_t>(n.mesh) >= m.meshes.size()) return {};
  return m.meshes[static_cast<std::size_t>(n.mesh)].weights;
}

void apply_morph_targets(const Document& doc, const tinygltf::Primitive& prim,
                         std::span<const double> weights, std::vector<glm::vec3>& positions,
                         std::vector<glm::vec3>& normals, const std::string& field) {
  bool normals_moved = false;
  for (std::size_t t = 0; t < prim.targets.size() && t < weights.size(); ++t) {
    const std::string tf = field + ".targets[" + std::to_string(t) + "]";
    if (!(std::abs(weights[t]) <= double(std::numeric_limits<float>::max())))
      doc.fail("morph weight " + std::to_string(t) + " is not a finite float", tf);
    const auto w = static_cast<float>(weights[t]);
    if (w == 0.0f) continue;
    const auto add = [&](const char* name, std::vector<glm::vec3>& to) {
      const auto it = prim.targets[t].find(name);
      if (it == prim.targets[t].end() || to.empty()) return false;
      std::vector<glm::vec3> delta;
      assign_floats(delta, read_floats(doc, it->second, 3, tf + "." + name));
      if (delta.size() != to.size())
        doc.fail(std::string(name) + " count differs from the primitive's " + std::to_string(to.size()),
                 tf + "." + name);
      for (std::size_t v = 0; v < to.size(); ++v) to[v] += w * delta[v];
      return true;
    };
    add("POSITION", positions);
    normals_moved |= add("NORMAL", normals);
  }
  // A zero sum stays zero for the normal repair to rebuild from the faces.
  if (normals_moved)
    for (glm::vec3& n : normals)
      if (const float len = glm::length(n); std::isfinite(len) && len > 0.0f) n /= len;
}

std::vector<MorphTarget> read_morph_targets(const Document& doc, const tinygltf::Primitive& prim,
                                            std::size_t vertex_count, const std::string& field) {
  std::vector<MorphTarget> out(prim.targets.size());
  for (std::size_t t = 0; t < prim.targets.size(); ++t) {
    const std::string tf = field + ".targets[" + std::to_string(t) + "]";
    const auto read = [&](const char* name, std::vector<glm::vec3>& to) {
      const auto it = prim.targets[t].find(name);
      if (it == prim.targets[t].end()) return;
      assign_floats(to, read_floats(doc, it->second, 3, tf + "." + name));
      if (to.size() != vertex_count)
        doc.fail(std::string(name) + " count differs from the primitive's " + std::to_string(vertex_count),
                 tf + "." + name);
      for (glm::vec3& d : to)  // a non-finite displacement moves nothing
        if (!std::isfinite(d.x) || !std::isfinite(d.y) || !std::isfinite(d.z)) d = glm::vec3(0.0f);
    };
    read("POSITION", out[t].positions);
    read("NORMAL", out[t].normals);
  }
  return out;
}

}  // namespace myriad::gltf
