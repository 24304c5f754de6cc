#include "myriad/gltf/primitive.hpp"

#include <algorithm>
#include <cmath>

namespace myriad::gltf {
namespace {

double number_or(const tinygltf::Value& o, const char* key, int index, double fallback) {
  if (!o.Has(key)) return fallback;
  const tinygltf::Value& v = o.Get(key);
  const tinygltf::Value& x =
      index < 0 ? v : (v.IsArray() && v.ArrayLen() > std::size_t(index) ? v.Get(index) : v);
  return x.IsNumber() ? x.GetNumberAsDouble() : fallback;
}

}  // namespace

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

UvMapping base_color_uv(const Document& doc, int material) {
  UvMapping out;
  if (material < 0 || static_cast<std::size_t>(material) >= doc.model.materials.size()) return out;
  const tinygltf::TextureInfo& info =
      doc.model.materials[static_cast<std::size_t>(material)].pbrMetallicRoughness.baseColorTexture;
  if (info.index < 0) return out;
  out.set = std::max(info.texCoord, 0);
  const auto it = info.extensions.find("KHR_texture_transform");
  if (it == info.extensions.end() || !it->second.IsObject()) return out;
  const tinygltf::Value& t = it->second;
  if (t.Has("texCoord") && t.Get("texCoord").IsInt())
    out.set = std::max(t.Get("texCoord").GetNumberAsInt(), 0);
  const auto f = [](double x) { return std::isfinite(x) ? static_cast<float>(x) : 0.0f; };
  const glm::vec2 offset(f(number_or(t, "offset", 0, 0.0)), f(number_or(t, "offset", 1, 0.0)));
  const glm::vec2 scale(f(number_or(t, "scale", 0, 1.0)), f(number_or(t, "scale", 1, 1.0)));
  const float r = f(number_or(t, "rotation", -1, 0.0));
  // Columns of the 3 x 2 matrix T * R * S; R's columns as the extension's GLSL writes them: (cos, sin),
  // (-sin, cos).
  out.uv = glm::mat3x2(glm::vec2(std::cos(r), std::sin(r)) * scale.x,
                       glm::vec2(-std::sin(r), std::cos(r)) * scale.y, offset);
  out.transformed = true;
  return out;
}

}  // namespace myriad::gltf
