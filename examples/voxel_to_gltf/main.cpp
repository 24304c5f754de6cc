// From Myriad's voxel module to a glTF file any viewer opens (Myriad::voxel + Myriad::gltf, no GPU).
//
// The steps: generate a small world from a seed, light it (sun and lamps), mesh it, decode the mesher's
// compact GPU vertices into plain positions, normals and colours, and write them as <out>/world.gltf
// (one .gltf file, the binary buffer embedded). The colours carry the mesher's ambient occlusion and
// soft light, so the file is drawn unlit (KHR_materials_unlit).
//
// Usage: voxel_to_gltf [output folder]   (default: the current folder)
#include <cstdio>
#include <exception>
#include <filesystem>
#include <vector>

#include "myriad/gltf/writer.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/mesh_export.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

int main(int argc, char** argv) try {
  namespace voxel = myriad::voxel;
  const std::filesystem::path out = argc > 1 ? argv[1] : ".";
  std::filesystem::create_directories(out);

  // 1. A 64 x 32 x 64 voxel world (sizes are multiples of the 16^3 section), then its light.
  voxel::GeneratorParams params;
  params.seed = 7;
  voxel::World world = voxel::generate_world({64, 32, 64}, params);
  voxel::compute_light(world);

  // 2. Mesh every section. MeshMode::kUnmerged makes every visible cell face its own quad with its light and
  //    texture in its vertices: the form that per-vertex colours can express (a merged quad would
  //    need Myriad's surface atlas and terrain shader).
  voxel::WorldMesher mesher;
  std::vector<voxel::SectionMesh> sections;
  voxel::MeshOptions options;
  options.mode = voxel::MeshMode::kUnmerged;
  mesher.mesh_all(world, options, sections);

  // 3. Decode all sections into one mesh in world coordinates (1 unit = 1 voxel, +Y up, like glTF).
  voxel::DecodedMesh mesh;
  std::size_t mesher_vertices = 0;
  for (int s = 0; s < world.section_count(); ++s) {
    const glm::vec3 origin = glm::vec3(world.section_coord(s) * voxel::kSectionSize);
    voxel::decode_section_mesh(sections[std::size_t(s)], origin, mesh);
    mesher_vertices += sections[std::size_t(s)].vertices.size();
  }
  if (mesh.vertex_count() != mesher_vertices || mesh.triangle_count() == 0) {
    std::fprintf(stderr, "voxel_to_gltf: the decoded mesh does not match the mesher's output\n");
    return 1;
  }

  // 4. The glTF document: one mesh, one node, one unlit material that shows the vertex colours.
  namespace gltf = myriad::gltf;
  gltf::Writer w;
  const nlohmann::json attributes = {
      {"POSITION", w.accessor(mesh.positions, "VEC3", gltf::kFloat, gltf::kArrayBuffer, /*bounds=*/true)},
      {"NORMAL", w.accessor(mesh.normals, "VEC3", gltf::kFloat, gltf::kArrayBuffer)},
      {"COLOR_0", w.accessor(mesh.colors, "VEC3", gltf::kFloat, gltf::kArrayBuffer)}};
  const int indices = w.accessor(mesh.indices, "SCALAR", gltf::kUnsignedInt, gltf::kElementBuffer);
  w.doc["materials"] = nlohmann::json::array(
      {{{"name", "vertex_colours"}, {"extensions", {{"KHR_materials_unlit", nlohmann::json::object()}}}}});
  w.doc["extensionsUsed"] = nlohmann::json::array({"KHR_materials_unlit"});
  w.doc["meshes"] = nlohmann::json::array(
      {{{"name", "world"},
        {"primitives",
         nlohmann::json::array({{{"attributes", attributes}, {"indices", indices}, {"material", 0}}})}}});
  w.doc["nodes"] = nlohmann::json::array({{{"name", "world"}, {"mesh", 0}}});
  w.doc["scenes"] = nlohmann::json::array({{{"nodes", nlohmann::json::array({0})}}});
  w.doc["scene"] = 0;

  // 5. Write one self-contained .gltf (use a .glb name for the binary form).
  const std::filesystem::path file = out / "world.gltf";
  w.save(file, /*embed_buffer=*/true);
  std::printf("wrote %s: %zu vertices, %zu triangles\n", file.string().c_str(), mesh.vertex_count(),
              mesh.triangle_count());
  return 0;
} catch (const std::exception& e) {  // myriad::Error says what went wrong, where, and what to do
  std::fprintf(stderr, "voxel_to_gltf: %s\n", e.what());
  return 1;
}
