// Walks the scene's node tree assigning each mesh node a level, then appends every primitive (in the
// plant's frame: the node's world transform applied) to its level's mesh with its surface.
#include "myriad/vegetation/plant/plant_gltf.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/mesh/vertex_normals.hpp"
#include "myriad/gltf/document.hpp"
#include "myriad/gltf/material.hpp"
#include "myriad/gltf/primitive.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/plant/plant_gltf_write.hpp"
#include "myriad/vegetation/plant/plant_impostor.hpp"

namespace myriad::vegetation {
namespace {

constexpr int kBillboard = static_cast<int>(kPlantLodCount) - 1;
constexpr int kShared = -1;  // a mesh outside every level: part of each geometric level
constexpr int kMaxDepth = 256;

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The level a node name's suffix gives, if any: _LOD0.._LOD3 (LOD3 = the billboard), _Billboard, _BB.
std::optional<int> suffix_level(const std::string& name) {
  const std::string n = lowercase(name);
  if (ends_with(n, "_billboard") || ends_with(n, "_bb")) return kBillboard;
  if (n.size() >= 5 && ends_with(n.substr(0, n.size() - 1), "_lod") && n.back() >= '0' && n.back() <= '3')
    return n.back() - '0';
  return std::nullopt;
}

std::string node_label(const tinygltf::Model& m, int node) {
  const std::string& name = m.nodes[static_cast<std::size_t>(node)].name;
  return "node '" + (name.empty() ? "(unnamed)" : name) + "' (nodes[" + std::to_string(node) + "])";
}

struct Part {
  int node = 0;
  glm::mat4 world{1.0f};
  int level = kShared;
  int level_node = -1;  // the node whose name or MSFT_lod gave the level
};

class Importer {
 public:
  explicit Importer(const gltf::Document& doc) : doc_(doc), m_(doc.model) {}

  PlantModel run() {
    collect_parts();
    PlantModel model;
    model.file = doc_.file;
    std::array<bool, kPlantLodCount> given{};
    std::array<int, kPlantLodCount> first_node{-1, -1, -1, -1};
    for (const Part& p : parts_) {
      if (p.level == kShared) continue;
      given[std::size_t(p.level)] = true;
      if (first_node[std::size_t(p.level)] < 0) first_node[std::size_t(p.level)] = p.level_node;
    }
    const bool any_level = std::any_of(given.begin(), given.end(), [](bool b) { return b; });
    if (any_level && !given[0]) {
      const int named = *std::find_if(first_node.begin(), first_node.end(), [](int n) { return n >= 0; });
      doc_.fail("the plant has levels but no LOD0", node_label(m_, named),
                "name the finest mesh's node with the suffix _LOD0");
    }
    if (parts_.empty()) doc_.fail("the plant has no meshes", "nodes", "LOD0 is needed");
    for (const Part& p : parts_) {
      if (p.level == kShared || !any_level) {
        for (int l = 0; l < kBillboard; ++l)
          if (l == 0 || given[std::size_t(l)]) append_node(model, p, l);
        continue;
      }
      append_node(model, p, p.level);
    }
    for (int l = 0; l < kBillboard; ++l) {
      if (given[std::size_t(l)])
        model.from[std::size_t(l)] = "from " + node_label(m_, first_node[std::size_t(l)]);
    }
    if (!any_level) model.from[0] = "from every mesh";
    if (model.lods[0].indices.empty())
      doc_.fail("LOD0 has no triangles", first_node[0] >= 0 ? node_label(m_, first_node[0]) : "meshes");
    for (std::size_t l = 1; l < std::size_t(kBillboard); ++l) {
      if (given[l] && !model.lods[l].indices.empty()) continue;
      model.lods[l] = simplified(model.lods[l - 1], 0.5f);
      model.from[l] = "simplified from LOD" + std::to_string(l - 1);
    }
    model.textures = std::move(textures_);
    // A billboard node without triangles counts as none.
    if (given[kBillboard] && !model.lods[kBillboard].indices.empty()) {
      model.from[kBillboard] = "from " + node_label(m_, first_node[kBillboard]);
    } else {
      ImpostorOptions impostor;
      impostor.name = doc_.file;
      add_impostor(model, impostor);
      model.from[kBillboard] =
          "generated (impostor of LOD0 from " + std::to_string(impostor.views) + " sides)";
    }
    return model;
  }

