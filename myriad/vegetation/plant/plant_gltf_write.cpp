#include "myriad/vegetation/plant/plant_gltf_write.hpp"

#include "myriad/core/image/uv_wrap.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>

#include <nlohmann/json.hpp>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/gltf/writer.hpp"
#include "myriad/vegetation/bake/baker.hpp"

namespace myriad::vegetation {
namespace {

using nlohmann::json;

using gltf::kArrayBuffer;
using gltf::kElementBuffer;
using gltf::kFloat;
using gltf::kUnsignedInt;

struct Builder : gltf::Writer {
  int material(const PlantSurface& s, std::map<std::tuple<int, int, int, int, int>, int>& cache) {
    const auto key =
        std::make_tuple(int(s.color.r), int(s.color.g), int(s.color.b), int(s.alpha_cutoff), int(s.texture));
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
    json pbr = {{"baseColorFactor", {s.color.r / 255.0, s.color.g / 255.0, s.color.b / 255.0, 1.0}},
                {"metallicFactor", 0.0},
                {"roughnessFactor", 1.0}};
    if (s.texture != kNoPlantTexture) pbr["baseColorTexture"] = {{"index", int(s.texture)}};
    json m = {{"name", "surface" + std::to_string(cache.size())},
              {"pbrMetallicRoughness", pbr},
              {"doubleSided", true}};
    if (s.alpha_cutoff) {
      m["alphaMode"] = "MASK";
      m["alphaCutoff"] = s.alpha_cutoff / 255.0;
    }
    doc["materials"].push_back(m);
    return cache[key] = static_cast<int>(doc["materials"].size() - 1);
  }

  // One mesh of a level: a primitive per distinct surface.
  int mesh(const PlantMesh& m, const std::string& name,
           std::map<std::tuple<int, int, int, int, int>, int>& cache) {
    std::map<int, std::vector<std::uint32_t>> by_material;  // triangles, by the first vertex's surface
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
      const PlantSurface s = m.surfaces.empty() ? PlantSurface{} : m.surfaces[m.indices[t]];
      auto& tri = by_material[material(s, cache)];
      tri.insert(tri.end(), m.indices.begin() + std::ptrdiff_t(t), m.indices.begin() + std::ptrdiff_t(t + 3));
    }
    json prims = json::array();
    for (const auto& [mat, tris] : by_material) {
      std::vector<std::uint32_t> remap(m.positions.size(), UINT32_MAX), idx;
      std::vector<glm::vec3> p, n;
      std::vector<glm::vec2> uv;
      for (const std::uint32_t i : tris) {
        if (remap[i] == UINT32_MAX) {
          remap[i] = static_cast<std::uint32_t>(p.size());
          p.push_back(m.positions[i]);
          n.push_back(m.normals[i]);
          uv.push_back(m.uvs.empty() ? glm::vec2(0.0f) : m.uvs[i]);
        }
        idx.push_back(remap[i]);
      }
      json attributes = {{"POSITION", accessor(p, "VEC3", kFloat, kArrayBuffer, true)},
                         {"NORMAL", accessor(n, "VEC3", kFloat, kArrayBuffer)},
                         {"TEXCOORD_0", accessor(uv, "VEC2", kFloat, kArrayBuffer)}};
      prims.push_back({{"attributes", attributes},
                       {"indices", accessor(idx, "SCALAR", kUnsignedInt, kElementBuffer)},
                       {"material", mat},
                       {"mode", 4}});
    }
    doc["meshes"].push_back({{"name", name}, {"primitives", prims}});
    return static_cast<int>(doc["meshes"].size() - 1);
  }
};

}  // namespace

void PlantGltfWriteOptions::validate() const {
  if (name.empty()) throw Error("the plant needs a name for its nodes", "PlantGltfWriteOptions::name");
  if (geometric_levels < 1 || geometric_levels > 3)
    throw Error("write 1 to 3 geometric levels", "PlantGltfWriteOptions::geometric_levels");
}

