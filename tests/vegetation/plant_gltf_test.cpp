// Plants from glTF: models the tests write themselves (the sample fern, grids, hand-edited JSON) go
// through the import path; levels by node suffix, by MSFT_lod and by an ancestor's suffix; missing
// levels simplified and an impostor baked for a missing billboard; textures embedded (GLB) and beside the
// file (.gltf); bad models fail with one line naming the file and the node. The texture array keeps alpha
// coverage.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/plant/plant_gltf.hpp"
#include "myriad/vegetation/plant/plant_generated.hpp"
#include "myriad/vegetation/plant/plant_gltf_write.hpp"
#include "myriad/vegetation/plant/plant_impostor.hpp"
#include "myriad/vegetation/plant/plant_textures.hpp"
#include "test_util.hpp"

namespace myriad::vegetation {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json read_json(const fs::path& p) {
  const auto bytes = read_file(p);
  return json::parse(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

void write_json(const fs::path& p, const json& j) {
  const std::string text = j.dump();
  write_file_atomic(p, std::as_bytes(std::span(text.data(), text.size())));
}

// The import's error as text (empty when it succeeds).
std::string import_error(const fs::path& p) {
  try {
    (void)import_plant_gltf(p);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

Aabb bounds_of(const PlantMesh& m) { return m.bounds(); }

TEST(PlantGltf, GlbRoundTripKeepsLevelsSurfacesAndTextures) {
  test::TempDir dir("plant_glb");
  const PlantModel fern = make_sample_fern();
  write_plant_gltf(dir.path / "fern.glb", fern, {.name = "Fern"});
  const PlantModel back = import_plant_gltf(dir.path / "fern.glb");
  for (std::size_t l = 0; l < kPlantLodCount; ++l) {
    EXPECT_EQ(back.lods[l].triangle_count(), fern.lods[l].triangle_count()) << "level " << l;
    EXPECT_EQ(back.lods[l].positions.size(), fern.lods[l].positions.size()) << "level " << l;
    EXPECT_EQ(bounds_of(back.lods[l]).min, bounds_of(fern.lods[l]).min);
    EXPECT_EQ(bounds_of(back.lods[l]).max, bounds_of(fern.lods[l]).max);
    EXPECT_NE(back.from[l].find("Fern_"), std::string::npos) << back.from[l];
  }
  ASSERT_EQ(back.textures.size(), 1u);
  EXPECT_EQ(back.textures[0].width, 128u);
  EXPECT_EQ(back.textures[0].rgba8, fern.textures[0].rgba8);
  std::size_t textured = 0;
  for (const PlantSurface& s : back.lods[0].surfaces) {
    if (s.texture == 0) {
      ++textured;
      EXPECT_EQ(s.alpha_cutoff, 128);
    } else {
      EXPECT_EQ(s.texture, kNoPlantTexture);
      EXPECT_EQ(s.color, glm::u8vec3(96, 80, 52));  // the stem's colour-only material
    }
  }
  EXPECT_GT(textured, 100u);
}

// A texture's wrap modes (its glTF sampler) survive writing and reading; the impostor bake reads the
// texture through them.
TEST(PlantGltf, TextureWrapModesRoundTrip) {
  test::TempDir dir("plant_wrap");
  PlantModel fern = make_sample_fern();
  ASSERT_EQ(fern.textures.size(), 1u);
  const UvWrapModes want{UvWrap::kMirroredRepeat, UvWrap::kClampToEdge};
  fern.textures[0].wrap = want;
  write_plant_gltf(dir.path / "fern.glb", fern, {.name = "Fern"});
  const PlantModel back = import_plant_gltf(dir.path / "fern.glb");
  ASSERT_EQ(back.textures.size(), 1u);
  EXPECT_EQ(back.textures[0].wrap, want);
  write_plant_gltf(dir.path / "fern.gltf", make_sample_fern(), {.name = "Fern"});
  const json doc = read_json(dir.path / "fern.gltf");
  ASSERT_EQ(doc["samplers"].size(), 1u);
  EXPECT_EQ(doc["samplers"][0]["wrapS"], 10497);  // the default, written out
  EXPECT_TRUE(import_plant_gltf(dir.path / "fern.gltf").textures[0].wrap.repeats());
}

TEST(PlantGltf, MsftLodAndExternalFilesGiveTheSameLevels) {
  test::TempDir dir("plant_msft");
  const PlantModel fern = make_sample_fern();
  write_plant_gltf(dir.path / "fern.gltf", fern, {.name = "Fern", .msft_lod = true, .billboard = false});
  EXPECT_TRUE(fs::exists(dir.path / "fern_0.png"));
  EXPECT_TRUE(fs::exists(dir.path / "fern.bin"));
  const PlantModel back = import_plant_gltf(dir.path / "fern.gltf");
  for (std::size_t l = 0; l < 3; ++l) EXPECT_EQ(back.lods[l].triangle_count(), fern.lods[l].triangle_count());
  EXPECT_NE(back.from[1].find("Fern_level1"), std::string::npos) << back.from[1];
  EXPECT_NE(back.from[3].find("impostor"), std::string::npos) << back.from[3];
  // The frond texture, then the impostor's views, which the billboard's quads sample.
  const std::size_t views = ImpostorOptions{}.views;
  ASSERT_EQ(back.textures.size(), 1u + views);
  EXPECT_EQ(back.textures[0].rgba8, fern.textures[0].rgba8);
  EXPECT_EQ(back.lods[3].triangle_count(), 4 * views);
  for (const PlantSurface& s : back.lods[3].surfaces) EXPECT_GE(s.texture, 1u);
}

TEST(PlantGltf, MissingLevelsAreSimplifiedAndTheBillboardSpansTheModel) {
  test::TempDir dir("plant_simplify");
  PlantModel ball;
  ball.lods[0] = make_grid_mesh(24, [](std::uint32_t i, std::uint32_t j, glm::vec3& p, glm::vec3&) {
    const float u = float(i) / 24.0f * 6.2831853f, v = float(j) / 24.0f * 3.1415926f;
    p = glm::vec3(std::sin(v) * std::cos(u), 1.0f - std::cos(v), std::sin(v) * std::sin(u));
  });
  write_plant_gltf(dir.path / "ball.glb", ball, {.name = "Ball", .geometric_levels = 1, .billboard = false});
  const PlantModel back = import_plant_gltf(dir.path / "ball.glb");
  EXPECT_EQ(back.lods[0].triangle_count(), ball.lods[0].triangle_count());
  EXPECT_LT(back.lods[1].triangle_count(), back.lods[0].triangle_count());
  EXPECT_LE(back.lods[2].triangle_count(), back.lods[1].triangle_count());
  EXPECT_EQ(back.from[1], "simplified from LOD0");
  EXPECT_EQ(back.from[2], "simplified from LOD1");
  const Aabb bb = back.lods[3].bounds(), lod0 = back.lods[0].bounds();
  EXPECT_FLOAT_EQ(bb.max.y, lod0.max.y);
  EXPECT_GE(bb.max.x, lod0.max.x - 1e-5f);
}

TEST(PlantGltf, ALevelGroupNodeGivesItsChildrenItsLevelAndTransform) {
  test::TempDir dir("plant_group");
  write_plant_gltf(dir.path / "fern.gltf", make_sample_fern(), {.name = "Fern", .billboard = false});
  json j = read_json(dir.path / "fern.gltf");
  // LOD0's mesh node becomes "leaves", a child of the group "Oak_LOD0" lifted by 2 m.
  j["nodes"][0]["name"] = "leaves";
  j["nodes"].push_back(
      {{"name", "Oak_LOD0"}, {"children", json::array({0})}, {"translation", {0.0, 2.0, 0.0}}});
  j["scenes"][0]["nodes"] = {3, 1, 2};
  write_json(dir.path / "fern.gltf", j);
  const PlantModel back = import_plant_gltf(dir.path / "fern.gltf");
  const PlantModel fern = make_sample_fern();
  EXPECT_EQ(back.lods[0].triangle_count(), fern.lods[0].triangle_count());
  EXPECT_FLOAT_EQ(back.lods[0].bounds().min.y, fern.lods[0].bounds().min.y + 2.0f);
  EXPECT_NE(back.from[0].find("Oak_LOD0"), std::string::npos) << back.from[0];
}

// A morph target at its mesh's weight moves the leaves: each primitive of LOD0 takes its own positions as
// its one target, so weight 0.5 scales the level by 1.5 about the plant's origin.
TEST(PlantGltf, MorphTargetsAreBlendedAtTheirWeights) {
  test::TempDir dir("plant_morph");
  write_plant_gltf(dir.path / "fern.gltf", make_sample_fern(), {.name = "Fern", .billboard = false});
  json j = read_json(dir.path / "fern.gltf");
  const int lod0_mesh = j["nodes"][0]["mesh"].get<int>();
  for (json& prim : j["meshes"][lod0_mesh]["primitives"])
    prim["targets"] = json::array({{{"POSITION", prim["attributes"]["POSITION"]}}});
  j["meshes"][lod0_mesh]["weights"] = {0.5};
  write_json(dir.path / "fern.gltf", j);
  const PlantModel back = import_plant_gltf(dir.path / "fern.gltf");
  const PlantModel fern = make_sample_fern();
  ASSERT_EQ(back.lods[0].positions.size(), fern.lods[0].positions.size());
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(back.lods[0].bounds().min[k], 1.5f * fern.lods[0].bounds().min[k], 1e-5f) << "axis " << k;
    EXPECT_NEAR(back.lods[0].bounds().max[k], 1.5f * fern.lods[0].bounds().max[k], 1e-5f) << "axis " << k;
  }
}

TEST(PlantGltf, BadModelsFailWithOneLineNamingFileAndNode) {
  test::TempDir dir("plant_bad");
  const fs::path file = dir.path / "fern.gltf";
  const auto edited = [&](const std::function<void(json&)>& edit) {
    write_plant_gltf(file, make_sample_fern(), {.name = "Fern"});
    json j = read_json(file);
    edit(j);
    write_json(file, j);
    return import_error(file);
  };
  const auto expect_one_line = [&](const std::string& e, const std::string& what, const std::string& node) {
    EXPECT_NE(e.find(what), std::string::npos) << e;
    EXPECT_NE(e.find("fern.gltf"), std::string::npos) << e;
    EXPECT_NE(e.find(node), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  };
  expect_one_line(edited([](json& j) { j["nodes"][0]["name"] = "Fern_LOD2"; }), "no LOD0", "node '");
  expect_one_line(edited([](json& j) { j["meshes"][1]["primitives"][0]["mode"] = 1; }), "points or lines",
                  "node 'Fern_LOD1'");
  // A node scale past the float range places the leaves at infinity: refused before any bounds or
  // impostor reads them.
  expect_one_line(edited([](json& j) {
                    j["nodes"][0]["scale"] = {1e39, 1e39, 1e39};
                  }),
                  "non-finite position", "node '");
  // Strips and fans are triangles (read as lists): not an error.
  EXPECT_EQ(edited([](json& j) { j["meshes"][1]["primitives"][0]["mode"] = 5; }), "");
  EXPECT_EQ(edited([](json& j) { j["meshes"][1]["primitives"][0]["mode"] = 6; }), "");
  expect_one_line(edited([](json& j) {
                    for (json& img : j["images"]) img["uri"] = "gone.png";
                  }),
                  "gone.png", "node 'Fern_LOD0'");
  // A grid of 441 vertices whose indices were written as bytes: 256 vertices at most.
  PlantModel grid;
  grid.lods[0] = make_grid_mesh(20, [](std::uint32_t i, std::uint32_t j, glm::vec3& p, glm::vec3&) {
    p = glm::vec3(float(i), 0.0f, float(j));
  });
  write_plant_gltf(file, grid, {.name = "Grid", .geometric_levels = 1, .billboard = false});
  json j = read_json(file);
  j["accessors"][j["meshes"][0]["primitives"][0]["indices"].get<int>()]["componentType"] = 5121;
  write_json(file, j);
  expect_one_line(import_error(file), "8-bit indices", "node 'Grid_LOD0'");
  EXPECT_NE(import_error(dir.path / "absent.glb").find("absent.glb"), std::string::npos);
}

TEST(PlantGltf, ANewTypeScattersLikeTheNearestKindAndPrefabsUseTheModelBounds) {
  std::vector<PlantType> types = default_plant_types();
  auto fern = std::make_shared<const PlantModel>(make_sample_fern());
  const std::size_t i = set_plant_model(types, "fern", fern);
  ASSERT_EQ(i, 3u);
  EXPECT_EQ(types[i].kind, PlantKind::kBush);  // about 4 m tall: closer to bushes than to 8 m trees
  EXPECT_EQ(set_plant_model(types, "tree", fern), 0u);
  const std::vector<Prefab> prefabs = make_prefabs(types);
  EXPECT_EQ(prefabs[0].bounds.max.y, fern->bounds().max.y);
  const PlantArt art = plant_art(types);
  ASSERT_EQ(art.meshes.size(), types.size() * kPlantLodCount);
  // Each type brings its own textures: the fern's one for the tree, the generated bush's and grass's,
  // the fern's again for the new type.
  const std::size_t before_fern = 1 + generated_plant(PlantKind::kBush)->textures.size() +
                                  generated_plant(PlantKind::kGrass)->textures.size();
  ASSERT_EQ(art.textures.size(), before_fern + 1);
  const auto& surfaces = art.meshes[3 * kPlantLodCount].surfaces;  // the new type's LOD0
  EXPECT_TRUE(std::any_of(surfaces.begin(), surfaces.end(),
                          [&](const PlantSurface& s) { return s.texture == before_fern; }));
}

// A bake carries its imported models beside its tiles; a reader rebuilds the bake's types from them
// (the replaced tree and the added fern), and a plant file that does not fit the types is an error
// naming it.
TEST(PlantGltf, ABakeCarriesItsModelsAndTheyLoadBack) {
  test::TempDir dir("plant_bake");
  BakeOptions o = test::small_world(400.0);
  const auto fern = std::make_shared<const PlantModel>(make_sample_fern());
  set_plant_model(o.types, "tree", fern);
  set_plant_model(o.types, "fern", fern);
  const BakeSummary baked = bake_to_directory(o, dir.path);
  EXPECT_EQ(baked.plant_files, 2u);
  EXPECT_TRUE(fs::exists(dir.path / "plant_0_tree.glb"));
  EXPECT_TRUE(fs::exists(dir.path / "plant_3_fern.glb"));
  std::vector<PlantType> types = default_plant_types();
  EXPECT_EQ(load_baked_plants(dir.path, types), 2u);
  ASSERT_EQ(types.size(), 4u);
  ASSERT_TRUE(types[0].model && types[3].model);
  EXPECT_FALSE(types[1].model);
  EXPECT_EQ(types[3].name, "fern");
  for (std::size_t l = 0; l < kPlantLodCount; ++l)
    EXPECT_EQ(types[3].model->lods[l].triangle_count(), fern->lods[l].triangle_count());
  EXPECT_EQ(plant_art(types).meshes.size(), make_prefabs(types).size() * kPlantLodCount);
  // A plant file for a type the bake does not have.
  fs::copy_file(dir.path / "plant_3_fern.glb", dir.path / "plant_9_moss.glb");
  std::vector<PlantType> again = default_plant_types();
  try {
    (void)load_baked_plants(dir.path, again);
    ADD_FAILURE() << "a plant file past the types loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("plant_9_moss.glb"), std::string::npos) << e.what();
  }
  // Baking again without models removes the old plant files.
  EXPECT_EQ(bake_to_directory(test::small_world(400.0), dir.path).plant_files, 0u);
  EXPECT_FALSE(fs::exists(dir.path / "plant_0_tree.glb"));
  EXPECT_FALSE(fs::exists(dir.path / "plant_9_moss.glb"));
}

TEST(PlantTextures, ArrayHasEveryLevelAndKeepsAlphaCoverage) {
  const PlantModel fern = make_sample_fern();
  PlantTexture small{"small", 64, 32, std::vector<std::uint8_t>(64 * 32 * 4, 200)};
  const std::vector<PlantTexture> textures{fern.textures[0], small};
  const PlantTextureArray a = make_texture_array(textures, 512);
  EXPECT_EQ(a.size, 128u);
  EXPECT_EQ(a.layers, 2u);
  ASSERT_EQ(a.levels.size(), 8u);  // 128 .. 1
  const double base = alpha_coverage(std::span(a.levels[0]).first(128 * 128 * 4), kCoverageCutoff);
  EXPECT_GT(base, 0.2);
  for (std::size_t l = 1; l + 2 < a.levels.size(); ++l) {
    const std::size_t side = 128u >> l;
    EXPECT_EQ(a.levels[l].size(), side * side * 4 * 2);
    const double c = alpha_coverage(std::span(a.levels[l]).first(side * side * 4), kCoverageCutoff);
    EXPECT_NEAR(c, base, 0.08) << "level " << l;
  }
  const PlantTextureArray none = make_texture_array({}, 512);
  EXPECT_EQ(none.layers, 1u);
  EXPECT_EQ(none.levels[0], (std::vector<std::uint8_t>{255, 255, 255, 255}));
}

}  // namespace
}  // namespace myriad::vegetation