 private:
  void collect_parts() {
    std::vector<int> roots;
    if (!m_.scenes.empty()) {
      const std::size_t s = m_.defaultScene >= 0 ? std::size_t(m_.defaultScene) : 0;
      if (s >= m_.scenes.size()) doc_.fail("default scene out of range", "scene");
      roots = m_.scenes[s].nodes;
    } else {
      std::vector<bool> child(m_.nodes.size(), false);
      for (const tinygltf::Node& n : m_.nodes)
        for (const int c : n.children)
          if (c >= 0 && std::size_t(c) < child.size()) child[std::size_t(c)] = true;
      for (std::size_t i = 0; i < m_.nodes.size(); ++i)
        if (!child[i]) roots.push_back(static_cast<int>(i));
    }
    // MSFT_lod's coarser levels are reached through their LOD0 node only.
    claimed_.assign(m_.nodes.size(), false);
    for (std::size_t i = 0; i < m_.nodes.size(); ++i)
      for (const int id : msft_lod_ids(static_cast<int>(i))) claimed_[std::size_t(id)] = true;
    on_path_.assign(m_.nodes.size(), false);
    for (const int r : roots) visit(r, glm::mat4(1.0f), kShared, -1, 0, "scenes.nodes");
  }

  std::vector<int> msft_lod_ids(int node) const {
    const tinygltf::Node& n = m_.nodes[std::size_t(node)];
    const auto it = n.extensions.find("MSFT_lod");
    if (it == n.extensions.end()) return {};
    const tinygltf::Value ids = it->second.Get("ids");
    std::vector<int> out;
    if (!ids.IsArray()) doc_.fail("MSFT_lod has no ids array", node_label(m_, node));
    for (std::size_t k = 0; k < ids.ArrayLen(); ++k) {
      const tinygltf::Value& v = ids.Get(static_cast<int>(k));
      const int id = v.IsInt() ? v.Get<int>() : -1;
      if (id < 0 || std::size_t(id) >= m_.nodes.size() || id == node)
        doc_.fail("MSFT_lod names a node that does not exist", node_label(m_, node));
      out.push_back(id);
    }
    return out;
  }

  void visit(int node, const glm::mat4& parent, int inherited, int inherited_node, int depth,
             const std::string& field) {
    if (node < 0 || std::size_t(node) >= m_.nodes.size()) doc_.fail("node index out of range", field);
    if (depth > kMaxDepth || on_path_[std::size_t(node)])
      doc_.fail("the node tree is a cycle or deeper than 256", node_label(m_, node));
    on_path_[std::size_t(node)] = true;
    const tinygltf::Node& n = m_.nodes[std::size_t(node)];
    const glm::mat4 world = parent * gltf::node_matrix(n);
    int level = inherited, level_node = inherited_node;
    if (const std::optional<int> own = suffix_level(n.name)) level = *own, level_node = node;
    const std::vector<int> lods = msft_lod_ids(node);
    if (!lods.empty()) level = 0, level_node = node;
    if (n.mesh >= 0) parts_.push_back({node, world, level, level_node});
    for (const int c : n.children) {
      if (c >= 0 && std::size_t(c) < claimed_.size() && claimed_[std::size_t(c)]) continue;
      visit(c, world, level, level_node, depth + 1, node_label(m_, node) + ".children");
    }
    // A coarser level replaces the node: it stands under the node's parent.
    for (std::size_t k = 0; k < lods.size(); ++k)
      visit(lods[k], parent, std::min(int(k) + 1, kBillboard), lods[k], depth + 1,
            node_label(m_, node) + ".MSFT_lod");
    on_path_[std::size_t(node)] = false;
  }