void write_plant_gltf(const std::filesystem::path& path, const PlantModel& model,
                      const PlantGltfWriteOptions& o) {
  o.validate();
  const bool binary = path.extension() == ".glb";
  Builder b;
  std::map<std::tuple<int, int, int, int, int>, int> materials;
  json nodes = json::array(), scene_nodes = json::array();
  std::vector<int> lod_nodes;
  for (std::uint32_t l = 0; l < o.geometric_levels; ++l) {
    const std::string name = o.name + "_LOD" + std::to_string(l);
    nodes.push_back({{"name", o.msft_lod ? o.name + "_level" + std::to_string(l) : name},
                     {"mesh", b.mesh(model.lods[l], name, materials)}});
    lod_nodes.push_back(static_cast<int>(nodes.size() - 1));
  }
  if (o.msft_lod && lod_nodes.size() > 1) {
    nodes[0]["extensions"]["MSFT_lod"]["ids"] = std::vector<int>(lod_nodes.begin() + 1, lod_nodes.end());
    b.doc["extensionsUsed"] = json::array({"MSFT_lod"});
    scene_nodes.push_back(0);
  } else {
    for (const int n : lod_nodes) scene_nodes.push_back(n);
  }
  if (o.billboard) {
    nodes.push_back({{"name", o.name + "_Billboard"},
                     {"mesh", b.mesh(model.lods[kPlantLodCount - 1], o.name + "_Billboard", materials)}});
    scene_nodes.push_back(static_cast<int>(nodes.size() - 1));
  }
  json samplers = json::array();
  std::map<std::uint32_t, int> sampler_of;  // UvWrapModes::packed() -> sampler
  for (std::size_t t = 0; t < model.textures.size(); ++t) {
    const PlantTexture& tex = model.textures[t];
    const std::vector<std::byte> png = encode_png_rgba8(tex.width, tex.height, tex.rgba8, tex.name);
    if (binary) {
      b.doc["images"].push_back(
          {{"bufferView", b.view(png.data(), png.size(), 0)}, {"mimeType", "image/png"}});
    } else {
      const std::string file = path.stem().string() + "_" + std::to_string(t) + ".png";
      write_file_atomic(path.parent_path() / file, png);
      b.doc["images"].push_back({{"uri", file}});
    }
    // One sampler per wrap the textures use (linear, mipmapped).
    const auto [it, inserted] = sampler_of.try_emplace(tex.wrap.packed(), static_cast<int>(samplers.size()));
    if (inserted) {
      samplers.push_back(json{{"magFilter", 9729},
                              {"minFilter", 9987},
                              {"wrapS", uv_wrap_to_gltf(tex.wrap.s)},
                              {"wrapT", uv_wrap_to_gltf(tex.wrap.t)}});
    }
    b.doc["textures"].push_back({{"source", static_cast<int>(t)}, {"sampler", it->second}});
  }
  if (!model.textures.empty()) b.doc["samplers"] = samplers;
  b.doc["nodes"] = nodes;
  b.doc["scenes"] = json::array({json{{"nodes", scene_nodes}}});
  b.doc["scene"] = 0;
  b.save(path);
}

std::optional<std::pair<std::size_t, std::string>> parse_baked_plant_file_name(const std::string& file) {
  const std::string prefix = "plant_", suffix = ".glb";
  if (file.size() <= prefix.size() + suffix.size() || file.rfind(prefix, 0) != 0 ||
      file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  const std::string middle = file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
  const std::size_t cut = middle.find('_');
  if (cut == 0 || cut == std::string::npos || cut + 1 == middle.size() || cut > 6) return std::nullopt;
  std::size_t index = 0;
  for (std::size_t i = 0; i < cut; ++i) {
    if (middle[i] < '0' || middle[i] > '9') return std::nullopt;
    index = index * 10 + std::size_t(middle[i] - '0');
  }
  return std::make_pair(index, middle.substr(cut + 1));
}

std::size_t write_baked_plants(const std::filesystem::path& dir, std::span<const PlantType> types) {
  // The folder's plant files are the bake's: earlier ones go first, so none is read with the wrong tiles.
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (parse_baked_plant_file_name(entry.path().filename().string()))
      std::filesystem::remove(entry.path(), ec);
  std::size_t written = 0;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (!types[i].model) continue;
    const std::string& name = types[i].name;
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
    if (!plain)
      throw Error("a plant type's name must be letters, digits, _ and -", "plant type '" + name + "'");
    PlantGltfWriteOptions w;
    w.name = types[i].name;
    write_plant_gltf(dir / ("plant_" + std::to_string(i) + "_" + types[i].name + ".glb"), *types[i].model, w);
    ++written;
  }
  return written;
}

