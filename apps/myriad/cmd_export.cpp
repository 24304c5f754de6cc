// `myriad export` writes Myriad's content as glTF 2.0 for other tools and engines:
//   voxel  the generated and lit voxel world, one mesh and node per non-empty section, vertex colours with
//          the mesher's AO and soft light baked in (shown unlit: KHR_materials_unlit);
//   crowd  a .crowd file's three LOD meshes in bind pose, side by side, with the atlas textures as PNG.
// A name ending in .glb gives one binary file; .gltf one JSON file with the buffer embedded.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/gltf/writer.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/mesh_export.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#include "option_checks.hpp"
#include "output_path.hpp"
#ifdef MYRIAD_EXPORT_CROWD
#include "myriad/core/image/image_io.hpp"
#include "myriad/crowd/crowd_file.hpp"
#endif

namespace myriad::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct VoxelExportOptions {
  std::string out;
  std::uint64_t seed = 1;
  std::vector<int> size{voxel::kReferenceWorldSize.x, voxel::kReferenceWorldSize.y,
                        voxel::kReferenceWorldSize.z};
  bool no_caves = false;
  bool no_round_edges = false;
};

struct CrowdExportOptions {
  std::string input;
  std::string out;
};

bool is_gltf_name(const fs::path& path) { return path.extension() == ".gltf" || path.extension() == ".glb"; }

void require_gltf_name(const fs::path& path, const std::string& option) {
  if (!is_gltf_name(path))
    throw Error("'" + path.string() + "' does not end in .gltf or .glb", option,
                "name the file world.gltf (JSON, buffer embedded) or world.glb (binary)");
}

int run_export_voxel(const VoxelExportOptions& o) {
  for (const int s : o.size) {
    if (s < voxel::kSectionSize || s > 4096 || s % voxel::kSectionSize != 0)
      throw Error("world sizes must be multiples of 16 in [16, 4096], got " + std::to_string(s), "--size");
  }
  const fs::path out(o.out);
  require_gltf_name(out, "--out");
  prepare_output_file(out, "--out");
  const glm::ivec3 size(o.size[0], o.size[1], o.size[2]);
  voxel::GeneratorParams params;
  params.seed = o.seed;
  params.caves = !o.no_caves;
  params.round_edges = !o.no_round_edges;
  std::printf("generating a %d x %d x %d world (seed %ju)\n", size.x, size.y, size.z, std::uintmax_t(o.seed));
  std::fflush(stdout);
  voxel::World world = voxel::generate_world(size, params);
  voxel::compute_light(world);
  // Unmerged: every cell face its own quad, so light and texture are per vertex (no surface atlas).
  voxel::WorldMesher mesher;
  std::vector<voxel::SectionMesh> meshes;
  voxel::MeshOptions mesh_options;
  mesh_options.mode = voxel::MeshMode::kUnmerged;
  mesher.mesh_all(world, mesh_options, meshes);

  gltf::Writer w;
  w.doc["extensionsUsed"] = json::array({"KHR_materials_unlit"});
  w.doc["materials"] = json::array(
      {json{{"name", "voxel_vertex_colours"},
            {"pbrMetallicRoughness",
             {{"baseColorFactor", {1.0, 1.0, 1.0, 1.0}}, {"metallicFactor", 0.0}, {"roughnessFactor", 1.0}}},
            {"extensions", {{"KHR_materials_unlit", json::object()}}}}});
  json nodes = json::array(), scene_nodes = json::array();
  std::size_t vertices = 0, triangles = 0;
  voxel::DecodedMesh decoded;
  for (int s = 0; s < world.section_count(); ++s) {
    const voxel::SectionMesh& m = meshes[std::size_t(s)];
    if (m.indices.empty()) continue;
    decoded.clear();
    voxel::decode_section_mesh(m, glm::vec3(0.0f), decoded);  // section-local; the node places it
    const glm::ivec3 c = world.section_coord(s);
    const std::string name =
        "section_" + std::to_string(c.x) + "_" + std::to_string(c.y) + "_" + std::to_string(c.z);
    const json attributes = {
        {"POSITION", w.accessor(decoded.positions, "VEC3", gltf::kFloat, gltf::kArrayBuffer, true)},
        {"NORMAL", w.accessor(decoded.normals, "VEC3", gltf::kFloat, gltf::kArrayBuffer)},
        {"COLOR_0", w.accessor(decoded.colors, "VEC3", gltf::kFloat, gltf::kArrayBuffer)}};
    const int indices = w.accessor(decoded.indices, "SCALAR", gltf::kUnsignedInt, gltf::kElementBuffer);
    w.doc["meshes"].push_back(
        {{"name", name},
         {"primitives",
          json::array(
              {json{{"attributes", attributes}, {"indices", indices}, {"material", 0}, {"mode", 4}}})}});
    const glm::vec3 origin(c * voxel::kSectionSize);
    nodes.push_back({{"name", name},
                     {"mesh", w.doc["meshes"].size() - 1},
                     {"translation", {origin.x, origin.y, origin.z}}});
    scene_nodes.push_back(nodes.size() - 1);
    vertices += decoded.vertex_count();
    triangles += decoded.triangle_count();
  }
  if (nodes.empty())
    throw Error("the generated world has no visible surface", "--size", "try a taller world");
  w.doc["nodes"] = nodes;
  w.doc["scenes"] = json::array({json{{"name", "voxel_world"}, {"nodes", scene_nodes}}});
  w.doc["scene"] = 0;
  w.save(out, /*embed_buffer=*/true);
  std::printf("wrote %s: %zu sections, %zu vertices, %zu triangles\n", out.c_str(), nodes.size(), vertices,
              triangles);
  return 0;
}

