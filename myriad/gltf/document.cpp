// Loading with checked file and image callbacks, and bounded accessor reads.
#include "myriad/gltf/document.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <iterator>

#include <nlohmann/json.hpp>

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/gltf/image_check.hpp"

namespace myriad::gltf {
namespace {

// tinygltf reads a buffer or image URI naming a folder as a file of absurd size (bad_alloc): only
// regular files are read.
bool read_regular_file(std::vector<unsigned char>* out, std::string* err, const std::string& name,
                       void* user) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(name, ec)) {
    if (err) *err += "not a regular file: " + name + "\n";
    return false;
  }
  return tinygltf::ReadWholeFile(out, err, name, user);
}

// tinygltf 2.7 hands an image's bufferView bytes to the image loader without checking that the view
// lies inside its buffer, so a crafted file made the PNG/JPEG decoder read past the buffer. Buffers and
// views are parsed before images (tinygltf has checked the indices), so the view can be checked here,
// before anything reads `bytes`; then tinygltf's own loader decodes as before.
bool load_image_checked(tinygltf::Image* image, const int index, std::string* err, std::string* warn,
                        int req_width, int req_height, const unsigned char* bytes, int size, void* model) {
  if (image->bufferView >= 0) {
    const auto& m = *static_cast<const tinygltf::Model*>(model);
    const tinygltf::BufferView& bv = m.bufferViews[static_cast<std::size_t>(image->bufferView)];
    const std::size_t buffer_size = m.buffers[static_cast<std::size_t>(bv.buffer)].data.size();
    if (bv.byteOffset > buffer_size || bv.byteLength > buffer_size - bv.byteOffset ||
        bv.byteLength > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      if (err) *err += "images[" + std::to_string(index) + "]: its bufferView lies outside its buffer\n";
      return false;
    }
  }
  // The decoder trusts the sizes the image states: check them against the bytes first.
  if (bytes && size > 0) {
    const std::string problem = image_bytes_problem(std::span(bytes, static_cast<std::size_t>(size)));
    if (!problem.empty()) {
      if (err) *err += "images[" + std::to_string(index) + "]: " + problem + "\n";
      return false;
    }
  }
  return tinygltf::LoadImageData(image, index, err, warn, req_width, req_height, bytes, size, nullptr);
}

// The extensions a file may require that Myriad reads.
constexpr const char* kReadExtensions[] = {"KHR_mesh_quantization", "KHR_texture_transform",
                                           "KHR_materials_pbrSpecularGlossiness"};

// A file requiring an extension Myriad does not read (Draco or meshopt compression, KTX2 textures) would
// otherwise fail later with a puzzling message, or load wrong: name them.
void check_required_extensions(const std::vector<std::string>& required, const std::string& file) {
  std::string unread;
  for (const std::string& e : required) {
    if (std::find(std::begin(kReadExtensions), std::end(kReadExtensions), e) == std::end(kReadExtensions))
      unread += (unread.empty() ? "" : ", ") + e;
  }
  if (!unread.empty())
    throw Error("the file requires glTF extensions Myriad does not read: " + unread, file,
                "export it again without them (e.g. without Draco or meshopt compression)");
}

// The extensionsRequired of a file tinygltf could not load (read from its JSON alone); empty when the
// JSON cannot be read either.
std::vector<std::string> sniff_required_extensions(std::span<const std::byte> bytes, bool binary) {
  const auto* text = reinterpret_cast<const char*>(bytes.data());
  std::size_t size = bytes.size();
  if (binary) {
    std::uint32_t length = 0, type = 0;
    if (size < 20 || std::memcmp(text, "glTF", 4) != 0) return {};
    std::memcpy(&length, text + 12, 4);
    std::memcpy(&type, text + 16, 4);
    if (type != 0x4E4F534Au || length > size - 20) return {};
    text += 20;
    size = length;
  }
  const nlohmann::json j = nlohmann::json::parse(text, text + size, nullptr, false);
  std::vector<std::string> out;
  if (!j.is_object() || !j.contains("extensionsRequired") || !j["extensionsRequired"].is_array()) return out;
  for (const auto& e : j["extensionsRequired"])
    if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

}  // namespace