  void append_node(PlantModel& model, const Part& part, int level) {
    const tinygltf::Node& n = m_.nodes[std::size_t(part.node)];
    const std::string where = node_label(m_, part.node);
    if (std::size_t(n.mesh) >= m_.meshes.size()) doc_.fail("mesh index out of range", where + ".mesh");
    const tinygltf::Mesh& mesh = m_.meshes[std::size_t(n.mesh)];
    PlantMesh& out = model.lods[std::size_t(level)];
    const std::vector<double> morph = gltf::default_morph_weights(doc_, part.node);
    for (std::size_t p = 0; p < mesh.primitives.size(); ++p)
      append_primitive(out, mesh.primitives[p], part.world, morph,
                       where + " mesh '" + mesh.name + "' primitives[" + std::to_string(p) + "]");
    if (out.positions.size() > kMaxPlantLodVertices) {
      doc_.fail("level " + std::to_string(level) + " has " + std::to_string(out.positions.size()) +
                    " vertices, more than a plant level may hold (" + std::to_string(kMaxPlantLodVertices) +
                    ")",
                where, "simplify the model");
    }
  }

  void append_primitive(PlantMesh& out, const tinygltf::Primitive& prim, const glm::mat4& world,
                        std::span<const double> morph_weights, const std::string& where) {
    if (!gltf::has_triangles(doc_, prim, where))
      doc_.fail("the primitive is points or lines, not triangles (mode " + std::to_string(prim.mode) + ")",
                where, "export triangles");
    const auto attr = [&](const std::string& name) {
      const auto it = prim.attributes.find(name);
      return it == prim.attributes.end() ? -1 : it->second;
    };
    const int pos = attr("POSITION");
    if (pos < 0) doc_.fail("the primitive has no POSITION", where);
    std::vector<glm::vec3> positions, normals;
    gltf::assign_floats(positions, gltf::read_floats(doc_, pos, 3, where + ".POSITION"));
    const std::size_t count = positions.size();
    if (const int nr = attr("NORMAL"); nr >= 0) {
      gltf::assign_floats(normals, gltf::read_floats(doc_, nr, 3, where + ".NORMAL"));
      if (normals.size() != count) doc_.fail("NORMAL count differs from POSITION", where);
    }
    if (prim.indices >= 0) {
      const int ct = gltf::accessor_view(doc_, prim.indices, where + ".indices").component_type;
      const std::size_t addressable = ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE    ? 256
                                      : ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ? 65536
                                                                                     : SIZE_MAX;
      if (count > addressable)
        doc_.fail("the primitive has " + std::to_string(count) + " vertices, more than its " +
                      (addressable == 256 ? "8" : "16") + "-bit indices address",
                  where + ".indices", "export with 32-bit indices or split the mesh");
    }
    gltf::apply_morph_targets(doc_, prim, morph_weights, positions, normals, where);
    const std::vector<std::uint32_t> indices = gltf::triangle_indices(doc_, prim, count, where);
    if (normals.empty())
      normals = mesh::area_weighted_normals(positions, indices);
    else
      mesh::repair_normals(positions, indices, normals);

    const PlantSurface surface = material_surface(prim.material, where);
    std::vector<glm::vec2> uvs(count, glm::vec2(0.0f));
    if (surface.texture != kNoPlantTexture) {
      const gltf::UvMapping mapping = gltf::base_color(doc_, prim.material).uv;
      const std::string name = "TEXCOORD_" + std::to_string(mapping.set);
      const int uv = attr(name);
      if (uv < 0) doc_.fail("the material is textured but the primitive has no " + name, where);
      gltf::assign_floats(uvs, gltf::read_floats(doc_, uv, 2, where + "." + name));
      if (uvs.size() != count) doc_.fail(name + " count differs from POSITION", where);
      for (glm::vec2& t : uvs) t = mapping.apply(t);
    }
    std::vector<glm::vec4> colors;
    if (const int c = attr("COLOR_0"); c >= 0) {
      const int comps = gltf::accessor_view(doc_, c, where + ".COLOR_0").components;
      if (comps != 3 && comps != 4) doc_.fail("COLOR_0 must have 3 or 4 components", where + ".COLOR_0");
      const std::vector<float> f = gltf::read_floats(doc_, c, comps, where + ".COLOR_0");
      for (std::size_t i = 0; i < count; ++i)
        colors.emplace_back(f[i * std::size_t(comps)], f[i * std::size_t(comps) + 1],
                            f[i * std::size_t(comps) + 2], 1.0f);
    }

    const glm::mat3 normal_matrix = glm::transpose(glm::inverse(glm::mat3(world)));
    const bool mirrored = glm::determinant(glm::mat3(world)) < 0.0f;
    const auto base = static_cast<std::uint32_t>(out.positions.size());
    for (std::size_t i = 0; i < count; ++i) {
      const glm::vec3 placed(world * glm::vec4(positions[i], 1.0f));
      // A NaN or infinite corner would poison the bounds, the simplifier and the impostor's raster.
      if (!std::isfinite(placed.x) || !std::isfinite(placed.y) || !std::isfinite(placed.z))
        doc_.fail("vertex " + std::to_string(i) + " has a non-finite position (as placed by its nodes)",
                  where + ".POSITION");
      out.positions.push_back(placed);
      const glm::vec3 nrm = normal_matrix * normals[i];
      out.normals.push_back(glm::length(nrm) > 0.0f ? glm::normalize(nrm) : glm::vec3(0.0f, 1.0f, 0.0f));
      out.uvs.push_back(uvs[i]);
      PlantSurface s = surface;
      if (!colors.empty())
        s.color =
            glm::u8vec3(glm::clamp(glm::round(glm::vec3(s.color) * glm::vec3(colors[i])), 0.0f, 255.0f));
      out.surfaces.push_back(s);
    }
    for (std::size_t t = 0; t < indices.size(); t += 3) {
      out.indices.push_back(base + indices[t]);
      out.indices.push_back(base + indices[t + (mirrored ? 2 : 1)]);
      out.indices.push_back(base + indices[t + (mirrored ? 1 : 2)]);
    }
  }