#ifdef MYRIAD_EXPORT_CROWD
int run_export_crowd(const CrowdExportOptions& o) {
  const fs::path input(o.input);
  std::error_code ec;
  if (fs::is_directory(input, ec))
    throw Error("'" + o.input + "' is a folder", "input", "name a .crowd file");
  const crowd::CrowdFile f = crowd::read_crowd(input);
  // --out: a .gltf/.glb file, or a folder that gets <name of the .crowd>.glb.
  fs::path out(o.out);
  if (is_gltf_name(out)) {
    prepare_output_file(out, "--out");
  } else {
    prepare_output_folder(out, "--out");
    out /= input.stem().string() + ".glb";
  }

  gltf::Writer w;
  // The atlas textures as PNG inside the buffer (in both .glb and .gltf).
  for (std::size_t t = 0; t < f.textures.size(); ++t) {
    const anim::Texture& tex = f.textures[t];
    const std::vector<std::byte> png = encode_png_rgba8(tex.width, tex.height, tex.rgba8, tex.name);
    w.doc["images"].push_back(
        {{"name", tex.name}, {"bufferView", w.view(png.data(), png.size(), 0)}, {"mimeType", "image/png"}});
    w.doc["textures"].push_back({{"source", t}, {"sampler", 0}});
  }
  w.doc["samplers"] = json::array({json{{"magFilter", 9729}, {"minFilter", 9987}}});
  // One glTF material per (texture, crowd material) pair in use; the base colour is baked into the texture.
  std::map<std::pair<std::uint32_t, std::uint16_t>, int> materials;
  const auto material = [&](std::uint32_t texture, std::uint16_t m) {
    const auto [it, added] = materials.try_emplace({texture, m}, int(materials.size()));
    if (added) {
      const crowd::CrowdMaterial& cm = f.materials[m];
      w.doc["materials"].push_back({{"name", cm.name},
                                    {"doubleSided", cm.double_sided},
                                    {"pbrMetallicRoughness",
                                     {{"baseColorTexture", {{"index", texture}}},
                                      {"metallicFactor", 0.0},
                                      {"roughnessFactor", 1.0}}}});
    }
    return it->second;
  };

  const float width = f.bind_max.x - f.bind_min.x;
  const float spacing = std::max(1.0f, 1.5f * width);
  json nodes = json::array();
  for (std::size_t l = 0; l < f.lods.size(); ++l) {
    const crowd::CrowdLod& lod = f.lods[l];
    const std::string name = "lod" + std::to_string(l);
    const json attributes = {
        {"POSITION", w.accessor(lod.positions, "VEC3", gltf::kFloat, gltf::kArrayBuffer, true)},
        {"NORMAL", w.accessor(lod.normals, "VEC3", gltf::kFloat, gltf::kArrayBuffer)},
        {"TEXCOORD_0", w.accessor(lod.uvs, "VEC2", gltf::kFloat, gltf::kArrayBuffer)}};
    // One primitive per crowd material (they differ in back-face culling), sharing the vertices.
    std::map<std::uint16_t, std::vector<std::uint32_t>> by_material;
    for (std::size_t t = 0; t < lod.triangle_count(); ++t) {
      std::vector<std::uint32_t>& idx = by_material[lod.triangle_material[t]];
      idx.insert(idx.end(), lod.indices.begin() + std::ptrdiff_t(3 * t),
                 lod.indices.begin() + std::ptrdiff_t(3 * t + 3));
    }
    json primitives = json::array();
    for (const auto& [m, idx] : by_material) {
      primitives.push_back({{"attributes", attributes},
                            {"indices", w.accessor(idx, "SCALAR", gltf::kUnsignedInt, gltf::kElementBuffer)},
                            {"material", material(lod.texture, m)},
                            {"mode", 4}});
    }
    w.doc["meshes"].push_back({{"name", f.name + "_" + name}, {"primitives", primitives}});
    nodes.push_back({{"name", name}, {"mesh", l}, {"translation", {spacing * float(l), 0.0f, 0.0f}}});
    std::printf("  %s: %zu vertices, %zu triangles\n", name.c_str(), lod.vertex_count(),
                lod.triangle_count());
  }
  json scene_nodes = json::array();
  for (std::size_t n = 0; n < nodes.size(); ++n) scene_nodes.push_back(n);
  w.doc["nodes"] = nodes;
  w.doc["scenes"] = json::array({json{{"name", f.name}, {"nodes", scene_nodes}}});
  w.doc["scene"] = 0;
  w.save(out, /*embed_buffer=*/true);
  std::printf("wrote %s (%zu LODs of '%s', bind pose)\n", out.c_str(), f.lods.size(), f.name.c_str());
  return 0;
}
#endif

}  // namespace

