// Reads back what `myriad export` wrote (tinygltf through myriad::gltf) and compares it with the source:
//   check_export voxel <file.gltf|.glb> <seed> <x> <y> <z>   the mesher's per-section counts
//   check_export crowd <file.gltf|.glb> <file.crowd>          the .crowd's LOD counts and textures
// Prints what differs and exits 1; exits 0 when everything matches.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "myriad/gltf/document.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#ifdef CHECK_EXPORT_CROWD
#include "myriad/crowd/crowd_file.hpp"
#endif

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "check_export: %s\n", what.c_str());
  ++failures;
}

std::size_t attribute_count(const myriad::gltf::Document& doc, const tinygltf::Primitive& p,
                            const char* name) {
  const auto it = p.attributes.find(name);
  if (it == p.attributes.end()) return 0;
  return myriad::gltf::accessor_view(doc, it->second, name).count;
}

int check_voxel(const char* file, std::uint64_t seed, glm::ivec3 size) {
  namespace voxel = myriad::voxel;
  const myriad::gltf::Document doc = myriad::gltf::load(file);
  voxel::GeneratorParams params;
  params.seed = seed;
  voxel::World world = voxel::generate_world(size, params);
  voxel::compute_light(world);
  voxel::WorldMesher mesher;
  std::vector<voxel::SectionMesh> meshes;
  voxel::MeshOptions options;
  options.mode = voxel::MeshMode::kUnmerged;
  mesher.mesh_all(world, options, meshes);
  std::map<std::string, const voxel::SectionMesh*> by_name;
  std::size_t vertices = 0, triangles = 0;
  for (int s = 0; s < world.section_count(); ++s) {
    const voxel::SectionMesh& m = meshes[std::size_t(s)];
    if (m.indices.empty()) continue;
    const glm::ivec3 c = world.section_coord(s);
    by_name["section_" + std::to_string(c.x) + "_" + std::to_string(c.y) + "_" + std::to_string(c.z)] = &m;
    vertices += m.vertices.size();
    triangles += m.indices.size() / 3;
  }
  const tinygltf::Model& model = doc.model;
  expect(model.nodes.size() == by_name.size(), "nodes: " + std::to_string(model.nodes.size()) +
                                                   ", non-empty sections: " + std::to_string(by_name.size()));
  std::size_t file_vertices = 0, file_triangles = 0;
  for (const tinygltf::Node& node : model.nodes) {
    const auto it = by_name.find(node.name);
    expect(it != by_name.end(), "node '" + node.name + "' names no non-empty section");
    if (it == by_name.end() || node.mesh < 0) continue;
    const tinygltf::Mesh& mesh = model.meshes[std::size_t(node.mesh)];
    expect(mesh.primitives.size() == 1, node.name + ": one primitive expected");
    for (const tinygltf::Primitive& p : mesh.primitives) {
      const std::size_t n = attribute_count(doc, p, "POSITION");
      expect(n == it->second->vertices.size(), node.name + ": " + std::to_string(n) +
                                                   " vertices, the mesher " +
                                                   std::to_string(it->second->vertices.size()));
      expect(attribute_count(doc, p, "NORMAL") == n, node.name + ": NORMAL count");
      expect(attribute_count(doc, p, "COLOR_0") == n, node.name + ": COLOR_0 count");
      const std::size_t tris = myriad::gltf::accessor_view(doc, p.indices, "indices").count / 3;
      expect(tris * 3 == it->second->indices.size(), node.name + ": triangle count");
      for (const float c : myriad::gltf::read_floats(doc, p.attributes.at("COLOR_0"), 3, "COLOR_0"))
        if (!(c >= 0.0f && c <= 1.0f)) {
          expect(false, node.name + ": colour component outside [0, 1]");
          break;
        }
      file_vertices += n;
      file_triangles += tris;
    }
  }
  expect(file_vertices == vertices && file_triangles == triangles,
         "totals: " + std::to_string(file_vertices) + " vertices, " + std::to_string(file_triangles) +
             " triangles; the mesher: " + std::to_string(vertices) + ", " + std::to_string(triangles));
  std::printf("%s: %zu sections, %zu vertices, %zu triangles (mesher: %zu, %zu)\n", file, model.nodes.size(),
              file_vertices, file_triangles, vertices, triangles);
  return failures ? 1 : 0;
}

#ifdef CHECK_EXPORT_CROWD
int check_crowd(const char* file, const char* crowd_path) {
  const myriad::gltf::Document doc = myriad::gltf::load(file);
  const myriad::crowd::CrowdFile crowd = myriad::crowd::read_crowd(crowd_path);
  const tinygltf::Model& model = doc.model;
  expect(model.nodes.size() == crowd.lods.size(), "one node per LOD expected");
  for (std::size_t l = 0; l < crowd.lods.size() && l < model.nodes.size(); ++l) {
    const tinygltf::Node& node = model.nodes[l];
    const myriad::crowd::CrowdLod& lod = crowd.lods[l];
    const std::string name = "lod" + std::to_string(l);
    expect(node.name == name, "node " + std::to_string(l) + " is named '" + node.name + "', not " + name);
    if (node.mesh < 0) continue;
    std::size_t triangles = 0;
    for (const tinygltf::Primitive& p : model.meshes[std::size_t(node.mesh)].primitives) {
      const std::size_t n = attribute_count(doc, p, "POSITION");
      expect(n == lod.vertex_count(),
             name + ": " + std::to_string(n) + " vertices, the .crowd " + std::to_string(lod.vertex_count()));
      expect(attribute_count(doc, p, "NORMAL") == n && attribute_count(doc, p, "TEXCOORD_0") == n,
             name + ": NORMAL / TEXCOORD_0 counts");
      triangles += myriad::gltf::accessor_view(doc, p.indices, "indices").count / 3;
      // The material's base colour texture is the LOD's atlas, decoded from the embedded PNG.
      const tinygltf::Material& m = model.materials.at(std::size_t(p.material));
      const int texture = m.pbrMetallicRoughness.baseColorTexture.index;
      expect(texture == int(lod.texture), name + ": material texture " + std::to_string(texture));
      if (texture < 0 || std::size_t(texture) >= model.textures.size()) continue;
      const tinygltf::Image& image =
          model.images.at(std::size_t(model.textures[std::size_t(texture)].source));
      const myriad::anim::Texture& atlas = crowd.textures[lod.texture];
      expect(
          image.width == int(atlas.width) && image.height == int(atlas.height) && image.image == atlas.rgba8,
          name + ": the embedded texture differs from the .crowd's");
    }
    expect(triangles == lod.triangle_count(), name + ": " + std::to_string(triangles) +
                                                  " triangles, the .crowd " +
                                                  std::to_string(lod.triangle_count()));
    std::printf("%s: %zu vertices, %zu triangles\n", name.c_str(), lod.vertex_count(), triangles);
  }
  return failures ? 1 : 0;
}
#endif

}  // namespace

int main(int argc, char** argv) try {
  const std::string kind = argc > 1 ? argv[1] : "";
  if (kind == "voxel" && argc == 7) {
    return check_voxel(argv[2], std::strtoull(argv[3], nullptr, 10),
                       {std::atoi(argv[4]), std::atoi(argv[5]), std::atoi(argv[6])});
  }
#ifdef CHECK_EXPORT_CROWD
  if (kind == "crowd" && argc == 4) return check_crowd(argv[2], argv[3]);
#endif
  std::fprintf(stderr, "usage: check_export voxel FILE SEED X Y Z | check_export crowd FILE CROWD\n");
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "check_export: %s\n", e.what());
  return 1;
}