  PlantSurface material_surface(int material, const std::string& where) {
    PlantSurface s;
    if (material < 0) return s;
    if (std::size_t(material) >= m_.materials.size())
      doc_.fail("material index out of range", where + ".material");
    const tinygltf::Material& mat = m_.materials[std::size_t(material)];
    const std::string mwhere = where + " material '" + mat.name + "'";
    const gltf::BaseColor base = gltf::base_color(doc_, material);
    for (int k = 0; k < 3; ++k)
      s.color[k] =
          static_cast<std::uint8_t>(std::clamp(std::lround(double(base.factor[k]) * 255.0), 0L, 255L));
    if (mat.alphaMode == "MASK")
      s.alpha_cutoff = static_cast<std::uint8_t>(std::clamp(std::lround(mat.alphaCutoff * 255.0), 1L, 255L));
    else if (mat.alphaMode == "BLEND")
      s.alpha_cutoff = 128;
    if (base.image < 0) return s;
    s.texture = texture_index(base.image, base.wrap, mwhere);
    return s;
  }

  std::uint16_t texture_index(int source, UvWrapModes wrap, const std::string& where) {
    if (const auto it = texture_of_image_.find({source, wrap.packed()}); it != texture_of_image_.end())
      return it->second;
    const tinygltf::Image& img = m_.images[std::size_t(source)];
    const std::string name =
        img.uri.empty() ? (img.name.empty() ? "images[" + std::to_string(source) + "]" : img.name) : img.uri;
    if (gltf::image_file_missing(doc_, source) || img.image.empty())
      doc_.fail("the base-colour texture '" + name + "' is missing or could not be decoded", where,
                "keep the image next to the model, or embed it (.glb)");
    gltf::Rgba8Image pixels = gltf::image_rgba8(doc_, source);
    PlantTexture t;
    t.name = name;
    t.width = pixels.width;
    t.height = pixels.height;
    t.rgba8 = std::move(pixels.rgba8);
    t.wrap = wrap;
    if (textures_.size() + 1 >= kNoPlantTexture) doc_.fail("the plant uses more than 65,534 textures", where);
    const auto index = static_cast<std::uint16_t>(textures_.size());
    textures_.push_back(std::move(t));
    texture_of_image_[{source, wrap.packed()}] = index;
    return index;
  }