PlantModel make_sample_fern() {
  PlantModel fern;
  fern.file = "sample fern";
  // The frond texture: a midrib with leaflets either side, alpha 0 between them; v runs base to tip.
  PlantTexture leaf{"fern_frond", 128, 128, {}};
  leaf.rgba8.assign(std::size_t(128) * 128 * 4, 0);
  for (std::uint32_t y = 0; y < 128; ++y)
    for (std::uint32_t x = 0; x < 128; ++x) {
      const float v = 1.0f - (float(y) + 0.5f) / 128.0f;  // 0 at the base (bottom row), 1 at the tip
      const float u = std::abs((float(x) + 0.5f) / 128.0f - 0.5f) * 2.0f;  // 0 on the midrib
      const float width = 0.95f * std::sin(std::numbers::pi_v<float> * std::min(1.0f, v * 1.1f));
      const float phase = std::fmod(v * 14.0f + u * 1.5f, 1.0f);  // leaflets angled towards the tip
      const bool leaflet = u < width && phase > 0.18f;
      const bool rib = u < 0.04f && v < 0.98f;
      if (!leaflet && !rib) continue;
      std::uint8_t* p = &leaf.rgba8[(std::size_t(y) * 128 + x) * 4];
      const float shade = 0.75f + 0.25f * (1.0f - u);
      p[0] = rib ? 90 : std::uint8_t(70 * shade);
      p[1] = rib ? 110 : std::uint8_t((150 + 40 * v) * shade);
      p[2] = rib ? 50 : std::uint8_t(50 * shade);
      p[3] = 255;
    }
  fern.textures.push_back(std::move(leaf));
  constexpr float kTrunk = 2.0f;  // metres of trunk under the crown of fronds
  const PlantSurface frond{{255, 255, 255}, 128, 0};
  const PlantSurface stem{{96, 80, 52}, 0, kNoPlantTexture};
  const auto card = [&](PlantMesh& m, float yaw, float tilt, float roll, int segments, float length) {
    const glm::vec3 dir(std::cos(yaw), 0.0f, std::sin(yaw)), side(-std::sin(yaw), 0.0f, std::cos(yaw));
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    for (int s = 0; s <= segments; ++s) {
      const float t = float(s) / float(segments);
      const float a = tilt + 1.1f * t;  // the frond arches over
      const glm::vec3 c = (dir * std::sin(a) + glm::vec3(0.0f, std::cos(a), 0.0f)) * length * t +
                          glm::vec3(0.0f, kTrunk, 0.0f);
      const glm::vec3 tangent = glm::normalize(dir * std::cos(a) - glm::vec3(0.0f, std::sin(a), 0.0f));
      // Rolled about its rib by `roll`: a frond is never seen only edge-on.
      const glm::vec3 across =
          glm::normalize(side * std::cos(roll) + glm::cross(tangent, side) * std::sin(roll));
      const glm::vec3 n = glm::normalize(glm::cross(across, tangent));
      for (int k = 0; k < 2; ++k) {
        m.positions.push_back(c + across * (k == 0 ? -0.2f : 0.2f) * length);
        m.normals.push_back(n);
        m.uvs.emplace_back(k == 0 ? 0.0f : 1.0f, 1.0f - t);
        m.surfaces.push_back(frond);
      }
    }
    for (std::uint32_t s = 0; s < std::uint32_t(segments); ++s) {
      const std::uint32_t a = base + 2 * s;
      m.indices.insert(m.indices.end(), {a, a + 2, a + 1, a + 1, a + 2, a + 3});
    }
  };
  const auto stem_box = [&](PlantMesh& m) {
    PlantMesh box = make_box_mesh({glm::vec3(-0.12f, 0.0f, -0.12f), glm::vec3(0.12f, kTrunk + 0.1f, 0.12f)});
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    for (std::size_t i = 0; i < box.positions.size(); ++i) {
      m.positions.push_back(box.positions[i]);
      m.normals.push_back(box.normals[i]);
      m.uvs.emplace_back(0.0f);
      m.surfaces.push_back(stem);
    }
    for (const std::uint32_t i : box.indices) m.indices.push_back(base + i);
  };
  const int fronds[2] = {11, 6}, segments[2] = {5, 2};
  for (int l = 0; l < 2; ++l) {
    PlantMesh& m = fern.lods[std::size_t(l)];
    stem_box(m);
    for (int f = 0; f < fronds[l]; ++f)
      card(m, 2.39996f * float(f), 0.35f + 0.25f * float(f % 3), f % 2 ? 0.6f : -0.6f, segments[l],
           2.2f + 0.3f * float(f % 4));
    fern.from[std::size_t(l)] = "generated";
  }
  fern.lods[2] = fern.lods[1];
  fern.from[2] = "generated";
  fern.lods[3] = make_billboard_mesh(fern.bounds());
  fern.lods[3].uvs.assign(fern.lods[3].positions.size(), glm::vec2(0.0f));
  fern.lods[3].surfaces.assign(fern.lods[3].positions.size(),
                               PlantSurface{{70, 150, 55}, 0, kNoPlantTexture});
  fern.from[3] = "generated";
  return fern;
}

}  // namespace myriad::vegetation