Command add_export_command(CLI::App& app) {
  auto v = std::make_shared<VoxelExportOptions>();
  auto c = std::make_shared<CrowdExportOptions>();
  CLI::App* exp = app.add_subcommand(
      "export", "Write Myriad content as glTF 2.0 (.gltf with the buffer embedded, or .glb)");
  exp->require_subcommand(1);
  CLI::App* vox = exp->add_subcommand(
      "voxel",
      "The generated, lit voxel world: one mesh and node per non-empty 16^3 section (named section_X_Y_Z, "
      "placed at its origin; 1 unit = 1 voxel, +Y up), every cell face its own quad, POSITION, NORMAL and "
      "COLOR_0 with AO and light baked in (material KHR_materials_unlit)");
  vox->add_option("-o,--out", v->out, "Output file: .gltf (one JSON file) or .glb")->required();
  vox->add_option("--seed", v->seed, "World seed")->check(not_negative);
  vox->add_option("--size", v->size, "World size in voxels: X Y Z, multiples of 16 (default 256 64 256)")
      ->expected(3);
  vox->add_flag("--no-caves", v->no_caves, "Generate without caves");
  vox->add_flag("--no-round-edges", v->no_round_edges, "Full cubes only (no slopes and corners)");
#ifdef MYRIAD_EXPORT_CROWD
  CLI::App* crd = exp->add_subcommand(
      "crowd",
      "A .crowd file's LOD meshes in bind pose (the VAT animation is not exported): nodes lod0, lod1, lod2 "
      "side "
      "by side along +X, with POSITION, NORMAL, TEXCOORD_0 and the atlas textures embedded as PNG");
  crd->add_option("input", c->input, "The .crowd file")->required();
  crd->add_option("-o,--out", c->out, "Output .gltf / .glb file, or a folder that gets <input name>.glb")
      ->required();
#endif
  return {exp, [=]() -> int {
            if (vox->parsed()) return run_export_voxel(*v);
#ifdef MYRIAD_EXPORT_CROWD
            if (crd->parsed()) return run_export_crowd(*c);
#endif
            return 1;
          }};
}

}  // namespace myriad::app
