// A glTF 2.0 file read through tinygltf with the checks every importer here needs: only regular files
// are read, embedded and referenced images are checked before they reach the decoder, and accessors are
// read only inside their buffers (offsets, strides and counts are overflow-checked). Errors name the
// file and the glTF field, e.g. "plant.glb: meshes[0].primitives[1].attributes.POSITION".
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <tiny_gltf.h>

namespace myriad::gltf {

struct Document {
  tinygltf::Model model;
  std::string file;  // starts every error's place
  // Sparse accessors made dense by accessor_view, by accessor index (a View points into them while the
  // document lives).
  mutable std::map<int, std::vector<std::uint8_t>> dense;
  // The file uses KHR_mesh_quantization: attributes may be plain (not normalized) integers.
  bool quantized = false;
  [[noreturn]] void fail(const std::string& what, const std::string& field,
                         const std::string& hint = {}) const;
};

// .gltf or .glb (by extension); throws myriad::Error naming the file.
Document load(const std::filesystem::path& path);
// From bytes in memory: `binary` selects GLB; relative external URIs resolve against `base_dir`.
Document load_bytes(std::span<const std::byte> bytes, bool binary, const std::string& file,
                    const std::filesystem::path& base_dir);

// One accessor's elements, bounds-checked against its buffer.
struct View {
  const std::uint8_t* data = nullptr;
  std::size_t count = 0;
  std::size_t stride = 0;
  int component_type = 0;
  int components = 0;
  bool normalized = false;
};

View accessor_view(const Document& doc, int index, const std::string& field);
// Component k of element i as a float (normalized integers mapped to [0, 1] or [-1, 1]).
float read_component(const View& v, std::size_t i, int k);
// Component k of element i of an unsigned integer accessor (0 for other types).
std::uint32_t read_uint(const View& v, std::size_t i, int k);
// count x comps floats; the accessor must have exactly `comps` components, float or normalized (or, in
// a file using KHR_mesh_quantization, plain 8- or 16-bit integers).
std::vector<float> read_floats(const Document& doc, int index, int comps, const std::string& field);

// Fills `out` (glm vectors of floats) from packed floats. memcpy wants valid pointers even for zero
// bytes, and an accessor with count 0 gives empty vectors whose data() is null.
template <class Vec>
void assign_floats(std::vector<Vec>& out, const std::vector<float>& in) {
  out.resize(in.size() * sizeof(float) / sizeof(Vec));
  if (!in.empty()) std::memcpy(out.data(), in.data(), out.size() * sizeof(Vec));
}

// A node's local transform (its matrix, or translation * rotation * scale).
void node_trs(const tinygltf::Node& n, glm::vec3& t, glm::quat& r, glm::vec3& s);
glm::mat4 node_matrix(const tinygltf::Node& n);

}  // namespace myriad::gltf