  // Half the triangles (or as close as the topology lets meshoptimizer get), unused vertices dropped.
  static PlantMesh simplified(const PlantMesh& src, float ratio) {
    const std::size_t target =
        std::max<std::size_t>(3, std::size_t(float(src.indices.size()) * ratio) / 3 * 3);
    std::vector<std::uint32_t> idx(src.indices.size());
    idx.resize(meshopt_simplify(idx.data(), src.indices.data(), src.indices.size(), &src.positions[0].x,
                                src.positions.size(), sizeof(glm::vec3), target, 0.05f, 0, nullptr));
    if (idx.empty()) return src;
    PlantMesh out;
    std::vector<std::uint32_t> remap(src.positions.size(), UINT32_MAX);
    for (const std::uint32_t i : idx) {
      if (remap[i] == UINT32_MAX) {
        remap[i] = static_cast<std::uint32_t>(out.positions.size());
        out.positions.push_back(src.positions[i]);
        out.normals.push_back(src.normals[i]);
        out.uvs.push_back(src.uvs[i]);
        out.surfaces.push_back(src.surfaces[i]);
      }
      out.indices.push_back(remap[i]);
    }
    return out;
  }

  const gltf::Document& doc_;
  const tinygltf::Model& m_;
  std::vector<Part> parts_;
  std::vector<bool> claimed_, on_path_;
  std::vector<PlantTexture> textures_;
  std::map<std::pair<int, std::uint32_t>, std::uint16_t> texture_of_image_;  // (image, wrap) -> texture
};

}  // namespace

std::size_t load_baked_plants(const std::filesystem::path& dir, std::vector<PlantType>& types) {
  std::vector<std::pair<std::size_t, std::filesystem::path>> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (const auto parsed = parse_baked_plant_file_name(entry.path().filename().string()))
      found.emplace_back(parsed->first, entry.path());
  if (ec) throw Error("cannot list the folder: " + ec.message(), dir.string());
  std::sort(found.begin(), found.end());
  for (const auto& [index, path] : found) {
    const std::string name = parse_baked_plant_file_name(path.filename().string())->second;
    if (index > types.size())
      throw Error("a plant file for type " + std::to_string(index) + ", but the bake's types end at " +
                      std::to_string(types.size()),
                  path.string(), "bake again");
    if (index < types.size() && types[index].name != name)
      throw Error("the plant file names type '" + name + "', the bake's type " + std::to_string(index) +
                      " is '" + types[index].name + "'",
                  path.string(), "bake again");
    const std::size_t at =
        set_plant_model(types, name, std::make_shared<const PlantModel>(import_plant_gltf(path)));
    if (at != index) throw Error("plant files out of order", path.string());
  }
  return found.size();
}

PlantModel import_plant_gltf(const std::filesystem::path& path) { return Importer(gltf::load(path)).run(); }

PlantModel import_plant_gltf_bytes(std::span<const std::byte> bytes, bool binary, const std::string& file,
                                   const std::filesystem::path& base_dir) {
  const gltf::Document doc = gltf::load_bytes(bytes, binary, file, base_dir);
  return Importer(doc).run();
}

}  // namespace myriad::vegetation