void Document::fail(const std::string& what, const std::string& field, const std::string& hint) const {
  throw Error(what, file + ": " + field, hint);
}

Document load(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw Error("glTF file not found", path.string(), "check the path");
  const bool binary = path.extension() == ".glb" || path.extension() == ".GLB";
  return load_bytes(read_file(path), binary, path.string(), path.parent_path());
}

Document load_bytes(std::span<const std::byte> bytes, bool binary, const std::string& file,
                    const std::filesystem::path& base_dir) {
  // tinygltf takes the length as an unsigned int.
  if (bytes.size() > std::numeric_limits<unsigned>::max())
    throw Error("glTF file is larger than 4 GiB", file);
  tinygltf::TinyGLTF loader;
  loader.SetFsCallbacks({&tinygltf::FileExists, &tinygltf::ExpandFilePath, &read_regular_file,
                         &tinygltf::WriteWholeFile, nullptr});
  Document doc;
  doc.file = file;
  tinygltf::Model& model = doc.model;
  loader.SetImageLoader(load_image_checked, &model);
  std::string err, warn;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto size = static_cast<unsigned>(bytes.size());
  const std::string base = base_dir.string();
  const bool ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, data, size, base)
                         : loader.LoadASCIIFromString(&model, &err, &warn,
                                                      reinterpret_cast<const char*>(data), size, base);
  if (!ok) {
    check_required_extensions(sniff_required_extensions(bytes, binary), file);
    // tinygltf ends each of its messages with a newline: one line, messages joined by "; ".
    std::string message;
    for (std::size_t begin = 0; begin < err.size();) {
      const std::size_t end = std::min(err.find('\n', begin), err.size());
      if (end > begin) message += (message.empty() ? "" : "; ") + err.substr(begin, end - begin);
      begin = end + 1;
    }
    throw Error("glTF parse failed: " + (message.empty() ? std::string("unknown error") : message), file,
                "is it a valid glTF 2.0 file?");
  }
  check_required_extensions(model.extensionsRequired, file);
  doc.quantized = std::find(model.extensionsUsed.begin(), model.extensionsUsed.end(),
                            "KHR_mesh_quantization") != model.extensionsUsed.end();
  return doc;
}

namespace {

// `count` elements of `elem` bytes, `stride` apart, at `offset` in bufferViews[view]: where they start,
// after checking that they lie inside the view and its buffer. Offsets, stride and count all come from
// the file: a sum or product that wrapped around would pass the bounds test and read far outside the
// buffer, so every step is overflow-checked.
const std::uint8_t* view_bytes(const Document& c, int view, std::size_t offset, std::size_t stride,
                               std::size_t count, std::size_t elem, const std::string& af) {
  const auto& m = c.model;
  if (view < 0 || static_cast<std::size_t>(view) >= m.bufferViews.size())
    c.fail("accessor has no valid bufferView", af);
  const tinygltf::BufferView& bv = m.bufferViews[static_cast<std::size_t>(view)];
  if (bv.buffer < 0 || static_cast<std::size_t>(bv.buffer) >= m.buffers.size())
    c.fail("bufferView has no valid buffer", af);
  const tinygltf::Buffer& buf = m.buffers[static_cast<std::size_t>(bv.buffer)];
  if (count == 0) return buf.data.data();
  std::size_t begin = 0, end = 0, view_end = 0;
  const bool wraps = __builtin_add_overflow(bv.byteOffset, offset, &begin) ||
                     __builtin_add_overflow(bv.byteOffset, bv.byteLength, &view_end) ||
                     __builtin_mul_overflow(stride, count - 1, &end) ||
                     __builtin_add_overflow(end, begin, &end) || __builtin_add_overflow(end, elem, &end);
  if (wraps || end > buf.data.size() || end > view_end) {
    c.fail("accessor reads past the end of its buffer", af, "the file is truncated or corrupt");
  }
  return buf.data.data() + begin;
}

}  // namespace

