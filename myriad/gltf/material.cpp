#include "myriad/gltf/material.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace myriad::gltf {
namespace {

double number_or(const tinygltf::Value& o, const char* key, int index, double fallback) {
  if (!o.Has(key)) return fallback;
  const tinygltf::Value& v = o.Get(key);
  const tinygltf::Value& x =
      index < 0 ? v : (v.IsArray() && v.ArrayLen() > std::size_t(index) ? v.Get(index) : v);
  return x.IsNumber() ? x.GetNumberAsDouble() : fallback;
}

// A JSON number as a float: not finite gives 0, past float's range its largest value (a double that
// large does not convert).
float finite_or_zero(double x) {
  constexpr auto kMax = static_cast<double>(std::numeric_limits<float>::max());
  return std::isfinite(x) ? static_cast<float>(std::clamp(x, -kMax, kMax)) : 0.0f;
}

// A JSON number used as an index or set: `fallback` unless it is a whole number in int's range.
int int_or(const tinygltf::Value& o, const char* key, int fallback) {
  const double x = number_or(o, key, -1, double(fallback));
  return x >= 0.0 && x <= double(std::numeric_limits<int>::max()) && x == std::floor(x) ? static_cast<int>(x)
                                                                                        : fallback;
}

// A texture's UV set and, from its KHR_texture_transform (null: none), the transform that overrides it.
UvMapping uv_mapping(int tex_coord, const tinygltf::Value* transform) {
  UvMapping out;
  out.set = std::max(tex_coord, 0);
  if (transform == nullptr || !transform->IsObject()) return out;
  const tinygltf::Value& t = *transform;
  if (t.Has("texCoord") && t.Get("texCoord").IsInt())
    out.set = std::max(t.Get("texCoord").GetNumberAsInt(), 0);
  const glm::vec2 offset(finite_or_zero(number_or(t, "offset", 0, 0.0)),
                         finite_or_zero(number_or(t, "offset", 1, 0.0)));
  const glm::vec2 scale(finite_or_zero(number_or(t, "scale", 0, 1.0)),
                        finite_or_zero(number_or(t, "scale", 1, 1.0)));
  const float r = finite_or_zero(number_or(t, "rotation", -1, 0.0));
  // Columns of the 3 x 2 matrix T * R * S; R's columns as the extension's GLSL writes them: (cos, sin),
  // (-sin, cos).
  out.uv = glm::mat3x2(glm::vec2(std::cos(r), std::sin(r)) * scale.x,
                       glm::vec2(-std::sin(r), std::cos(r)) * scale.y, offset);
  out.transformed = true;
  return out;
}

// The image of textures[texture] (none for -1); `field` names where the texture is named, for errors.
int texture_image(const Document& doc, int texture, const std::string& field) {
  const auto& m = doc.model;
  if (texture < 0) return -1;
  if (static_cast<std::size_t>(texture) >= m.textures.size()) doc.fail("texture index out of range", field);
  const int source = m.textures[static_cast<std::size_t>(texture)].source;
  if (source < 0 || static_cast<std::size_t>(source) >= m.images.size())
    doc.fail("the texture has no image", "textures[" + std::to_string(texture) + "].source");
  return source;
}

// The sampler's wrap modes of textures[texture] (repeat without a sampler or out of range).
UvWrapModes texture_wrap(const Document& doc, int texture) {
  const auto& m = doc.model;
  if (texture < 0 || static_cast<std::size_t>(texture) >= m.textures.size()) return {};
  const int sampler = m.textures[static_cast<std::size_t>(texture)].sampler;
  if (sampler < 0 || static_cast<std::size_t>(sampler) >= m.samplers.size()) return {};
  const tinygltf::Sampler& s = m.samplers[static_cast<std::size_t>(sampler)];
  return {uv_wrap_from_gltf(s.wrapS), uv_wrap_from_gltf(s.wrapT)};
}

}  // namespace

