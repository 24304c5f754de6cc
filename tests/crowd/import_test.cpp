// Import for baking: real models merge into one mesh with per-triangle materials; models the baker
// cannot use fail with errors that say why.
#include "myriad/crowd/import.hpp"

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
}

}  // namespace
}  // namespace myriad::crowd