View accessor_view(const Document& c, int index, const std::string& field) {
  const auto& m = c.model;
  if (index < 0 || static_cast<std::size_t>(index) >= m.accessors.size())
    c.fail("accessor index out of range", field);
  const tinygltf::Accessor& a = m.accessors[static_cast<std::size_t>(index)];
  const std::string af = field + " (accessors[" + std::to_string(index) + "])";
  View v;
  v.components = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  const int csize = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(a.componentType));
  if (v.components <= 0 || csize <= 0) c.fail("accessor has an unknown type or componentType", af);
  const std::size_t elem = static_cast<std::size_t>(v.components) * static_cast<std::size_t>(csize);
  const bool has_view = a.bufferView >= 0 && static_cast<std::size_t>(a.bufferView) < m.bufferViews.size();
  const std::size_t view_stride =
      has_view ? m.bufferViews[static_cast<std::size_t>(a.bufferView)].byteStride : 0;
  v.stride = view_stride != 0 ? view_stride : elem;
  v.count = a.count;
  v.component_type = a.componentType;
  v.normalized = a.normalized;
  if (!a.sparse.isSparse) {
    v.data = view_bytes(c, a.bufferView, a.byteOffset, v.stride, v.count, elem, af);
    return v;
  }
  // A sparse accessor: its base elements (zeros without a bufferView) with `count` of them replaced,
  // made dense once (on its first read) in memory the document keeps.
  const std::size_t base_stride = v.stride;
  v.stride = elem;
  if (const auto it = c.dense.find(index); it != c.dense.end()) {
    v.data = it->second.data();
    return v;
  }
  const auto& sp = a.sparse;
  if (sp.count < 1 || static_cast<std::size_t>(sp.count) > v.count)
    c.fail("sparse count must be within 1.." + std::to_string(v.count), af + ".sparse.count");
  std::size_t dense_bytes = 0;
  // Without a base view nothing in the file bounds the size: 256 MiB is far above any real mesh's.
  if (__builtin_mul_overflow(elem, v.count, &dense_bytes) || dense_bytes > (std::size_t(1) << 28))
    c.fail("sparse accessor is too large", af);
  std::vector<std::uint8_t> dense(dense_bytes, std::uint8_t(0));
  if (a.bufferView >= 0) {
    const std::uint8_t* base = view_bytes(c, a.bufferView, a.byteOffset, base_stride, v.count, elem, af);
    for (std::size_t e = 0; e < v.count; ++e)
      std::memcpy(dense.data() + e * elem, base + e * base_stride, elem);
  }
  const auto n = static_cast<std::size_t>(sp.count);
  View indices;
  indices.component_type = sp.indices.componentType;
  indices.components = 1;
  const int isize = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(sp.indices.componentType));
  if (sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
      sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
      sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    c.fail("sparse indices must be unsigned integers", af + ".sparse.indices");
  indices.stride = static_cast<std::size_t>(isize);
  indices.count = n;
  indices.data =
      view_bytes(c, sp.indices.bufferView, static_cast<std::size_t>(std::max(sp.indices.byteOffset, 0)),
                 indices.stride, n, indices.stride, af + ".sparse.indices");
  const std::uint8_t* values =
      view_bytes(c, sp.values.bufferView, static_cast<std::size_t>(std::max(sp.values.byteOffset, 0)), elem,
                 n, elem, af + ".sparse.values");
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t at = read_uint(indices, k, 0);
    if (at >= v.count)
      c.fail("sparse index " + std::to_string(at) + " is out of range", af + ".sparse.indices");
    std::memcpy(dense.data() + std::size_t(at) * elem, values + k * elem, elem);
  }
  v.data = c.dense.emplace(index, std::move(dense)).first->second.data();
  return v;
}