BaseColor base_color(const Document& doc, int material) {
  BaseColor out;
  if (material < 0 || static_cast<std::size_t>(material) >= doc.model.materials.size()) return out;
  const tinygltf::Material& mat = doc.model.materials[static_cast<std::size_t>(material)];
  const std::string where = "materials[" + std::to_string(material) + "]";
  if (const auto sg = mat.extensions.find("KHR_materials_pbrSpecularGlossiness");
      sg != mat.extensions.end() && sg->second.IsObject()) {
    const tinygltf::Value& e = sg->second;
    for (int k = 0; k < 4; ++k) out.factor[k] = finite_or_zero(number_or(e, "diffuseFactor", k, 1.0));
    if (!e.Has("diffuseTexture") || !e.Get("diffuseTexture").IsObject()) return out;
    const tinygltf::Value& info = e.Get("diffuseTexture");
    out.image = texture_image(doc, int_or(info, "index", -1),
                              where + ".extensions.KHR_materials_pbrSpecularGlossiness.diffuseTexture");
    const tinygltf::Value* transform = nullptr;
    if (info.Has("extensions") && info.Get("extensions").Has("KHR_texture_transform"))
      transform = &info.Get("extensions").Get("KHR_texture_transform");
    out.uv = uv_mapping(int_or(info, "texCoord", 0), transform);
    out.wrap = texture_wrap(doc, int_or(info, "index", -1));
    return out;
  }
  const auto& pbr = mat.pbrMetallicRoughness;
  for (std::size_t k = 0; k < 4 && k < pbr.baseColorFactor.size(); ++k)
    out.factor[static_cast<int>(k)] = finite_or_zero(pbr.baseColorFactor[k]);
  out.image =
      texture_image(doc, pbr.baseColorTexture.index, where + ".pbrMetallicRoughness.baseColorTexture");
  if (out.image < 0) return out;
  const auto it = pbr.baseColorTexture.extensions.find("KHR_texture_transform");
  out.uv = uv_mapping(pbr.baseColorTexture.texCoord,
                      it == pbr.baseColorTexture.extensions.end() ? nullptr : &it->second);
  out.wrap = texture_wrap(doc, pbr.baseColorTexture.index);
  return out;
}

bool image_file_missing(const Document& doc, int image) {
  if (image < 0 || static_cast<std::size_t>(image) >= doc.model.images.size()) return false;
  const tinygltf::Image& img = doc.model.images[static_cast<std::size_t>(image)];
  return img.image.empty() && img.bufferView < 0 && !img.uri.empty() && img.uri.rfind("data:", 0) != 0;
}

Rgba8Image image_rgba8(const Document& doc, int image) {
  const std::string field = "images[" + std::to_string(image) + "]";
  if (image < 0 || static_cast<std::size_t>(image) >= doc.model.images.size())
    doc.fail("image index out of range", field);
  const tinygltf::Image& img = doc.model.images[static_cast<std::size_t>(image)];
  if (img.image.empty() || img.width <= 0 || img.height <= 0)
    doc.fail("the image is missing or could not be decoded", field,
             "keep the image next to the model, or embed it (.glb)");
  const int comps = img.component, bytes = img.bits / 8;
  const std::size_t pixels = std::size_t(img.width) * std::size_t(img.height);
  if (comps < 1 || comps > 4 || (img.bits != 8 && img.bits != 16) ||
      img.image.size() < pixels * std::size_t(comps * bytes))
    doc.fail("the image is not decoded as 1 to 4 channels of 8 or 16 bits (" + std::to_string(img.bits) +
                 " bits, " + std::to_string(comps) + " channels)",
             field);
  Rgba8Image out;
  out.width = static_cast<std::uint32_t>(img.width);
  out.height = static_cast<std::uint32_t>(img.height);
  out.rgba8.resize(pixels * 4);
  for (std::size_t i = 0; i < pixels; ++i) {
    std::uint8_t c[4] = {0, 0, 0, 255};
    for (int k = 0; k < comps; ++k)  // a 16-bit sample: its high byte (decoded little-endian)
      c[k] =
          img.image[(i * std::size_t(comps) + std::size_t(k)) * std::size_t(bytes) + std::size_t(bytes - 1)];
    if (comps <= 2) {  // grey (and alpha)
      c[3] = comps == 2 ? c[1] : 255;
      c[1] = c[2] = c[0];
    }
    std::copy(c, c + 4, &out.rgba8[i * 4]);
  }
  return out;
}

}  // namespace myriad::gltf
