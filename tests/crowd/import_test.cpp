// Import for baking: real models merge into one mesh with per-triangle materials; models the baker
// cannot use fail with errors that say why.
#include "myriad/crowd_bake/import.hpp"

#include "crowd_test_assets.hpp"

#include "myriad/core/error.hpp"

#include <gtest/gtest.h>

namespace myriad::crowd {
namespace {

std::string error_of(const anim::ImportedModel& model) {
  try {
    import_for_bake(model, "model.glb");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Import, MergesEverySkinnedPrimitive) {
  const anim::ImportedModel model = load_shared_model("cesium_man.gltf");
  const BakeSource s = import_for_bake(model, "cesium_man.gltf");
  std::size_t vertices = 0, indices = 0;
  for (const anim::SkinnedMesh& m : model.meshes) vertices += m.positions.size(), indices += m.indices.size();
  EXPECT_EQ(s.mesh.vertex_count(), vertices);
  EXPECT_EQ(s.mesh.indices.size(), indices);
  EXPECT_EQ(s.mesh.triangle_count(), 4672u);
  ASSERT_FALSE(s.materials.empty());
  EXPECT_GE(s.materials[0].texture, 0);
  EXPECT_EQ(s.textures.size(), model.textures.size());
  for (const glm::vec3& n : s.mesh.normals) EXPECT_NEAR(glm::length(n), 1.0f, 1e-5f);
}

TEST(Import, FoxHasItsMaterialAndCullingFlag) {
  const anim::ImportedModel model = load_shared_model("Fox.glb");
  const BakeSource s = import_for_bake(model, "Fox.glb");
  EXPECT_EQ(s.mesh.triangle_count(), 576u);
  ASSERT_EQ(s.materials.size(), model.materials.size());
  EXPECT_EQ(s.materials[0].double_sided, model.materials[0].double_sided);
}

TEST(Import, RejectsModelsTheBakerCannotUse) {
  anim::ImportedModel model = load_shared_model("Fox.glb");
  anim::ImportedModel no_clips = model;
  no_clips.clips.clear();
  EXPECT_NE(error_of(no_clips).find("no animation clip"), std::string::npos) << error_of(no_clips);
  anim::ImportedModel no_skin = model;
  no_skin.skeleton = {};
  EXPECT_NE(error_of(no_skin).find("no skin"), std::string::npos) << error_of(no_skin);
  anim::ImportedModel empty = model;
  for (anim::SkinnedMesh& m : empty.meshes) m.indices.clear();
  EXPECT_NE(error_of(empty).find("no triangles"), std::string::npos) << error_of(empty);
  anim::ImportedModel nan = model;
  nan.meshes[0].positions[3].y = std::nanf("");
  EXPECT_NE(error_of(nan).find("non-finite position"), std::string::npos) << error_of(nan);
  anim::ImportedModel flat = model;  // every triangle collapsed onto one point
  for (anim::SkinnedMesh& m : flat.meshes)
    m.positions.assign(m.positions.size(), glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_NE(error_of(flat).find("zero area"), std::string::npos) << error_of(flat);
}

TEST(Import, CountsNonManifoldEdgesAndDegenerateTriangles) {
  anim::ImportedModel model = load_shared_model("Fox.glb");
  const BakeSource clean = import_for_bake(model, "Fox.glb");
  // A fin: a copy of triangle 0 turned around its first edge makes that edge shared by three triangles.
  anim::SkinnedMesh& m = model.meshes[0];
  const std::uint32_t a = m.indices[0], b = m.indices[1], c = m.indices[2];
  m.positions.push_back(m.positions[c] + glm::vec3(0.0f, 0.0f, 1.0f));
  if (!m.normals.empty()) m.normals.push_back(m.normals[c]);  // Fox stores none
  if (!m.uvs.empty()) m.uvs.push_back(m.uvs[c]);
  m.joints.push_back(m.joints[c]);
  m.weights.push_back(m.weights[c]);
  const auto fin = static_cast<std::uint32_t>(m.positions.size() - 1);
  m.indices.insert(m.indices.end(), {b, a, fin, a, a, b});  // the fin and one degenerate triangle
  const BakeSource s = import_for_bake(model, "Fox.glb");
  EXPECT_EQ(s.non_manifold_edges, clean.non_manifold_edges + 1);
  EXPECT_EQ(s.degenerate_triangles, clean.degenerate_triangles + 1);
}

}  // namespace
}  // namespace myriad::crowd