float read_component(const View& v, std::size_t i, int k) {
  const std::uint8_t* p = v.data + i * v.stride;
  switch (v.component_type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      float f;
      std::memcpy(&f, p + 4 * k, 4);
      return f;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: {
      const float x = static_cast<float>(p[k]);
      return v.normalized ? x / 255.0f : x;
    }
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      const float x = static_cast<float>(static_cast<std::int8_t>(p[k]));
      return v.normalized ? std::max(x / 127.0f, -1.0f) : x;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      std::uint16_t s;
      std::memcpy(&s, p + 2 * k, 2);
      return v.normalized ? static_cast<float>(s) / 65535.0f : static_cast<float>(s);
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      std::int16_t s;
      std::memcpy(&s, p + 2 * k, 2);
      return v.normalized ? std::max(static_cast<float>(s) / 32767.0f, -1.0f) : static_cast<float>(s);
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
      std::uint32_t u;
      std::memcpy(&u, p + 4 * k, 4);
      return static_cast<float>(u);
    }
    default:
      return 0.0f;
  }
}

std::uint32_t read_uint(const View& v, std::size_t i, int k) {
  const std::uint8_t* p = v.data + i * v.stride;
  switch (v.component_type) {
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return p[k];
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      std::uint16_t s;
      std::memcpy(&s, p + 2 * k, 2);
      return s;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
      std::uint32_t u;
      std::memcpy(&u, p + 4 * k, 4);
      return u;
    }
    default:
      return 0;
  }
}

// Reads `count` x `comps` floats, checking the accessor has exactly `comps` components.
std::vector<float> read_floats(const Document& c, int index, int comps, const std::string& field) {
  const View v = accessor_view(c, index, field);
  if (v.components != comps) {
    c.fail("accessor has " + std::to_string(v.components) + " components, expected " + std::to_string(comps),
           field);
  }
  if (v.component_type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT ||
      (v.component_type != TINYGLTF_COMPONENT_TYPE_FLOAT && !v.normalized && !c.quantized)) {
    c.fail("accessor must be float or normalized integer", field,
           "plain integers need the file to use KHR_mesh_quantization");
  }
  std::vector<float> out(v.count * static_cast<std::size_t>(comps));
  for (std::size_t i = 0; i < v.count; ++i) {
    for (int k = 0; k < comps; ++k)
      out[i * static_cast<std::size_t>(comps) + static_cast<std::size_t>(k)] = read_component(v, i, k);
  }
  return out;
}

void node_trs(const tinygltf::Node& n, glm::vec3& t, glm::quat& r, glm::vec3& s) {
  t = glm::vec3(0.0f);
  r = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  s = glm::vec3(1.0f);
  if (n.matrix.size() == 16) {
    glm::mat4 m;
    for (int i = 0; i < 16; ++i)
      glm::value_ptr(m)[i] = static_cast<float>(n.matrix[static_cast<std::size_t>(i)]);
    glm::vec3 skew;
    glm::vec4 persp;
    glm::decompose(m, s, r, t, skew, persp);
    return;
  }
  if (n.translation.size() == 3) {
    t = glm::vec3(static_cast<float>(n.translation[0]), static_cast<float>(n.translation[1]),
                  static_cast<float>(n.translation[2]));
  }
  if (n.rotation.size() == 4) {
    r = glm::quat(static_cast<float>(n.rotation[3]), static_cast<float>(n.rotation[0]),
                  static_cast<float>(n.rotation[1]), static_cast<float>(n.rotation[2]));
  }
  if (n.scale.size() == 3) {
    s = glm::vec3(static_cast<float>(n.scale[0]), static_cast<float>(n.scale[1]),
                  static_cast<float>(n.scale[2]));
  }
}

glm::mat4 node_matrix(const tinygltf::Node& n) {
  glm::vec3 t, s;
  glm::quat r;
  node_trs(n, t, r, s);
  return glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(r) * glm::scale(glm::mat4(1.0f), s);
}

}  // namespace myriad::gltf
