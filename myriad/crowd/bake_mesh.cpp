#include "myriad/crowd/bake_mesh.hpp"

#include "myriad/core/io/error.hpp"

#include <string>

namespace myriad::crowd {

namespace {
void require_per_vertex(std::size_t size, std::size_t vertices, const char* array, const char* what) {
  if (size != vertices) {
    throw Error(std::string(what) + ": " + array + " has " + std::to_string(size) + " entries for " +
                std::to_string(vertices) + " vertices");
  }
}
}  // namespace

void validate(const BakeMesh& mesh, std::size_t material_count, const char* what) {
  const std::size_t n = mesh.vertex_count();
  if (n == 0 || mesh.indices.empty()) throw Error(std::string(what) + ": empty mesh (no triangles)");
  if (mesh.indices.size() % 3 != 0) {
    throw Error(std::string(what) + ": index count " + std::to_string(mesh.indices.size()) +
                " is not a multiple of 3");
  }
  require_per_vertex(mesh.normals.size(), n, "normals", what);
  if (!mesh.uvs.empty()) require_per_vertex(mesh.uvs.size(), n, "uvs", what);
  require_per_vertex(mesh.joints.size(), n, "joints", what);
  require_per_vertex(mesh.weights.size(), n, "weights", what);
  if (mesh.triangle_material.size() != mesh.triangle_count()) {
    throw Error(std::string(what) + ": triangle_material has " +
                std::to_string(mesh.triangle_material.size()) + " entries for " +
                std::to_string(mesh.triangle_count()) + " triangles");
  }
  for (std::size_t i = 0; i < mesh.indices.size(); ++i) {
    if (mesh.indices[i] >= n) {
      throw Error(std::string(what) + ": indices[" + std::to_string(i) + "] = " +
                  std::to_string(mesh.indices[i]) + " is out of range (" + std::to_string(n) + " vertices)");
    }
  }
  for (std::size_t t = 0; t < mesh.triangle_material.size(); ++t) {
    if (mesh.triangle_material[t] >= material_count) {
      throw Error(std::string(what) + ": triangle_material[" + std::to_string(t) +
                  "] = " + std::to_string(mesh.triangle_material[t]) + " but the model has " +
                  std::to_string(material_count) + " materials");
    }
  }
}

}  // namespace myriad::crowd
